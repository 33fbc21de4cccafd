/** Integer cents as a Brazilian reads reais ("R$ 114,80"; Intl puts a no-break space after "R$"). */
export const reais = (cents: number): string =>
  (cents / 100).toLocaleString("pt-BR", { style: "currency", currency: "BRL" });
