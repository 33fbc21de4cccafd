// Display formatting. Medusa's store API gives amounts in reais (39.9); this is only for
// showing them, never for arithmetic.
const brl = new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL" });

/** "R$ 39,90" */
export function formatMoney(amount: number | null | undefined): string {
  return brl.format(amount ?? 0);
}
