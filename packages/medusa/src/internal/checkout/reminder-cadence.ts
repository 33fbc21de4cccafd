import { businessDayBefore, payableDay } from "../platform/business-days";
import { atSaoPauloHour, nextDay, saoPauloDay, saoPauloHour } from "@pix-checkout/client/books";
import type { RecoveryOptions } from "./recovery-options";
import type { ReminderStep } from "../records/reminders";

export type { ReminderStep };

/** What the cadence reads of a charge (all on its own row). */
export interface CadenceCharge {
  method: "pix" | "boleto";
  createdAt: Date;
  expiresAt: Date | null;
  /**
   * A boleto's due date as the shopper was shown it (`YYYY-MM-DD`, the barcode's, on a business
   * day; a charge recorded before due dates moved off weekends is read as its next business day).
   */
  dueDay: string | null;
  /** A boleto's grace end: until then its order waits (records: `order_hold_until`). */
  graceEndsAt: Date | null;
}

/** A step and when it falls due. */
export interface PlannedReminder {
  step: ReminderStep;
  at: Date;
}

/**
 * The charge's whole cadence, in order, leaving out steps that would fall before the charge
 * was made (a boleto made on the eve of its due date has no "due tomorrow").
 */
export function reminderPlan(charge: CadenceCharge, options: RecoveryOptions): PlannedReminder[] {
  const plan: PlannedReminder[] = [];
  const { expiresAt } = charge;
  if (charge.method === "pix") {
    if (!expiresAt) return plan;
    plan.push({
      step: "pix_expiring",
      at: new Date(expiresAt.getTime() - options.pixMinutesBeforeExpiry * 60_000),
    });
    plan.push({
      step: "pix_expired",
      at: new Date(expiresAt.getTime() + options.pixMinutesAfterExpiry * 60_000),
    });
  } else {
    // Every step goes on a bank business day: "due tomorrow" on the business day before the
    // real due date (a Friday for a Monday), "due today" on it, "overdue" on the first business
    // day after the grace.
    const dueDay = realDueDay(charge);
    if (!dueDay) return plan;
    plan.push({
      step: "boleto_due_tomorrow",
      at: atSaoPauloHour(businessDayBefore(dueDay), options.boletoHour),
    });
    plan.push({ step: "boleto_due_today", at: atSaoPauloHour(dueDay, options.boletoHour) });
    if (charge.graceEndsAt) {
      plan.push({
        step: "boleto_overdue",
        at: atSaoPauloHour(
          payableDay(nextDay(saoPauloDay(charge.graceEndsAt))),
          options.boletoHour,
        ),
      });
    }
  }
  return plan.filter((reminder) => reminder.at > charge.createdAt);
}

/** The first step of the plan not in `handled`, or null when the cadence is over. */
export function nextReminder(
  plan: PlannedReminder[],
  handled: ReadonlySet<ReminderStep>,
): PlannedReminder | null {
  return plan.find((reminder) => !handled.has(reminder.step)) ?? null;
}

/** The bank business day before `day` (`YYYY-MM-DD`), as the grace period counts them. */
export { businessDayBefore };

/** A boleto's real due date: the day shown, or its expiry's, on a bank business day. */
export function realDueDay(charge: CadenceCharge): string | null {
  const shown = charge.dueDay ?? (charge.expiresAt ? saoPauloDay(charge.expiresAt) : null);
  return shown ? payableDay(shown) : null;
}

/**
 * When the quiet hours around `at` end, or null when `at` is outside them. Quiet hours may
 * cross midnight (21 to 8) or not (13 to 14).
 */
export function quietEndsAt(
  at: Date,
  options: Pick<RecoveryOptions, "quietFrom" | "quietUntil">,
): Date | null {
  const { quietFrom, quietUntil } = options;
  const hour = saoPauloHour(at);
  const crossesMidnight = quietFrom > quietUntil;
  const quiet = crossesMidnight
    ? hour >= quietFrom || hour < quietUntil
    : hour >= quietFrom && hour < quietUntil;
  if (!quiet) return null;
  const today = saoPauloDay(at);
  const endsToday = atSaoPauloHour(today, quietUntil);
  return endsToday > at ? endsToday : atSaoPauloHour(nextDay(today), quietUntil);
}

/**
 * Until when a step still makes sense: a reminder of a code that is about to expire is no use
 * a minute before it does, "due tomorrow" none on the due date. Null: no end.
 */
export function stepValidUntil(step: ReminderStep, charge: CadenceCharge): Date | null {
  const dueDay = realDueDay(charge);
  switch (step) {
    case "pix_expiring":
      return charge.expiresAt ? new Date(charge.expiresAt.getTime() - 60_000) : null;
    case "boleto_due_tomorrow":
      return dueDay ? atSaoPauloHour(dueDay, 0) : null;
    case "boleto_due_today":
      return dueDay ? atSaoPauloHour(nextDay(dueDay), 0) : null;
    default:
      return null;
  }
}

/** When a new charge's first reminder falls due, or null when the store sends none. */
export function firstReminderAt(options: RecoveryOptions, charge: CadenceCharge): Date | null {
  if (!options.enabled) return null;
  return reminderPlan(charge, options)[0]?.at ?? null;
}
