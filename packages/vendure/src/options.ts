import { bankCalendar, isExtraHoliday, type BankCalendar } from "@pix-checkout/client/bank-days";
import {
  DEFAULT_REMINDER_CADENCE,
  type ReminderCadenceOptions,
} from "@pix-checkout/client/reminders";

/** What the plugin needs to reach the payment service and to know its webhooks. */
export interface PixCheckoutVendureOptions {
  /** Secret key, `sk_live_...`: server side only, never in a response, a log or metadata. */
  apiKey: string;
  /** The service's base URL, ending in `/v1`. */
  baseUrl: string;
  /** Which description of the API the service follows. */
  variant: "a" | "b";
  /**
   * The token the webhook URL carries (`/pix-checkout/webhook?token=<it>`): 16+ URL-safe
   * characters. Deliveries carry no signature, so a delivery is only a hint to ask the service
   * (fetch-back); the token keeps strangers from making the store ask.
   */
  webhookSecret: string;
  /**
   * Bank business days after a boleto's due date during which its unpaid order stays open
   * (banks confirm a boleto paid on its due date one to three business days later). Default 3,
   * 0 to 30. Past it, reconciliation cancels the unpaid order and its stock goes back.
   */
  boletoGraceBusinessDays?: number;
  /**
   * The store's bank calendar (README "Bank calendar"): days its banks are closed on top of the
   * national bank holidays and 31 December, as the Medusa plugin's `calendar.extraHolidays`.
   * `YYYY-MM-DD` for one day (`"2027-01-20"`, São Sebastião in Rio), `MM-DD` for every year
   * (`"01-25"`, São Paulo's anniversary); at most 1,000. Each moves a boleto's grace, its
   * reminders and a MED's deadline as a national holiday does.
   */
  calendar?: { extraHolidays?: readonly string[] };
  /**
   * Reminders to the shopper about an unpaid code (README "Reminders"): the plugin decides and
   * publishes `PixCheckoutReminderEvent`; the store's mailer sends it. On unless `enabled` is
   * false. Hours are São Paulo's (0 to 23); the defaults are the Medusa plugin's.
   */
  reminders?: {
    /** Default true. */
    enabled?: boolean;
    /** A Pix code is recalled this many minutes before it expires: 2 to 1440, default 10. */
    pixMinutesBeforeExpiry?: number;
    /** Minutes after a Pix code expired unpaid before "take a new code": 0 to 1440, default 5. */
    pixMinutesAfterExpiry?: number;
    /** The hour of a boleto's reminders: default 9. */
    boletoHour?: number;
    /** No reminder from this hour (default 21)… */
    quietFrom?: number;
    /** …until this one (default 8); one due in between waits for it. */
    quietUntil?: number;
  };
}

/** The reminders' options after defaults. */
export type ReminderOptions = ReminderCadenceOptions & { enabled: boolean };

/** `reminders` with its defaults filled in (`DEFAULT_REMINDER_CADENCE`, enabled). */
export function reminderOptionsOf(options: PixCheckoutVendureOptions): ReminderOptions {
  const given = options.reminders ?? {};
  const pick = (key: keyof ReminderCadenceOptions) => given[key] ?? DEFAULT_REMINDER_CADENCE[key];
  return {
    enabled: given.enabled ?? true,
    pixMinutesBeforeExpiry: pick("pixMinutesBeforeExpiry"),
    pixMinutesAfterExpiry: pick("pixMinutesAfterExpiry"),
    boletoHour: pick("boletoHour"),
    quietFrom: pick("quietFrom"),
    quietUntil: pick("quietUntil"),
  };
}

/** `boletoGraceBusinessDays` when the options leave it out. */
export const DEFAULT_BOLETO_GRACE_BUSINESS_DAYS = 3;

/** The injection token of the options. */
export const PIX_CHECKOUT_OPTIONS = Symbol("PIX_CHECKOUT_OPTIONS");

/** Refuses options a store cannot run with, naming the field and what to set. */
export function checkOptions(options: PixCheckoutVendureOptions): PixCheckoutVendureOptions {
  if (!options?.apiKey) throw new Error("PixCheckoutPlugin: apiKey is required (sk_live_...).");
  if (!options.baseUrl) throw new Error("PixCheckoutPlugin: baseUrl is required (…/v1).");
  if (options.variant !== "a" && options.variant !== "b") {
    throw new Error('PixCheckoutPlugin: variant must be "a" or "b".');
  }
  if (!/^[A-Za-z0-9_-]{16,}$/.test(options.webhookSecret ?? "")) {
    throw new Error(
      "PixCheckoutPlugin: webhookSecret must be 16 or more URL-safe characters (letters, digits, - and _).",
    );
  }
  const grace = options.boletoGraceBusinessDays;
  if (grace !== undefined && !(Number.isInteger(grace) && grace >= 0 && grace <= 30)) {
    throw new Error(
      "PixCheckoutPlugin: boletoGraceBusinessDays must be a whole number of bank business days from 0 to 30 (default 3).",
    );
  }
  checkReminders(options.reminders);
  checkCalendar(options.calendar);
  return options;
}

/** The most extra holidays a store may list (years of municipal holidays fit well under it). */
export const MAX_EXTRA_HOLIDAYS = 1000;

function checkCalendar(calendar: PixCheckoutVendureOptions["calendar"]): void {
  if (calendar === undefined) return;
  const days = (calendar as { extraHolidays?: unknown } | null)?.extraHolidays;
  if (
    typeof calendar !== "object" ||
    calendar === null ||
    (days !== undefined && !Array.isArray(days))
  ) {
    throw new Error(
      'PixCheckoutPlugin: calendar.extraHolidays must be a list of days, e.g. ["2027-01-20", "01-25"].',
    );
  }
  if ((days ?? []).length > MAX_EXTRA_HOLIDAYS) {
    throw new Error(
      `PixCheckoutPlugin: calendar.extraHolidays takes at most ${MAX_EXTRA_HOLIDAYS} days.`,
    );
  }
  for (const day of days ?? []) {
    if (typeof day !== "string" || !isExtraHoliday(day)) {
      throw new Error(
        `PixCheckoutPlugin: calendar.extraHolidays: ${JSON.stringify(day)} is not a day: write YYYY-MM-DD for one day (2027-01-20) or MM-DD for every year (01-25).`,
      );
    }
  }
}

const calendars = new WeakMap<PixCheckoutVendureOptions, BankCalendar>();

/**
 * The store's bank calendar: the national one and the options' `calendar.extraHolidays`. Made
 * once per options object; every count of business days in the plugin passes it.
 */
export function bankCalendarOf(options: PixCheckoutVendureOptions): BankCalendar {
  let calendar = calendars.get(options);
  if (!calendar) {
    calendar = bankCalendar({ extraHolidays: options.calendar?.extraHolidays ?? [] });
    calendars.set(options, calendar);
  }
  return calendar;
}

const wholeIn = (value: unknown, min: number, max: number) =>
  value === undefined ||
  (typeof value === "number" && Number.isInteger(value) && value >= min && value <= max);

function checkReminders(reminders: PixCheckoutVendureOptions["reminders"]): void {
  if (reminders === undefined) return;
  const fail = (rule: string) => {
    throw new Error(`PixCheckoutPlugin: reminders.${rule}`);
  };
  if (typeof reminders !== "object" || reminders === null) {
    throw new Error("PixCheckoutPlugin: reminders must be an object (or left out).");
  }
  if (reminders.enabled !== undefined && typeof reminders.enabled !== "boolean") {
    fail("enabled must be true or false (default true).");
  }
  if (!wholeIn(reminders.pixMinutesBeforeExpiry, 2, 24 * 60)) {
    fail("pixMinutesBeforeExpiry must be a whole number of minutes from 2 to 1440 (default 10).");
  }
  if (!wholeIn(reminders.pixMinutesAfterExpiry, 0, 24 * 60)) {
    fail("pixMinutesAfterExpiry must be a whole number of minutes from 0 to 1440 (default 5).");
  }
  for (const [key, fallback] of [
    ["boletoHour", 9],
    ["quietFrom", 21],
    ["quietUntil", 8],
  ] as const) {
    if (!wholeIn(reminders[key], 0, 23)) {
      fail(`${key} must be a whole São Paulo hour from 0 to 23 (default ${fallback}).`);
    }
  }
  const { quietFrom, quietUntil } = { ...DEFAULT_REMINDER_CADENCE, ...definedOf(reminders) };
  if (quietFrom === quietUntil) fail("quietUntil must differ from quietFrom.");
}

/** The fields given, without the ones set to undefined (which mean "the default"). */
function definedOf<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(value).filter(([, field]) => field !== undefined),
  ) as Partial<T>;
}
