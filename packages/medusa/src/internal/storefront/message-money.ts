const brl = new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL" });

/**
 * Cents to `R$ 48,92` for the shopper's messages, by string arithmetic on the integer, never
 * through a float division.
 */
export function formatCents(cents: number): string {
  const negative = cents < 0;
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100);
  const fraction = String(abs % 100).padStart(2, "0");
  const formatted = brl.format(whole).replace(/,00$/, `,${fraction}`);
  return negative ? `-${formatted}` : formatted;
}
