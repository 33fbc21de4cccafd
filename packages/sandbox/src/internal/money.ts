/**
 * Money rules. Amounts are integer cents everywhere inside; reais appear only when a view
 * formats a Variant B field.
 */

/** Pix fee in basis points: 0.99 %. */
export const PIX_FEE_BASIS_POINTS = 99;
/** Boleto fee: a fixed R$ 3.49 per paid boleto. */
export const BOLETO_FEE_CENTS = 349;

/**
 * The fee of a charge in cents. Pix: 0.99 % of the amount, rounded half up to the cent with
 * integer arithmetic (no floats). Boleto: fixed, but never more than the amount itself.
 */
export function feeCents(method: "pix" | "boleto", amountCents: number): number {
  if (method === "boleto") return Math.min(BOLETO_FEE_CENTS, amountCents);
  return Math.floor((amountCents * PIX_FEE_BASIS_POINTS + 5_000) / 10_000);
}

/** Cents to reais for Variant B's float fields. Exact for every integer cent amount we allow. */
export function toReais(cents: number): number {
  return Math.round(cents) / 100;
}

/** Cents as the BR Code's two-decimal amount string, built from integers, e.g. 1234 -> "12.34". */
export function centsToDecimalString(cents: number): string {
  const whole = Math.trunc(cents / 100);
  const fraction = cents % 100;
  return `${whole}.${String(fraction).padStart(2, "0")}`;
}
