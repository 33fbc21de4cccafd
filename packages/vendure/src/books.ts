import { saoPauloDateTime, toCsv, type CsvCell } from "@pix-checkout/client/books";

/**
 * A Vendure store's Pix and boleto books: every movement of the plugin's money in a period, one
 * line each, then the totals, each the sum of the lines above it. Pure: the movements come in,
 * the CSV a Brazilian Excel opens goes out (the writer shared with the Medusa plugin).
 */

/** One movement of a code's money, as the store's records say it happened. */
export interface BookMovement {
  at: Date;
  orderCode: string;
  method: "pix" | "boleto";
  chargeId: string;
  /**
   * `settled`: paid, and paying its order. `held`: paid, paying nothing (listed for the
   * merchant). `refund_due`: a refund the merchant owes (Pending). `refunded`: returned, as the
   * merchant recorded it, or as a MED returned it to the payer (reference "MED <protocolo>"). A
   * MED's block moves no money of the books until it is decided, so it has no kind.
   */
  kind: "settled" | "held" | "refund_due" | "refunded";
  /** Integer cents, positive. */
  cents: number;
  /** Why (a held payment's, a refund's reason). */
  why: string | null;
  /** The devolução's id the merchant gave (a refund returned). */
  reference: string | null;
}

const KIND_WORDS: Record<BookMovement["kind"], string> = {
  settled: "Pago e liquidado no pedido",
  held: "Pago e retido (não liquidado)",
  refund_due: "Devolução a fazer",
  refunded: "Devolução feita",
};

const HEADER = [
  "Data e hora",
  "Pedido",
  "Forma",
  "Cobrança",
  "Movimento",
  "Recebido (R$)",
  "Liquidado (R$)",
  "Retido (R$)",
  "A devolver (R$)",
  "Devolvido (R$)",
  "Motivo",
  "Identificador da devolução",
];

/** The money columns of a movement: received, settled, held, to return, returned. */
function columnsOf(movement: BookMovement): [number, number, number, number, number] {
  const c = movement.cents;
  switch (movement.kind) {
    case "settled":
      return [c, c, 0, 0, 0];
    case "held":
      return [c, 0, c, 0, 0];
    case "refund_due":
      return [0, 0, 0, c, 0];
    case "refunded":
      return [0, 0, 0, 0, c];
  }
}

/** The period's books, oldest movement first, with one line of totals. */
export function booksCsv(movements: readonly BookMovement[]): string {
  const ordered = [...movements].sort(
    (a, b) => a.at.getTime() - b.at.getTime() || a.chargeId.localeCompare(b.chargeId),
  );
  const totals = [0, 0, 0, 0, 0];
  const lines: CsvCell[][] = ordered.map((movement) => {
    const money = columnsOf(movement);
    money.forEach((cents, i) => (totals[i]! += cents));
    return [
      saoPauloDateTime(movement.at),
      movement.orderCode,
      movement.method === "boleto" ? "Boleto" : "Pix",
      movement.chargeId,
      KIND_WORDS[movement.kind],
      ...money.map((cents) => (cents === 0 ? null : cents)),
      movement.why,
      movement.reference,
    ];
  });
  return toCsv([
    HEADER,
    ...lines,
    ["Total", null, null, null, `${ordered.length} movimentos`, ...totals, null, null],
  ]);
}
