import type { PixT } from "./i18n";

/*
 * What the server wrote about a webhook delivery (`detail`, an English sentence kept for logs
 * and the API), in the admin's language. Each sentence the settlement writes has a pattern
 * here; the test feeds every one of them. An error message from elsewhere stays as it came.
 */
type Words = (match: RegExpExecArray, t: PixT, status: (s: string) => string) => string;

const PATTERNS: [RegExp, Words][] = [
  [/^already captured$/, (_, t) => t("deliveryDetail.already_captured")],
  [/^another process is capturing it$/, (_, t) => t("deliveryDetail.capturing_elsewhere")],
  [/^no payment session knows this charge yet$/, (_, t) => t("deliveryDetail.unmatched")],
  [/^still pending$/, (_, t) => t("deliveryDetail.still_pending")],
  [
    /^charge is paid; (\w+) ignored$/,
    (m, t, status) => t("deliveryDetail.paid_ignored", { status: status(m[1]!) }),
  ],
  [/^paid; the worker captures it$/, (_, t) => t("deliveryDetail.worker_captures")],
  [/^paid; captured after the answer$/, (_, t) => t("deliveryDetail.captures_after_answer")],
  [
    /^paid; the capture failed and reconciliation retries it: (.*)$/s,
    (m, t) => t("deliveryDetail.capture_retry", { error: m[1] }),
  ],
  [
    /^held for the merchant: (\w+)$/,
    (m, t) => t("deliveryDetail.held", { why: t(`deliveryDetail.${m[1]}`) }),
  ],
  [
    /^refund due: (\w+)$/,
    (m, t) => t("deliveryDetail.refund_due", { why: t(`refundReason.${m[1]}`) }),
  ],
  [/^verified$/, (_, t) => t("deliveryDetail.verified")],
  [
    /^not confirmed by the API \((.*)\)$/,
    (m, t) => t("deliveryDetail.not_confirmed", { status: m[1] }),
  ],
  [/^not a charge of this collection$/, (_, t) => t("deliveryDetail.not_this_collection")],
  [/^charge is (\w+)$/, (m, t, status) => t("deliveryDetail.charge_is", { status: status(m[1]!) })],
  [/^refunded$/, (_, t) => t("deliveryDetail.refunded")],
  [/^a replaced code ended$/, (_, t) => t("deliveryDetail.replaced_ended")],
  [/^the collection holds a payment$/, (_, t) => t("deliveryDetail.collection_paid")],
  [
    /^another code of the collection may still be paid$/,
    (_, t) => t("deliveryDetail.another_code_open"),
  ],
  [/^no order waits on it$/, (_, t) => t("deliveryDetail.no_order_waits")],
  [
    /^(capture|end_order|cancel_session|keep_order|complete_cart|recheck)$/,
    (m, t) => t("deliveryDetail.decision", { what: t(`decision.${m[1]}`) }),
  ],
];

/** A delivery's detail in the admin's words; unknown text (an error message) as it came. */
export function deliveryDetailWords(
  detail: string | null | undefined,
  t: PixT,
  status: (s: string) => string,
): string {
  if (!detail) return "";
  for (const [pattern, words] of PATTERNS) {
    const match = pattern.exec(detail);
    if (match) return words(match, t, status);
  }
  return detail;
}
