import { randomInt } from "node:crypto";

// Carta-Circular BCB 2.926/2000 layout of the 44-digit "cobrança bancária" barcode:
// bank(3) currency(1) DV(1) due-date factor(4) value(10) free field(25).
// Kept apart from the client's conversion on purpose: the client's suites run against boletos
// this emulator makes, and one function shared by both would let a mistake in it pass both.

/** Bank code of sandbox boletos. "000" belongs to no bank, so no one can pay one for real. */
export const SANDBOX_BANK_CODE = "000";

function mod11BarcodeDigit(digits43: string): string {
  let sum = 0;
  let weight = 2;
  for (let i = digits43.length - 1; i >= 0; i--) {
    sum += Number(digits43[i]) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const dv = 11 - (sum % 11);
  return dv === 0 || dv === 10 || dv === 11 ? "1" : String(dv);
}

function mod10(digits: string): string {
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i--) {
    const product = Number(digits[i]) * weight;
    sum += product > 9 ? product - 9 : product;
    weight = weight === 2 ? 1 : 2;
  }
  return String((10 - (sum % 10)) % 10);
}

const DAY_MS = 86_400_000;
const FACTOR_BASE = Date.UTC(1997, 9, 7);

// A boleto falls due on a calendar day in Brazil: 22:04 in São Paulo is already the next day in
// UTC, and the date the shopper is shown and the one the bank enforces must be the same day.
const saoPauloDay = new Intl.DateTimeFormat("en-CA", {
  timeZone: "America/Sao_Paulo",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/**
 * The due-date factor of the São Paulo calendar day of `dueAtMs`: days since 1997-10-07,
 * restarting at 1000 after 9999 (the rollover of 2025-02-22 that FEBRABAN announced), so it
 * stays four digits.
 */
export function dueDateFactor(dueAtMs: number): string {
  const [year, month, day] = saoPauloDay.format(new Date(dueAtMs)).split("-").map(Number) as [
    number,
    number,
    number,
  ];
  const dayStart = Date.UTC(year, month - 1, day);
  let factor = Math.round((dayStart - FACTOR_BASE) / DAY_MS);
  if (factor > 9999) factor = ((factor - 10_000) % 9_000) + 1_000;
  return String(factor).padStart(4, "0");
}

/** A boleto's 44-digit barcode and the 47-digit digitable line derived from it. */
export interface BoletoNumbers {
  barcode: string;
  digitableLine: string;
}

/** Builds the barcode for an amount and due date, with a random free field, and its line. */
export function buildBoleto(input: { amountCents: number; dueAtMs: number }): BoletoNumbers {
  const value = String(input.amountCents).padStart(10, "0");
  if (value.length !== 10) throw new RangeError("A boleto value has at most 10 digits");
  let free = "";
  for (let i = 0; i < 25; i++) free += String(randomInt(10));
  const withoutDv = `${SANDBOX_BANK_CODE}9${dueDateFactor(input.dueAtMs)}${value}${free}`;
  const barcode = withoutDv.slice(0, 4) + mod11BarcodeDigit(withoutDv) + withoutDv.slice(4);
  return { barcode, digitableLine: digitableLineOf(barcode) };
}

/** The 47-digit digitable line of a 44-digit barcode (three mod-10 fields, DV, factor + value). */
export function digitableLineOf(barcode: string): string {
  const field1 = barcode.slice(0, 4) + barcode.slice(19, 24);
  const field2 = barcode.slice(24, 34);
  const field3 = barcode.slice(34, 44);
  return (
    field1 +
    mod10(field1) +
    field2 +
    mod10(field2) +
    field3 +
    mod10(field3) +
    barcode.slice(4, 5) +
    barcode.slice(5, 19)
  );
}
