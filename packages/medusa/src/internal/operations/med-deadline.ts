import { isBankBusinessDay } from "../platform/business-days";

/*
 * When a MED's deadline needs the merchant (docs/ledger.md, "Pix returned by the MED"): the
 * institution decides a notificação de infração by a date, and the merchant who has not heard
 * by then should ask. Pure: the health card and its test read it.
 */

/** How many bank business days before a MED's deadline the health card warns. */
export const MED_WARN_BUSINESS_DAYS = 2;

/** Where an open MED's deadline stands on `today`. */
export type MedDeadlineState = "ok" | "near" | "past";

const noonInSaoPaulo = (day: string) => new Date(`${day}T12:00:00-03:00`);

/**
 * Bank business days after `today` up to and including `deadline` (both `YYYY-MM-DD`, São
 * Paulo days): 0 when the deadline is today or the next business day is after it; negative
 * (the calendar days since) when it has passed.
 */
export function businessDaysUntil(today: string, deadline: string): number {
  const start = noonInSaoPaulo(today).getTime();
  const end = noonInSaoPaulo(deadline).getTime();
  const DAY = 86_400_000;
  if (end < start) return -Math.round((start - end) / DAY);
  let count = 0;
  for (let at = start + DAY; at <= end; at += DAY) {
    if (isBankBusinessDay(new Date(at))) count += 1;
  }
  return count;
}

/**
 * `past` once the deadline's day has gone by, `near` from `warnDays` business days before it
 * (the deadline's own day included), `ok` before.
 */
export function medDeadlineState(
  today: string,
  deadline: string,
  warnDays = MED_WARN_BUSINESS_DAYS,
): MedDeadlineState {
  const left = businessDaysUntil(today, deadline);
  if (left < 0) return "past";
  return left <= warnDays ? "near" : "ok";
}

/** An open MED as the health card reads it. */
export interface OpenMed {
  chargeId: string;
  protocol: string;
  /** `YYYY-MM-DD`. */
  deadline: string;
  blockedCents: number;
}

/** The health card's MED line (id `med`), as health.ts `HealthLine` takes it. */
export interface MedHealthLine {
  id: "med";
  state: "ok" | "warning";
  value: number;
  detail: Record<string, unknown>;
  action: "record_med_outcome" | null;
}

/**
 * The health card's line of open MEDs on `today`: a warning while a deadline is near or past
 * (the merchant asks the service for the outcome and records it), with how many, the nearest
 * deadline and its charge; ok with the count otherwise.
 */
export function medHealthLine(open: readonly OpenMed[], today: string): MedHealthLine {
  const sorted = [...open].sort((a, b) => a.deadline.localeCompare(b.deadline));
  const states = sorted.map((m) => medDeadlineState(today, m.deadline));
  const past = states.filter((s) => s === "past").length;
  const near = states.filter((s) => s === "near").length;
  const nearest = sorted[0];
  const detail: Record<string, unknown> = {
    open: open.length,
    blocked_cents: open.reduce((sum, m) => sum + m.blockedCents, 0),
    near,
    past,
    nearest_deadline: nearest?.deadline ?? null,
    nearest_charge_id: nearest?.chargeId ?? null,
    nearest_protocol: nearest?.protocol ?? null,
  };
  if (past + near === 0)
    return { id: "med", state: "ok", value: open.length, detail, action: null };
  return {
    id: "med",
    state: "warning",
    value: open.length,
    detail: { ...detail, reason: past > 0 ? "med_deadline_past" : "med_deadline_near" },
    action: "record_med_outcome",
  };
}
