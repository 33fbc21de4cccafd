import type { PaymentProcess } from "@vendure/core";

/**
 * A Pix code shown and not yet paid: Vendure's payments start `Created` and must move on at
 * once, and neither `Authorized` (it would place the order) nor `Declined` says it. The order
 * stays in `ArrangingPayment` while its payment is `AwaitingPix`; the service's confirmation
 * settles it, an expiry or a replaced code cancels it.
 */
export const AWAITING_PIX = "AwaitingPix";

declare module "@vendure/core" {
  interface PaymentStates {
    AwaitingPix: never;
  }
}

export const awaitingPixProcess: PaymentProcess<typeof AWAITING_PIX> = {
  transitions: {
    Created: { to: [AWAITING_PIX], mergeStrategy: "merge" },
    AwaitingPix: { to: ["Settled", "Cancelled", "Declined", "Error"] },
  },
};
