import { InvalidRequestError, maskDocument } from "@pix-checkout/client";
import { LanguageCode, PaymentMethodHandler } from "@vendure/core";
import { boletoPayerOf, refusalOfIssues } from "./boleto-payer";
import { BOLETO_HANDLER_CODE } from "./handler-codes";
import { bindService, codeMetadata, serviceOf, settleIfConfirmed } from "./handler-service";

export { BOLETO_HANDLER_CODE };

/**
 * Boleto through the payment service (Variant A accounts). A boleto takes days, so the order is
 * placed at once: the payment is `Authorized` (Vendure's "to be settled later", as for payment
 * on delivery) and the order moves to `PaymentAuthorized`; it is settled only when the service
 * confirms the payment (webhook or reconciliation), with the same rule as a Pix. The payer's
 * CPF or CNPJ is kept on the payment's own metadata, where the nota fiscal needs it (the admin
 * reads it), never in `metadata.public`: the Shop API shows it masked.
 */
export const boletoPaymentHandler = new PaymentMethodHandler({
  code: BOLETO_HANDLER_CODE,
  description: [
    { languageCode: LanguageCode.pt_BR, value: "Boleto bancário" },
    { languageCode: LanguageCode.en, value: "Boleto" },
  ],
  args: {},
  init: bindService,
  createPayment: async (ctx, order, amount, _args, metadata) => {
    if (amount < 1) {
      return {
        amount,
        state: "Declined" as const,
        errorMessage: "Este pedido já tem um pagamento aguardando: pague esse boleto ou código.",
      };
    }
    const address = order.billingAddress?.streetLine1
      ? order.billingAddress
      : order.shippingAddress;
    const payer = boletoPayerOf(
      {
        customer: order.customer
          ? {
              firstName: order.customer.firstName,
              lastName: order.customer.lastName,
              emailAddress: order.customer.emailAddress,
              phoneNumber: order.customer.phoneNumber ?? "",
            }
          : null,
        address: address?.streetLine1
          ? {
              streetLine1: address.streetLine1 ?? "",
              city: address.city ?? "",
              province: address.province ?? "",
              postalCode: address.postalCode ?? "",
              phoneNumber: address.phoneNumber ?? "",
            }
          : null,
      },
      (metadata ?? {}) as Record<string, unknown>,
    );
    if ("refused" in payer)
      return { amount, state: "Declined" as const, errorMessage: payer.refused };
    let charge;
    try {
      charge = await serviceOf().createBoleto(order, amount, payer);
    } catch (error) {
      if (error instanceof InvalidRequestError) {
        return {
          amount,
          state: "Declined" as const,
          errorMessage: refusalOfIssues(error.issues),
        };
      }
      throw error;
    }
    return {
      amount,
      state: "Authorized" as const,
      transactionId: charge.id,
      metadata: codeMetadata(
        ctx,
        charge.id,
        {
          method: "boleto",
          digitableLine: charge.boleto?.digitableLine ?? null,
          barcode: charge.boleto?.barcode ?? null,
          url: charge.boleto?.url ?? null,
          expiresAt: charge.expiresAt,
          amountCents: charge.amountCents,
          buyerDocument: maskDocument(payer.customer.document),
        },
        // For the nota fiscal: the admin reads it; the Shop API only the masked one above.
        { buyerDocument: payer.customer.document },
      ),
    };
  },
  settlePayment: settleIfConfirmed,
});
