import { BigNumber } from "@medusajs/framework/utils";
import type { BigNumberInput } from "@medusajs/framework/types";
import { invalidData } from "./errors";

/**
 * Converts a Medusa amount in reais (a number, numeric string, BigNumber or raw
 * `{ value }`) to integer cents. Decimal arithmetic throughout: `10.1` is 1010, never 1009.
 * Throws `invalid_amount` for fractions of a cent, non-positive or non-finite amounts.
 */
export function toCents(amount: BigNumberInput): number {
  let value;
  try {
    value = new BigNumber(amount).bigNumber;
  } catch {
    value = undefined;
  }
  if (!value || !value.isFinite()) {
    throw invalidData(
      "invalid_amount",
      `Amount ${String(amount)} is not a finite number of reais.`,
    );
  }
  const cents = value.shiftedBy(2);
  if (!cents.isInteger()) {
    throw invalidData(
      "invalid_amount",
      `Amount ${value.toFixed()} has a fraction of a cent; round it to 2 decimal places.`,
    );
  }
  if (cents.isLessThanOrEqualTo(0)) {
    throw invalidData("invalid_amount", `Amount ${value.toFixed()} must be greater than zero.`);
  }
  if (cents.isGreaterThan(Number.MAX_SAFE_INTEGER)) {
    throw invalidData("invalid_amount", `Amount ${value.toFixed()} is too large.`);
  }
  return cents.toNumber();
}

/**
 * Converts integer cents back to a Medusa amount in reais, as a BigNumber so no float
 * division happens (1050 → 10.5).
 */
export function fromCents(cents: number): BigNumber {
  if (!Number.isSafeInteger(cents)) {
    throw invalidData("invalid_amount", `Cents value ${String(cents)} is not an integer.`);
  }
  return new BigNumber(new BigNumber(cents).bigNumber!.shiftedBy(-2).toFixed());
}
