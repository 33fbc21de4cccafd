import {
  DEFAULT_BANK_CALENDAR,
  boletoGraceEndsAt,
  payableUntil,
  type BankCalendar,
} from "@pix-checkout/client/bank-days";

/**
 * Until when an unpaid boleto keeps its order: the end of the bank business day
 * `graceBusinessDays` after the day it may really be paid until (its due date, or the next
 * business day when that falls on a weekend or a holiday), in São Paulo. Banks confirm a boleto
 * paid on its due date days later, so the service's "expired" before then is provisional: the
 * order waits, and a payment confirmed inside it settles the order as on time. The same count
 * as the Medusa plugin's books (one calendar, `@pix-checkout/client/bank-days`), with the store's
 * own holidays (options.ts `bankCalendarOf`).
 */
export function boletoOrderHeldUntil(
  dueAt: string,
  graceBusinessDays: number,
  calendar: BankCalendar = DEFAULT_BANK_CALENDAR,
): Date {
  return boletoGraceEndsAt(payableUntil(new Date(dueAt), calendar), graceBusinessDays, calendar);
}
