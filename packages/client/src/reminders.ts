/*
 * The reminders' cadence, once (`@pix-checkout/client/reminders`), for both plugins: when a
 * shopper is reminded of an unpaid Pix code or boleto, and until when a step still makes sense.
 * Pure: it reads a charge's dates and the store's options, never a platform's records, and counts
 * bank business days on the calendar it is given (`DEFAULT_BANK_CALENDAR` when none is; the
 * Medusa plugin passes its store's, with `calendar.extraHolidays`). Whether a due step is sent
 * (the cart is paid, the code replaced, the mailbox silent…) is each plugin's own decision, read
 * from its own records.
 */
import { businessDayBefore, DEFAULT_BANK_CALENDAR, payableDay } from "./bank-days.js";
import type { BankCalendar } from "./bank-days.js";
import { atSaoPauloHour, nextDay, saoPauloDay, saoPauloHour } from "./books/sao-paulo-time.js";

/**
 * The steps of the cadence, in the order a charge meets them:
 * - `pix_expiring`: the code, while it still has `pixMinutesBeforeExpiry` left;
 * - `pix_expired`: the code expired unpaid; the shopper may take a new one;
 * - `boleto_due_tomorrow`: the bank business day before the boleto falls due;
 * - `boleto_due_today`: the morning of its due date;
 * - `boleto_overdue`: its grace period passed unpaid.
 */
export const REMINDER_STEPS = [
  "pix_expiring",
  "pix_expired",
  "boleto_due_tomorrow",
  "boleto_due_today",
  "boleto_overdue",
] as const;

/** One step of the cadence. */
export type ReminderStep = (typeof REMINDER_STEPS)[number];

/** What the cadence reads of the store's options (hours are São Paulo's, 0 to 23). */
export interface ReminderCadenceOptions {
  /** A Pix code is recalled this many minutes before it expires. */
  pixMinutesBeforeExpiry: number;
  /** Minutes after a Pix code expired unpaid before the "take a new code" step. */
  pixMinutesAfterExpiry: number;
  /** The hour of a boleto's steps. */
  boletoHour: number;
  /** No reminder from this hour… */
  quietFrom: number;
  /** …until this one (may cross midnight: 21 to 8). */
  quietUntil: number;
}

/** The cadence both plugins default to: 10 minutes before, 5 after, boletos at 9, quiet 21–8. */
export const DEFAULT_REMINDER_CADENCE: Readonly<ReminderCadenceOptions> = Object.freeze({
  pixMinutesBeforeExpiry: 10,
  pixMinutesAfterExpiry: 5,
  boletoHour: 9,
  quietFrom: 21,
  quietUntil: 8,
});

/** What the cadence reads of a charge. */
export interface CadenceCharge {
  method: "pix" | "boleto";
  createdAt: Date;
  expiresAt: Date | null;
  /**
   * A boleto's due date as the shopper was shown it (`YYYY-MM-DD`, the barcode's); null reads
   * the expiry's São Paulo day. Either is taken on its next bank business day when it is none.
   */
  dueDay: string | null;
  /**
   * A boleto's grace end: until then its order waits. Null: no `boleto_overdue` step (a plugin
   * that ends the order with the grace has nothing to say after it).
   */
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
export function reminderPlan(
  charge: CadenceCharge,
  options: Pick<
    ReminderCadenceOptions,
    "pixMinutesBeforeExpiry" | "pixMinutesAfterExpiry" | "boletoHour"
  >,
  calendar: BankCalendar = DEFAULT_BANK_CALENDAR,
): PlannedReminder[] {
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
    const dueDay = realDueDay(charge, calendar);
    if (!dueDay) return plan;
    plan.push({
      step: "boleto_due_tomorrow",
      at: atSaoPauloHour(businessDayBefore(dueDay, calendar), options.boletoHour),
    });
    plan.push({ step: "boleto_due_today", at: atSaoPauloHour(dueDay, options.boletoHour) });
    if (charge.graceEndsAt) {
      plan.push({
        step: "boleto_overdue",
        at: atSaoPauloHour(
          payableDay(nextDay(saoPauloDay(charge.graceEndsAt)), calendar),
          options.boletoHour,
        ),
      });
    }
  }
  return plan.filter((reminder) => reminder.at > charge.createdAt);
}

/** The first step of the plan not in `handled`, or null when the cadence is over. */
export function nextReminder(
  plan: readonly PlannedReminder[],
  handled: ReadonlySet<ReminderStep>,
): PlannedReminder | null {
  return plan.find((reminder) => !handled.has(reminder.step)) ?? null;
}

/** A boleto's real due date: the day shown, or its expiry's, on a bank business day. */
export function realDueDay(
  charge: Pick<CadenceCharge, "dueDay" | "expiresAt">,
  calendar: BankCalendar = DEFAULT_BANK_CALENDAR,
): string | null {
  const shown = charge.dueDay ?? (charge.expiresAt ? saoPauloDay(charge.expiresAt) : null);
  return shown ? payableDay(shown, calendar) : null;
}

/**
 * When the quiet hours around `at` end, or null when `at` is outside them. Quiet hours may
 * cross midnight (21 to 8) or not (13 to 14).
 */
export function quietEndsAt(
  at: Date,
  options: Pick<ReminderCadenceOptions, "quietFrom" | "quietUntil">,
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
export function stepValidUntil(
  step: ReminderStep,
  charge: Pick<CadenceCharge, "dueDay" | "expiresAt">,
  calendar: BankCalendar = DEFAULT_BANK_CALENDAR,
): Date | null {
  const dueDay = realDueDay(charge, calendar);
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

/** What one reminders' pass did, in counts only (no e-mail, no order): both plugins report it. */
export interface ReminderReport {
  /** Codes with a step due (decided under their order's lock). */
  due: number;
  /** Messages sent (Medusa) or events published for the store's mailer (Vendure). */
  sent: number;
  /** Steps recorded as not sent, with why. */
  skipped: number;
  /** Codes whose step waits for the quiet hours to end. */
  deferred: number;
  /** Codes that could not be decided this pass (tried again at the next). */
  errors: number;
}
