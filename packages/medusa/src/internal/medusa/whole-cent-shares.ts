import { BigNumber } from "@medusajs/framework/utils";
import type { BigNumberInput } from "@medusajs/framework/types";

/*
 * The Pix discount in whole cents (pix-discount-cents.ts says why): its total rounded half up to
 * the cent, spread over the cart's lines by largest remainder.
 */

/** A fraction-of-a-cent amount in reais, as Medusa stores an adjustment. */
export type Reais = BigNumberInput;

/** An amount in reais as cents, exactly (fractions of a cent kept). */
export function centsOf(amount: Reais) {
  return new BigNumber(amount).bigNumber!.shiftedBy(2);
}

/**
 * Whole-cent amounts for each of a discount's line adjustments: their sum is the discount's
 * total rounded half up, and each one is its own amount rounded down or up by less than a cent.
 * The largest fractions get the remaining cents first; ties go to the earlier line.
 */
export function wholeCentShares(amounts: readonly Reais[]): number[] {
  const exact = amounts.map(centsOf);
  const total = exact.reduce((sum, cents) => sum.plus(cents), centsOf(0));
  const target = total.decimalPlaces(0, 4).toNumber(); // ROUND_HALF_UP
  const shares = exact.map((cents) => cents.decimalPlaces(0, 1).toNumber()); // ROUND_DOWN
  let left = target - shares.reduce((sum, cents) => sum + cents, 0);
  const byFraction = exact
    .map((cents, index) => ({ index, fraction: cents.minus(cents.decimalPlaces(0, 1)) }))
    .sort((a, b) => b.fraction.comparedTo(a.fraction) || a.index - b.index);
  for (const { index } of byFraction) {
    if (left <= 0) break;
    shares[index]! += 1;
    left -= 1;
  }
  return shares;
}
