/** Integer cents as a Brazilian reads them: R$ 1.234,56. */
export function reais(cents: number): string {
  return (cents / 100).toLocaleString("pt-BR", { style: "currency", currency: "BRL" });
}

/** A São Paulo calendar day (YYYY-MM-DD) as dd/mm/aaaa. */
export function brazilianDay(day: string): string {
  const [year, month, date] = day.split("-");
  return `${date}/${month}/${year}`;
}

/** The 90-day devolução clock, as a line: "até 28/02/2027 (12 dias)" or that it has passed. */
export function devolucaoLine(devolucao: { deadline: string; daysLeft: number } | null): string {
  if (!devolucao) return "";
  if (devolucao.daysLeft < 0) return "prazo do Pix passou: devolva por transferência";
  const days = devolucao.daysLeft === 1 ? "1 dia" : `${devolucao.daysLeft} dias`;
  return `devolução pelo Pix até ${brazilianDay(devolucao.deadline)} (${days})`;
}

/**
 * What a merchant typed as reais ("1.234,56", "50", "50,5", "R$ 12,00") in integer cents; null for
 * anything else, so nothing is guessed.
 */
export function centsFromReais(typed: string): number | null {
  const text = typed.replace(/^\s*R\$\s*/, "").trim();
  const match = /^(\d{1,3}(?:\.\d{3})+|\d+)(?:,(\d{1,2}))?$/.exec(text);
  if (!match) return null;
  const whole = Number(match[1]!.replaceAll(".", ""));
  const cents = Number((match[2] ?? "0").padEnd(2, "0"));
  const total = whole * 100 + cents;
  return Number.isSafeInteger(total) ? total : null;
}
