import { refundDeadline, type RefundDeadline } from "@pix-checkout/client/books";

/**
 * Until when money owed back can be returned by a Pix devolução: up to 90 days after the
 * payment (`@pix-checkout/client/books`' `refundDeadline`, the Medusa plugin's rule too).
 * `deadline` is a São Paulo day, `YYYY-MM-DD`; `daysLeft` is 0 on it and negative past it;
 * `state` is ok, warning (15 days or fewer), critical (5 or fewer) or past (return it by a
 * transfer instead).
 */
export interface DevolucaoDeadline {
  deadline: string;
  daysLeft: number;
  state: RefundDeadline["state"];
}

/** The clock of `owedCents` paid by `method` at `paidAt`: a Pix's; null for a boleto. */
export function devolucaoOf(
  method: "pix" | "boleto",
  owedCents: number,
  paidAt: string | null,
  now: Date,
): DevolucaoDeadline | null {
  const clock = refundDeadline({ method, paid_at: paidAt, owed_cents: owedCents }, now);
  return clock && { deadline: clock.deadline, daysLeft: clock.days_left, state: clock.state };
}

/** The clock in the merchant's words, said after what to do (nothing for a boleto). */
export function devolucaoWords(devolucao: DevolucaoDeadline | null): string {
  if (!devolucao) return "";
  const [year, month, day] = devolucao.deadline.split("-");
  const date = `${day}/${month}/${year}`;
  return devolucao.state === "past"
    ? ` O prazo de 90 dias do Pix acabou em ${date}: devolva por transferência à conta do pagador.`
    : ` Pelo Pix, até ${date} (prazo de 90 dias do pagamento).`;
}
