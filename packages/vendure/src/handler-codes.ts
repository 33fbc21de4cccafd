/** The handlers' codes: what a Vendure payment method names, and what `addPaymentToOrder` asks for. */
export const PIX_HANDLER_CODE = "pix-checkout-pix";

/** The boleto handler's code, as a Vendure payment method names it. */
export const BOLETO_HANDLER_CODE = "pix-checkout-boleto";
