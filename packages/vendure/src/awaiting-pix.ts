import type { PaymentProcess } from "@vendure/core";

/**
 * A Pix code shown and not yet paid: Vendure's payments start `Created` and must move on at
 * once, and neither `Authorized` (it would place the order) nor `Declined` says it. The order
 * stays in `ArrangingPayment` while its payment is `AwaitingPix`; the service's confirmation
 * settles it, an expiry cancels it. A code paid that pays nothing of its order
 * (settlement-verdict.ts `hold`) is `Declined` for it, its money listed for the merchant to
 * return (`pixCheckoutHeldPayments`): declined, it covers nothing of the order's total, as
 * Vendure counts payments.
 */
export const AWAITING_PIX = "AwaitingPix";

/**
 * The states of a code of ours still to be paid: a Pix's `AwaitingPix`, and a boleto's
 * `Authorized` (its order is placed at once, and waits days for the payment).
 */
export const AWAITING_PAYMENT: ReadonlySet<string> = new Set([AWAITING_PIX, "Authorized"]);

declare module "@vendure/core" {
  interface PaymentStates {
    AwaitingPix: never;
  }
}

export const awaitingPixProcess: PaymentProcess<typeof AWAITING_PIX> = {
  transitions: {
    Created: { to: [AWAITING_PIX], mergeStrategy: "merge" },
    AwaitingPix: { to: ["Settled", "Cancelled", "Declined", "Error"] },
    // A boleto paid that pays nothing of its order is declined for it, as a Pix is.
    Authorized: { to: ["Declined"], mergeStrategy: "merge" },
  },
};
