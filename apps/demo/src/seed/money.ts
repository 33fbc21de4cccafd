/**
 * Turns integer cents into the major-unit number Medusa's workflows take (3990 → 39.9).
 * Built from the decimal string rather than by dividing, so no amount ever passes through
 * float arithmetic on its way in.
 */
export function centsToMedusaAmount(cents: number): number {
  if (!Number.isSafeInteger(cents) || cents < 0) {
    throw new RangeError(`Expected a non-negative integer number of cents, got ${cents}`);
  }
  const digits = String(cents).padStart(3, "0");
  return Number(`${digits.slice(0, -2)}.${digits.slice(-2)}`);
}
