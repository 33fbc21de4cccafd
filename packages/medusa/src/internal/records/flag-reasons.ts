/**
 * Why money a shopper paid must go back to them: no order could be made from the payment.
 * - `paid_twice`: the collection already holds another paid charge (an old code paid too);
 * - `paid_old_amount`: a replaced code was paid, and its amount no longer covers the cart;
 * - `out_of_stock`: the cart could not become an order (the last unit sold meanwhile);
 * - `cart_not_completed`: the cart could not become an order, for another lasting reason;
 * - `order_canceled`: the order was canceled after the payment was captured.
 */
export type RefundReason =
  "paid_twice" | "paid_old_amount" | "out_of_stock" | "cart_not_completed" | "order_canceled";

/**
 * Why a charge waits for the merchant ("Needs attention"). Stored as a code with values
 * (`flag_code`, `flag_detail`) and, for logs and other tools, as one English sentence
 * (`flag_reason`). Rows flagged before the codes existed have only the sentence; `readFlag`
 * reads it back. Both directions live here so they cannot drift apart.
 */
export type FlagReason =
  | { code: "refund_due"; reason: RefundReason; amount_cents: number; order_id?: string | null }
  | { code: "amount_mismatch"; api_cents: number; recorded_cents: number }
  | { code: "paid_after_order_canceled"; order_id: string }
  | { code: "paid_after_charge_closed"; status: string }
  | { code: "capture_failed"; attempts: number; message: string }
  | { code: "check_failed"; attempts: number; message: string }
  | { code: "other"; message: string };

/** The stored sentence for a reason. */
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
    case "other":
      return reason.message;
  }
}

const READERS: Array<[RegExp, (m: RegExpExecArray) => FlagReason]> = [
  [
    /^refund due: (\d+) cents \((\w+)\)$/,
    (m) => ({ code: "refund_due", amount_cents: Number(m[1]), reason: m[2] as RefundReason }),
  ],
  [
    /^API amount (\d+) differs from (\d+)$/,
    (m) => ({ code: "amount_mismatch", api_cents: Number(m[1]), recorded_cents: Number(m[2]) }),
  ],
  [
    /^paid after order (\S+) was canceled$/,
    (m) => ({ code: "paid_after_order_canceled", order_id: m[1]! }),
  ],
  [
    /^paid after the charge was (\w+)$/,
    (m) => ({ code: "paid_after_charge_closed", status: m[1]! }),
  ],
  [
    /^paid, but Medusa could not capture it \((\d+) attempts\): ([\s\S]*)$/,
    (m) => ({ code: "capture_failed", attempts: Number(m[1]), message: m[2]! }),
  ],
  [
    /^could not be checked with the payment service after (\d+) attempts: ([\s\S]*)$/,
    (m) => ({ code: "check_failed", attempts: Number(m[1]), message: m[2]! }),
  ],
];

/** The reason of a stored row: its code and values, or (older rows) its sentence read back. */
export function flagOf(row: {
  flag_code?: string | null;
  flag_detail?: unknown;
  flag_reason: string | null;
}): FlagReason | null {
  if (row.flag_code) {
    const detail = (
      typeof row.flag_detail === "string" ? JSON.parse(row.flag_detail) : row.flag_detail
    ) as Record<string, unknown> | null;
    return { ...(detail ?? {}), code: row.flag_code } as FlagReason;
  }
  return row.flag_reason ? readFlag(row.flag_reason) : null;
}

/** A stored sentence read back as its reason; anything else is `other` with the text. */
export function readFlag(text: string): FlagReason {
  for (const [pattern, read] of READERS) {
    const match = pattern.exec(text);
    if (match) return read(match);
  }
  return { code: "other", message: text };
}
