/**
 * Brazilian bank business days, for a boleto's due date, its reminders, its grace period, the
 * daily books and a MED's deadline. The calendar itself (weekends, the national bank holidays,
 * 31 December, Easter, São Paulo's days) is the one the sandbox counts with too,
 * `@pix-checkout/client/bank-days`: one calendar, so the plugin's view of a due date and the
 * service's emulator never disagree about a holiday.
 *
 * The store's calendar adds the plugin entry's `calendar.extraHolidays` (docs/options.md, "Bank
 * calendar") to it. It is held here, one per process, set once when the plugin's module starts
 * (`setStoreBankCalendar`, from the loader that checks the options) rather than passed down every
 * call: every count below uses it unless a caller passes a calendar of its own. Until the
 * module has started (a unit test, a script that loads no module) it is the default calendar,
 * the national holidays only.
 */
import {
  DEFAULT_BANK_CALENDAR,
  boletoGraceEndsAt as clientBoletoGraceEndsAt,
  businessDayBefore as clientBusinessDayBefore,
  endOfBusinessDaysAfter as clientEndOfBusinessDaysAfter,
  isBankBusinessDay as clientIsBankBusinessDay,
  isBusinessDay as clientIsBusinessDay,
  payableDay as clientPayableDay,
  payableUntil as clientPayableUntil,
  type BankCalendar,
} from "@pix-checkout/client/bank-days";

export {
  bankCalendar,
  dueWords,
  easterSunday,
  isExtraHoliday,
} from "@pix-checkout/client/bank-days";
export type { BankCalendar };

let storeCalendar: BankCalendar = DEFAULT_BANK_CALENDAR;

/** Makes `calendar` the store's: every count of this process uses it from now on. */
export function setStoreBankCalendar(calendar: BankCalendar): void {
  storeCalendar = calendar;
}

/** The calendar the store counts with (the default one until the plugin's module starts). */
export function storeBankCalendar(): BankCalendar {
  return storeCalendar;
}

/** `isBankBusinessDay` of the client, with the store's calendar. */
export function isBankBusinessDay(day: Date, calendar: BankCalendar = storeCalendar): boolean {
  return clientIsBankBusinessDay(day, calendar);
}

/** `endOfBusinessDaysAfter` of the client, with the store's calendar. */
export function endOfBusinessDaysAfter(
  from: Date,
  businessDays: number,
  calendar: BankCalendar = storeCalendar,
): Date {
  return clientEndOfBusinessDaysAfter(from, businessDays, calendar);
}

/** `boletoGraceEndsAt` of the client, with the store's calendar. */
export function boletoGraceEndsAt(
  dueDate: Date,
  businessDays: number,
  calendar: BankCalendar = storeCalendar,
): Date {
  return clientBoletoGraceEndsAt(dueDate, businessDays, calendar);
}

/** `payableUntil` of the client, with the store's calendar. */
export function payableUntil(due: Date, calendar: BankCalendar = storeCalendar): Date {
  return clientPayableUntil(due, calendar);
}

/** `payableDay` of the client, with the store's calendar. */
export function payableDay(day: string, calendar: BankCalendar = storeCalendar): string {
  return clientPayableDay(day, calendar);
}

/** `businessDayBefore` of the client, with the store's calendar. */
export function businessDayBefore(day: string, calendar: BankCalendar = storeCalendar): string {
  return clientBusinessDayBefore(day, calendar);
}

/** `isBusinessDay` of the client, with the store's calendar. */
export function isBusinessDay(day: string, calendar: BankCalendar = storeCalendar): boolean {
  return clientIsBusinessDay(day, calendar);
}
