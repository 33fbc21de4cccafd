import type { LocalChargeStatus } from "../records/charges";
import { quietEndsAt, type ReminderStep } from "../checkout/reminder-cadence";

/**
 * Why a reminder was not sent, as the merchant reads it on the charge's timeline:
 * - `paid`: the collection (this code or another of the cart's) is paid, or Medusa holds it
 *   paid another way;
 * - `replaced`: the shopper took a newer code;
 * - `order_canceled`: the merchant canceled the order the code was for;
 * - `code_gone`: the code can no longer be paid (canceled, failed, expired before its reminder);
 * - `not_expired`: the service never confirmed the expiry a new-code message would announce;
 * - `too_late`: the moment for this step passed (the store was down, or quiet hours);
 * - `no_mailbox` / `stranger` / `opted_out`: nobody the store may write to (`stranger`: the
 *   mailbox has no paid order here, or no page showed the code and no order exists:
 *   storefront/mailbox-proof.ts);
 * - `cart_limit` / `mailbox_limit`: the cart's or the mailbox's messages for the day are spent;
 * - `no_template`: the store configured no template for the step.
 */
export const REMINDER_SKIP_REASONS = [
  "paid",
  "replaced",
  "order_canceled",
  "code_gone",
  "not_expired",
  "too_late",
  "no_mailbox",
  "stranger",
  "opted_out",
  "cart_limit",
  "mailbox_limit",
  "no_template",
] as const;

/** Why a reminder was not sent (see REMINDER_SKIP_REASONS). */
export type ReminderSkipReason = (typeof REMINDER_SKIP_REASONS)[number];

/** What to do with a reminder that is due. */
export type ReminderVerdict =
  { kind: "send" } | { kind: "skip"; reason: ReminderSkipReason } | { kind: "defer"; until: Date };

/** Everything the verdict reads, gathered at send time from the money's records. */
export interface ReminderFacts {
  step: ReminderStep;
  now: Date;
  charge: { status: LocalChargeStatus; superseded: boolean; expiresAt: Date | null };
  /** Until when the step still makes sense (cadence.ts `stepValidUntil`); null: no end. */
  validUntil: Date | null;
  /** A charge of the collection counts as its payment, or Medusa's collection is completed. */
  collectionPaid: boolean;
  /**
   * The order the code was for was canceled: by the plugin, because this boleto went unpaid
   * through its grace period, or by the merchant (any other cancel).
   */
  orderCanceled: false | "unpaid" | "by_merchant";
  /** Who the message would go to: nobody, a mailbox the store may not write to, or one it may. */
  mailbox: "none" | "stranger" | "opted_out" | "ok";
  /** Reminders sent for this cart this São Paulo day. */
  sentToCartToday: number;
  options: { perCartPerDay: number; quietFrom: number; quietUntil: number };
}

/** How long a `pix_expired` reminder waits for the service to confirm the expiry. */
export const EXPIRY_CONFIRMATION_MS = 60 * 60_000;
/** The pause before looking again at a code whose expiry is not confirmed yet. */
export const EXPIRY_RECHECK_MS = 2 * 60_000;

/**
 * Whether a due reminder goes now. Made when the message would be sent, never when it was
 * scheduled, against what the store's records say of the money: the charge, its collection and
 * its order. The money is checked first: a paid cart gets nothing, whatever else holds.
 */
export function reminderVerdict(facts: ReminderFacts): ReminderVerdict {
  const { step, now, charge } = facts;
  if (facts.collectionPaid || charge.status === "paid") return skip("paid");
  if (charge.superseded) return skip("replaced");
  // An order-first boleto's order ends with its grace period: the overdue message is exactly
  // about that (buy again, by Pix or a new boleto). Any other cancel is the merchant's word.
  if (facts.orderCanceled && !(step === "boleto_overdue" && facts.orderCanceled === "unpaid")) {
    return skip("order_canceled");
  }
  const stateProblem = codeStateProblem(step, charge, now);
  if (stateProblem) return stateProblem;
  if (facts.validUntil && now >= facts.validUntil) return skip("too_late");
  if (facts.mailbox !== "ok") return skip(facts.mailbox === "none" ? "no_mailbox" : facts.mailbox);
  if (facts.sentToCartToday >= facts.options.perCartPerDay) return skip("cart_limit");
  const quietEnd = quietEndsAt(now, facts.options);
  if (quietEnd) {
    return facts.validUntil && quietEnd >= facts.validUntil
      ? skip("too_late")
      : { kind: "defer", until: quietEnd };
  }
  return { kind: "send" };
}

/** The code's own status against what the step announces. */
function codeStateProblem(
  step: ReminderStep,
  charge: ReminderFacts["charge"],
  now: Date,
): ReminderVerdict | null {
  switch (step) {
    case "pix_expired":
      if (charge.status === "expired") return null;
      if (charge.status !== "pending") return skip("code_gone");
      // The service has not confirmed the expiry yet (a late webhook; reconciliation asks).
      return charge.expiresAt && now.getTime() < charge.expiresAt.getTime() + EXPIRY_CONFIRMATION_MS
        ? { kind: "defer", until: new Date(now.getTime() + EXPIRY_RECHECK_MS) }
        : skip("not_expired");
    case "boleto_due_tomorrow":
    case "boleto_due_today":
    case "boleto_overdue":
      // A service may call a boleto expired at its due instant, while banks take it all that
      // day and confirm it days later (the grace period): unpaid is what matters, and the
      // step's own window (`validUntil`) says when it is too late.
      return charge.status === "pending" || charge.status === "expired" ? null : skip("code_gone");
    default:
      return charge.status === "pending" ? null : skip("code_gone");
  }
}

const skip = (reason: ReminderSkipReason): ReminderVerdict => ({ kind: "skip", reason });
