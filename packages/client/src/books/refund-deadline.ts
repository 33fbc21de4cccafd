import { daysInclusive, saoPauloDay } from "./sao-paulo-time.js";

/**
 * The clock of money owed back to a shopper (the Medusa plugin's ledger's `owed` part, the
 * Vendure plugin's refunds due), one rule for both. A Pix devolução may be requested up to 90 days after the original payment
 * (Regulamento Pix, anexo à Resolução BCB nº 1/2020); past that, the money can no longer go back
 * through Pix and the merchant returns it another way (a transfer to the shopper's account).
 *
 * The rule, once: the deadline of an owed amount is its charge's payment day (`paid_at`, the
 * service's, as a São Paulo calendar day) plus 90 calendar days, and the days left are São Paulo
 * days from today to that day (0 on the deadline itself). A boleto has no Pix devolução window,
 * so its owed money has no clock here: the merchant returns it under their own policy.
 */
export const PIX_REFUND_WINDOW_DAYS = 90;

/** Days left at or below which an owed Pix amount warns (health card, one alert). */
export const REFUND_DEADLINE_WARNING_DAYS = 15;

/** Days left at or below which it is critical (health card, one more alert). */
export const REFUND_DEADLINE_CRITICAL_DAYS = 5;

/**
 * Where an owed amount stands against its deadline: `ok` (more than 15 days left), `warning`
 * (15 to 6), `critical` (5 to 0, the deadline day included) or `past` (the devolução can no
 * longer be made by Pix).
 */
export type RefundDeadlineState = "ok" | "warning" | "critical" | "past";

/** The deadline of one charge's owed money. */
export interface RefundDeadline {
  /** The last São Paulo day a Pix devolução may be requested, `YYYY-MM-DD`. */
  deadline: string;
  /** São Paulo days from today to `deadline`: 0 on the day, negative once past. */
  days_left: number;
  state: RefundDeadlineState;
}

/** What the rule reads of a charge: its method, its payment and what is owed back of it. */
export interface OwedCharge {
  method: "pix" | "boleto";
  paid_at: Date | string | null;
  owed_cents: number | string;
  /** The charge's MED case state: while `open`, the owed money it blocked has no clock here. */
  med_state?: string | null;
  /** Owed money the charge's MED case blocked (records/ledger-parts.ts `medBlockedOwedOf`). */
  med_blocked_owed_cents?: number | string | null;
}

/**
 * What of a charge's owed money the devolução clock asks for: all of it but what an open MED
 * blocked (the case's outcome settles that, or gives it back to this clock).
 */
export const owedOnTheClock = (charge: OwedCharge): number =>
  Number(charge.owed_cents) -
  (charge.med_state === "open" ? Number(charge.med_blocked_owed_cents ?? 0) : 0);

/** The day `days` calendar days after `YYYY-MM-DD` (no time zone involved). */
function addDays(day: string, days: number): string {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date + days)).toISOString().slice(0, 10);
}

/** The state of `days_left` (see `RefundDeadlineState`). */
export function refundDeadlineState(daysLeft: number): RefundDeadlineState {
  if (daysLeft < 0) return "past";
  if (daysLeft <= REFUND_DEADLINE_CRITICAL_DAYS) return "critical";
  if (daysLeft <= REFUND_DEADLINE_WARNING_DAYS) return "warning";
  return "ok";
}

/**
 * The deadline of a charge's owed money at `now`, or null when nothing is owed (or all of it is
 * blocked by an open MED, whose outcome settles it), the charge is a
 * boleto (no Pix devolução window) or it has no payment. Pure: the list, the order widget, the
 * health card, its alerts and the books all ask this.
 */
export function refundDeadline(charge: OwedCharge, now: Date): RefundDeadline | null {
  if (charge.method !== "pix" || charge.paid_at === null) return null;
  if (owedOnTheClock(charge) <= 0) return null;
  const paidAt = new Date(charge.paid_at);
  if (Number.isNaN(paidAt.getTime())) return null;
  const deadline = addDays(saoPauloDay(paidAt), PIX_REFUND_WINDOW_DAYS);
  const daysLeft = daysInclusive(saoPauloDay(now), deadline) - 1;
  return { deadline, days_left: daysLeft, state: refundDeadlineState(daysLeft) };
}

/**
 * Owed Pix money paid this long ago or longer may be 15 days or fewer from its deadline (a
 * day's margin for São Paulo's offset): the SQL prefilter of the health card and its alerts,
 * which then ask `refundDeadline` of each row.
 */
export const NEAR_DEADLINE_PAID_BEFORE_DAYS =
  PIX_REFUND_WINDOW_DAYS - REFUND_DEADLINE_WARNING_DAYS - 1;
