/**
 * The reminders' cadence on the store's bank calendar. The cadence itself (the steps, when each
 * falls due, until when it makes sense, the quiet hours) is `@pix-checkout/client/reminders`,
 * shared with the Vendure plugin; this binds it to the calendar the store counts with
 * (`storeBankCalendar()`, with `calendar.extraHolidays`), read at each call, so every import
 * here reads as before.
 */
import {
  nextReminder,
  quietEndsAt,
  realDueDay as clientRealDueDay,
  reminderPlan as clientReminderPlan,
  stepValidUntil as clientStepValidUntil,
  type CadenceCharge,
  type PlannedReminder,
  type ReminderStep,
} from "@pix-checkout/client/reminders";
import { businessDayBefore, storeBankCalendar, type BankCalendar } from "../platform/business-days";
import type { RecoveryOptions } from "./recovery-options";

export type { CadenceCharge, PlannedReminder, ReminderStep };
export { nextReminder, quietEndsAt };

/**
 * The charge's whole cadence, in order, leaving out steps that would fall before the charge
 * was made (`reminderPlan` of the client, on the store's calendar).
 */
export function reminderPlan(
  charge: CadenceCharge,
  options: RecoveryOptions,
  calendar: BankCalendar = storeBankCalendar(),
): PlannedReminder[] {
  return clientReminderPlan(charge, options, calendar);
}

/** The bank business day before `day` (`YYYY-MM-DD`), as the grace period counts them. */
export { businessDayBefore };

/** A boleto's real due date: the day shown, or its expiry's, on a bank business day of the store. */
export function realDueDay(
  charge: CadenceCharge,
  calendar: BankCalendar = storeBankCalendar(),
): string | null {
  return clientRealDueDay(charge, calendar);
}

/** Until when a step still makes sense (`stepValidUntil` of the client, on the store's calendar). */
export function stepValidUntil(
  step: ReminderStep,
  charge: CadenceCharge,
  calendar: BankCalendar = storeBankCalendar(),
): Date | null {
  return clientStepValidUntil(step, charge, calendar);
}

/** When a new charge's first reminder falls due, or null when the store sends none. */
export function firstReminderAt(options: RecoveryOptions, charge: CadenceCharge): Date | null {
  if (!options.enabled) return null;
  return reminderPlan(charge, options)[0]?.at ?? null;
}
