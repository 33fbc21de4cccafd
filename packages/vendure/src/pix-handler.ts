import { InvalidRequestError } from "@pix-checkout/client";
import { LanguageCode, PaymentMethodHandler } from "@vendure/core";
import { AWAITING_PIX } from "./awaiting-pix";
import { PIX_HANDLER_CODE } from "./handler-codes";
import { brl } from "@pix-checkout/client/books";
import { bindService, codeMetadata, serviceOf, settleIfConfirmed } from "./handler-service";

export { PIX_HANDLER_CODE };

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
  init: bindService,
  createPayment: async (ctx, order, amount) => {
    // Vendure asks for what the order's payments do not cover yet: nothing, while a code of
    // the whole total still waits to be paid.
    if (amount < 1) {
      return {
        amount,
        state: "Declined" as const,
        errorMessage:
          "Este pedido já tem um código Pix aguardando pagamento: pague esse código ou troque a forma de pagamento.",
      };
    }
    let charge;
    try {
      charge = await serviceOf().createPix(ctx, order, amount);
    } catch (error) {
      // The service refused this amount (below its minimum): said, never a code for another.
      if (error instanceof InvalidRequestError) {
        return {
          amount,
          state: "Declined" as const,
          errorMessage: `O Pix recusou o valor deste pedido (${brl(amount)}): escolha outra forma de pagamento.`,
        };
      }
      throw error;
    }
    return {
      amount,
      state: AWAITING_PIX,
      transactionId: charge.id,
      metadata: codeMetadata(ctx, charge.id, {
        method: "pix",
        copyPaste: charge.pix?.copyPaste ?? null,
        expiresAt: charge.expiresAt,
        amountCents: charge.amountCents,
      }),
    };
  },
  settlePayment: settleIfConfirmed,
});
