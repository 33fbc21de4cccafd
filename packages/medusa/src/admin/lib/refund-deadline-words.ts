// What the "Needs attention" list and the order widget say of money owed back on a Pix: the
// days left of its 90 and the deadline (the amount is on the money line just above it), from the server's one rule
// (records/refund-deadline.ts), which answers each charge's `refund_deadline`.
import type { RefundDeadline } from "../../internal/records/refund-deadline";
import type { PixT } from "./i18n";

export type { RefundDeadline };

/** `YYYY-MM-DD` as `DD/MM/AAAA`, the way the books and a Brazilian merchant write a day. */
export function deadlineDate(day: string): string {
  const [year, month, date] = day.split("-");
  return `${date}/${month}/${year}`;
}

/**
 * "Prazo para devolver pelo Pix: faltam 12 dias (até 08/03/2027)"; the last day and a deadline
 * passed (the devolução can no longer go through Pix: return it by transfer) say so.
 */
export function refundDeadlineWords(deadline: RefundDeadline, t: PixT): string {
  const values = {
    date: deadlineDate(deadline.deadline),
    count: deadline.days_left,
  };
  if (deadline.days_left < 0) return t("refundDeadline.past", values);
  if (deadline.days_left === 0) return t("refundDeadline.today", values);
  if (deadline.days_left === 1) return t("refundDeadline.leftOne", values);
  return t("refundDeadline.left", values);
}

/** Red once 5 days or fewer are left, or the deadline passed; amber from 15. */
export function refundDeadlineTone(deadline: RefundDeadline): "error" | "warning" | "subtle" {
  if (deadline.state === "critical" || deadline.state === "past") return "error";
  return deadline.state === "warning" ? "warning" : "subtle";
}
