import type { RefundReason } from "../records/flag-reasons";
import type { HeldReason } from "../records/ledger-parts";

/*
 * Every sentence the settlement writes as a webhook delivery's `detail` (and as a decision's
 * `why`), in one place: the API and logs carry them in English, and the admin translates each
 * one (admin/lib/delivery-detail.ts, whose test walks this list).
 */
export const DELIVERY_DETAILS = {
  alreadyCaptured: "already captured",
  capturingElsewhere: "another process is capturing it",
  unmatched: "no payment session knows this charge yet",
  stillPending: "still pending",
  paidIgnored: (status: string) => `charge is paid; ${status} ignored`,
  workerCaptures: "paid; the worker captures it",
  capturesAfterAnswer: "paid; captured after the answer",
  captureRetry: (error: string) =>
    `paid; the capture failed and reconciliation retries it: ${error}`,
  held: (reason: Extract<HeldReason, "underpaid">) => `held for the merchant: ${reason}`,
  refundDue: (reason: RefundReason) => `refund due: ${reason}`,
  verified: "verified",
  notConfirmed: (status: string) => `not confirmed by the API (${status})`,
  notThisCollection: "not a charge of this collection",
  chargeIs: (status: string) => `charge is ${status}`,
  refunded: "refunded",
  replacedEnded: "a replaced code ended",
  collectionPaid: "the collection holds a payment",
  anotherCodeOpen: "another code of the collection may still be paid",
  noOrderWaits: "no order waits on it",
} as const;
