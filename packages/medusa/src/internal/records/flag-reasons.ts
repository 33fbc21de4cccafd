/**
 * Why money a shopper paid must go back to them (the ledger's `owed` part):
 * - `paid_twice`: the collection already holds another paid charge (an old code paid too);
 * - `paid_old_amount`: a replaced code was paid, and its amount no longer covers the cart;
 * - `paid_replaced`: a replaced code was paid that would cover it, but the shopper had moved to
 *   another way to pay (the other method, another account's provider, another provider);
 * - `paid_elsewhere`: the collection was paid another way (another provider, such as a card,
 *   or the merchant's "mark as paid");
 * - `overpaid`: more arrived than the code asked for: the excess;
 * - `amount_lowered`: the collection asked less than the code when it was paid (an order edited
 *   down under a live code, a replaced code of a cart that got cheaper): the difference;
 * - `paid_after_order_canceled`: the payment arrived after its order was canceled;
 * - `out_of_stock`: the cart could not become an order (the last unit sold meanwhile);
 * - `cart_not_completed`: the cart could not become an order, for another lasting reason;
 * - `order_canceled`: the order was canceled after the payment was captured;
 * - `collection_canceled`: the payment collection it paid was canceled or deleted in Medusa
 *   (an order's collection the merchant or an order change replaced): it pays for nothing.
 */
export const REFUND_REASONS = [
  "paid_twice",
  "paid_old_amount",
  "paid_replaced",
  "paid_elsewhere",
  "overpaid",
  "amount_lowered",
  "paid_after_order_canceled",
  "out_of_stock",
  "cart_not_completed",
  "order_canceled",
  "collection_canceled",
] as const;

/** Why money is owed back. */
export type RefundReason = (typeof REFUND_REASONS)[number];

/**
 * Why a charge waits for the merchant ("Needs attention"). Stored as a code with values
 * (`flag_code`, `flag_detail`); the admin says it in the merchant's language, and
 * `describeFlag` says it in English for the log line.
 */
export type FlagReason =
  | { code: "refund_due"; reason: RefundReason; amount_cents: number; order_id?: string | null }
  | { code: "amount_mismatch"; api_cents: number; recorded_cents: number }
  /** Written before the ledger (0.1.0); such a payment is now owed back (`refund_due`). */
  | { code: "paid_after_order_canceled"; order_id: string }
  | { code: "paid_after_charge_closed"; status: string }
  | { code: "capture_failed"; attempts: number; message: string }
  | { code: "check_failed"; attempts: number; message: string }
  /** The boleto's barcode falls due on another day than the service's `expires_at` says. */
  | { code: "boleto_due_date_mismatch"; service_date: string; barcode_date: string }
  | { code: "other"; message: string };

/** A reason as one English sentence, for log lines only: nothing stores or reads it back. */
export function describeFlag(reason: FlagReason): string {
  switch (reason.code) {
    case "refund_due":
      return `refund due: ${reason.amount_cents} cents (${reason.reason})`;
    case "amount_mismatch":
      return `API amount ${reason.api_cents} differs from ${reason.recorded_cents}`;
    case "paid_after_order_canceled":
      return `paid after order ${reason.order_id} was canceled`;
    case "paid_after_charge_closed":
      return `paid after the charge was ${reason.status}`;
    case "capture_failed":
      return `paid, but Medusa could not capture it (${reason.attempts} attempts): ${reason.message}`;
    case "check_failed":
      return `could not be checked with the payment service after ${reason.attempts} attempts: ${reason.message}`;
    case "boleto_due_date_mismatch":
      return `the boleto's barcode is due ${reason.barcode_date}, the service says ${reason.service_date}`;
    case "other":
      return reason.message;
  }
}

/** The reason of a stored row: its code and values. */
export function flagOf(row: {
  flag_code?: string | null;
  flag_detail?: unknown;
}): FlagReason | null {
  if (!row.flag_code) return null;
  const detail = (
    typeof row.flag_detail === "string" ? JSON.parse(row.flag_detail) : row.flag_detail
  ) as Record<string, unknown> | null;
  return { ...(detail ?? {}), code: row.flag_code } as FlagReason;
}
