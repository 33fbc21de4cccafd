import { businessDaysUntil as clientBusinessDaysUntil } from "@pix-checkout/client/bank-days";
import {
  MED_WARN_BUSINESS_DAYS,
  medDeadlineState as deadlineStateOf,
  type MedDeadlineState,
} from "@pix-checkout/client/med";
import { storeBankCalendar } from "../platform/business-days";

/*
 * When a MED's deadline needs the merchant (docs/ledger.md, "Pix returned by the MED"): the
 * institution decides a notificação de infração by a date, and the merchant who has not heard
 * by then should ask. Pure: the health card and its test read it.
 */

export { MED_WARN_BUSINESS_DAYS, type MedDeadlineState };

/**
 * Bank business days after `today` up to and including `deadline` (São Paulo days), on the
 * store's calendar (`businessDaysUntil` of `@pix-checkout/client/bank-days`).
 */
export function businessDaysUntil(today: string, deadline: string): number {
  return clientBusinessDaysUntil(today, deadline, storeBankCalendar());
}

/** Where an open MED's deadline stands on `today` (`@pix-checkout/client/med`'s rule). */
export function medDeadlineState(
  today: string,
  deadline: string,
  warnDays = MED_WARN_BUSINESS_DAYS,
): MedDeadlineState {
  return deadlineStateOf(businessDaysUntil(today, deadline), warnDays);
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
