import { BigNumber } from "@medusajs/framework/utils";
import type { BigNumberInput } from "@medusajs/framework/types";
import { PixCheckoutError } from "./errors";

/**
 * Converts a Medusa amount in reais (a number, numeric string, BigNumber or raw
 * `{ value }`) to integer cents, rounding half-up to the cent. Decimal arithmetic
 * throughout: `10.1` is 1010, never 1009.
 *
 * Medusa does not round promotion or tax amounts, so a cart's total (and the payment
 * collection's amount) can carry a fraction of a cent: 15 % off R$ 39,90 is R$ 5,985. The
 * payment service takes whole cents, and Medusa's payment module rounds half-up to the
 * currency's precision when it compares captures with the authorized amount, so charging
 * the half-up cent keeps both sides agreeing that the payment is whole.
 *
 * Throws `invalid_amount` for amounts that are not finite, round to zero or less, or are
 * too large.
 */
export function toCents(amount: BigNumberInput): number {
  let value;
  try {
    value = new BigNumber(amount).bigNumber;
  } catch {
    value = undefined;
  }
  if (!value || !value.isFinite()) {
    throw new PixCheckoutError(
      "invalid_amount",
      `Amount ${String(amount)} is not a finite number of reais.`,
    );
  }
  // ROUND_HALF_UP (bignumber.js mode 4) is what Medusa's MathBN.convert uses for precision.
  const cents = value.shiftedBy(2).decimalPlaces(0, 4);
  if (cents.isLessThanOrEqualTo(0)) {
    throw new PixCheckoutError(
      "invalid_amount",
      `Amount ${value.toFixed()} must be greater than zero.`,
    );
  }
  if (cents.isGreaterThan(Number.MAX_SAFE_INTEGER)) {
    throw new PixCheckoutError("invalid_amount", `Amount ${value.toFixed()} is too large.`);
  }
  return cents.toNumber();
}

/**
 * Converts integer cents back to a Medusa amount in reais, as a BigNumber so no float
 * division happens (1050 → 10.5).
 */
export function fromCents(cents: number): BigNumber {
  if (!Number.isSafeInteger(cents)) {
    throw new PixCheckoutError("invalid_amount", `Cents value ${String(cents)} is not an integer.`);
  }
  return new BigNumber(new BigNumber(cents).bigNumber!.shiftedBy(-2).toFixed());
}

/**
 * What a payment collection of `amount` asks a session for, in cents: Medusa creates a session
 * with the collection's amount as a JavaScript number (`createPaymentSessionsWorkflow` reads
 * `payment_collection.amount`), so a raw amount with a fraction of a cent past a float's
 * precision (`33.91499999999999999`, a tax-inclusive price with a promotion) becomes the
 * session's `33.915`, whose half-up cent is the charge's. Compared with a charge, the collection
 * must be read the same way. Zero or negative allowed; undefined when not a number.
 */
export function sessionCentsOf(amount: BigNumberInput): number | undefined {
  const value =
    typeof amount === "object" && amount !== null && "value" in amount ? amount.value : amount;
  const asNumber = Number(typeof value === "object" ? String(value) : value);
  return Number.isFinite(asNumber) ? toSignedCents(String(asNumber)) : undefined;
}

/**
 * `toCents` for an amount that may be zero or negative (an order's pending difference, a
 * collection Medusa set to nothing): integer cents, rounded half-up (away from zero) as Medusa
 * rounds; undefined when it is not a finite number.
 */
export function toSignedCents(amount: BigNumberInput): number | undefined {
  try {
    const value = new BigNumber(amount).bigNumber;
    if (!value || !value.isFinite()) return undefined;
    const cents = value.shiftedBy(2).decimalPlaces(0, 4);
    return cents.abs().isGreaterThan(Number.MAX_SAFE_INTEGER) ? undefined : cents.toNumber();
  } catch {
    return undefined;
  }
}
