import type { CheckoutSession } from "../session.js";
import { FINAL_STATUSES } from "./status-mapping.js";

// A hand-written guard rather than zod: it runs in shoppers' browsers, where every
// kilobyte counts, and it only needs to refuse what the views could not render.
const text = (v: unknown): v is string => typeof v === "string" && v !== "";
const time = (v: unknown) => text(v) && Date.parse(v) > 0;
const int = Number.isSafeInteger;

/**
 * Checks that `value` is a session the element can render; returns it, or null.
 * Unknown extra fields are kept (the backend may add some); a pending session without its
 * method's data is refused, and so is a `refund_due` without `refund.amount`. Only a pending
 * session needs `expires_at` (its countdown aims there): a `preparing` one has none yet, nor
 * does the `failed` or `superseded` a preparing request may end as.
 */
export function parseSession(value: unknown): CheckoutSession | null {
  const s = (value ?? {}) as Partial<CheckoutSession>;
  const pending = s.status === "pending";
  const ok =
    text(s.session_id) &&
    (pending ||
      /^(preparing|superseded|held|confirming)$/.test(s.status!) ||
      FINAL_STATUSES.includes(s.status!)) &&
    int(s.amount) &&
    text(s.currency) &&
    (s.expires_at == null ? !pending : time(s.expires_at)) &&
    time(s.server_time) &&
    // The refund view's one essential line is how much comes back.
    (s.status !== "refund_due" || int(s.refund?.amount)) &&
    // Only a pending session shows its code (a superseded one has none any more).
    (s.method === "pix"
      ? !pending || text(s.pix?.copy_paste)
      : s.method === "boleto" &&
        (!pending ||
          [s.boleto?.url, s.boleto?.barcode, s.boleto?.digitable_line, s.boleto?.due_date].every(
            text,
          )));
  // A malformed renew target only loses the element its "new code" button.
  if (s.renew && !(text(s.renew.payment_collection_id) && text(s.renew.provider_id))) {
    s.renew = null;
  }
  // Nor does a malformed discount lose more than its line.
  if (s.pix_discount && !(s.pix_discount.saved > 0)) s.pix_discount = null;
  return ok ? (s as CheckoutSession) : null;
}
