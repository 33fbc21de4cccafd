import { getBoletoInfo } from "@brazilian-utils/brazilian-utils";
import { endOfBusinessDaysAfter, payableDay, payableUntil } from "../platform/business-days";
import { saoPauloDay } from "@pix-checkout/client/books";

/** What a boleto's two dates came to: the one the shopper is shown, and any disagreement. */
export interface BoletoDueDate {
  /**
   * `YYYY-MM-DD`, the real due date: the barcode's date when it carries one, else the service's
   * (São Paulo), moved to the next bank business day when it is a weekend or a holiday.
   */
  shown: string;
  /** Set when the barcode's due date is not the São Paulo day of the service's `expires_at`. */
  mismatch?: { service_date: string; barcode_date: string };
}

/**
 * The due date a boleto's barcode carries (its "fator de vencimento"), `YYYY-MM-DD`, or null for
 * a line that is not a valid cobrança bancária boleto or carries no factor. A factor names a day
 * in one of two 9,000-day cycles; `near` (the service's due instant) picks the cycle.
 */
export function barcodeDueDay(digitableLine: string, near: Date): string | null {
  const info = getBoletoInfo(digitableLine, { referenceDate: near });
  const day = info?.expirationDate;
  if (!day) return null;
  // The library builds the day as a local-time midnight: read it back in local fields.
  const two = (n: number) => String(n).padStart(2, "0");
  return `${day.getFullYear()}-${two(day.getMonth() + 1)}-${two(day.getDate())}`;
}

/**
 * Checks the service's due instant against the barcode's due date. The barcode is what the bank
 * enforces, so its date is the one shown; a disagreement is reported for the merchant rather
 * than showing the shopper two dates. A date on a weekend or a holiday is shown as the next
 * business day, when the bank still takes the boleto without charges.
 */
export function boletoDueDate(digitableLine: string, serviceExpiresAt: Date): BoletoDueDate {
  const service = saoPauloDay(serviceExpiresAt);
  const barcode = barcodeDueDay(digitableLine, serviceExpiresAt);
  const shown = payableDay(barcode ?? service);
  if (barcode === null || barcode === service) return { shown };
  return { shown, mismatch: { service_date: service, barcode_date: barcode } };
}

/**
 * A boleto's real due instant, what the store counts its grace, cancel and reminders from: the
 * service's due instant, or the end of the next bank business day when that falls on a weekend or
 * a holiday (banks take such a boleto then without charges), and at the latest the end (São
 * Paulo) of the `dueDays`-th business day after `createdAt`, however the service counts its days.
 */
export function boletoPayableUntil(serviceExpiresAt: Date, createdAt: Date, dueDays: number): Date {
  const due = payableUntil(serviceExpiresAt);
  const cap = endOfBusinessDaysAfter(createdAt, dueDays);
  return cap < due ? cap : due;
}
