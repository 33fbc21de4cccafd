/**
 * Edges where reais meet cents. Floats are only ever compared or rounded here, never added:
 * the integer cents field is the truth, and the float must agree with it.
 */

/** Whether a float reais amount names exactly `cents` (compared through rounding, not arithmetic). */
export function reaisAgreeWithCents(reais: number, cents: number): boolean {
  return Number.isFinite(reais) && Math.round(reais * 100) === cents;
}

/**
 * Cents for a float reais amount when the service sent no `_cents` companion (fees).
 * `undefined` when the float has more than two decimals, which no BRL amount has.
 */
export function reaisToCents(reais: number): number | undefined {
  if (!Number.isFinite(reais)) return undefined;
  const cents = Math.round(reais * 100);
  return Math.abs(reais * 100 - cents) < 1e-6 ? cents : undefined;
}
