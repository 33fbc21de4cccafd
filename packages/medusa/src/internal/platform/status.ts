import { PaymentSessionStatus } from "@medusajs/framework/utils";

/** The API's charge status words, verbatim (spec: "States and transitions"). */
export const CHARGE_STATUSES = ["pending", "paid", "expired", "failed"] as const;

/** A charge status as the API spells it. */
export type ChargeStatus = (typeof CHARGE_STATUSES)[number];

/**
 * The one place API statuses become Medusa session statuses. `pending` maps to
 * `pending_authorization` (not `pending`) because that is what lets cart completion create
 * an order that waits for payment (order-first checkout).
 */
export function toSessionStatus(status: ChargeStatus): PaymentSessionStatus {
  switch (status) {
    case "paid":
      return PaymentSessionStatus.CAPTURED;
    case "pending":
      return PaymentSessionStatus.PENDING_AUTHORIZATION;
    case "expired":
      return PaymentSessionStatus.CANCELED;
    case "failed":
      return PaymentSessionStatus.ERROR;
  }
}
