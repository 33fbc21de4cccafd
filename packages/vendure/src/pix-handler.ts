import { LanguageCode, PaymentMethodHandler, type Injector } from "@vendure/core";
import { AWAITING_PIX } from "./awaiting-pix";
import { PixCheckoutService } from "./pix-checkout.service";

/** The handler's code: what a Vendure payment method names, and what the Shop API's `addPaymentToOrder` asks for. */
export const PIX_HANDLER_CODE = "pix-checkout-pix";

let service: PixCheckoutService | undefined;

/**
 * Pix through the payment service. `addPaymentToOrder` makes a code for the order's whole total
 * and answers a Payment in state `AwaitingPix`, its code in `metadata.public` (the Shop API shows
 * it): the order stays in `ArrangingPayment` until the service confirms the payment. The
 * Payment is settled only then, by the webhook after asking the service (fetch-back), never on
 * a client's word; `settlePayment` asks the service again before saying yes.
 */
export const pixPaymentHandler = new PaymentMethodHandler({
  code: PIX_HANDLER_CODE,
  description: [
    { languageCode: LanguageCode.pt_BR, value: "Pix" },
    { languageCode: LanguageCode.en, value: "Pix" },
  ],
  args: {},
  init(injector: Injector) {
    service = injector.get(PixCheckoutService);
  },
  createPayment: async (ctx, order, amount) => {
    const charge = await serviceOf().createPix(ctx, order, amount);
    return {
      amount,
      state: AWAITING_PIX,
      transactionId: charge.id,
      metadata: {
        // Ours, written here on the server: the channel the code was made in, so the webhook
        // acts in that channel only.
        channelToken: ctx.channel.token,
        public: {
          method: "pix",
          copyPaste: charge.pix?.copyPaste ?? null,
          expiresAt: charge.expiresAt,
          amountCents: charge.amountCents,
        },
      },
    };
  },
  settlePayment: async (_ctx, order, payment) => {
    // Asked again here: an admin's "settle" on a code nobody paid must not settle it.
    const verdict = await serviceOf().verdictOf(order, payment);
    if (verdict.kind === "settle") return { success: true };
    throw new Error(verdict.why);
  },
});

function serviceOf(): PixCheckoutService {
  if (!service) throw new Error("PixCheckoutPlugin is not in the Vendure config's plugins.");
  return service;
}
