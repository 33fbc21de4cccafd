import type { BookLine, DifferenceKind, Reconciliation } from "./books";
import { toCsv, type CsvCell } from "@pix-checkout/client/books";
import { saoPauloDateTime } from "@pix-checkout/client/books";
import { printedBuyerDocument } from "../platform/buyer-document";

/** Languages of the CSV's words (numbers and dates are Brazilian in both). */
export type CsvLanguage = "pt-BR" | "en";

const WORDS = {
  "pt-BR": {
    header: [
      "Data",
      "Tipo",
      "Pedido",
      "Cliente",
      "Cobrança",
      "Situação no serviço",
      "Bruto",
      "Tarifa",
      "Líquido",
      "Medusa",
      "A devolver",
      "Retido",
      "Diferença",
      "Após lembrete",
      "Desconto no Pix",
      "Finalidade",
      "Observação",
      "Prazo de devolução",
      "CPF/CNPJ do comprador",
    ],
    type: { charge: "Cobrança", refund: "Devolução", withdrawal: "Saque" },
    purpose: {
      cart: "Carrinho",
      order: "Pedido",
      order_edit: "Edição do pedido",
      exchange: "Troca",
      claim: "Reclamação",
      return: "Devolução",
    },
    // The service's status words as the admin's Portuguese says them; one the service adds
    // later is written as the service sends it.
    status: {
      pending: "pendente",
      paid: "paga",
      expired: "expirada",
      failed: "falhou",
      canceled: "cancelada",
      refunded: "devolvida",
      processing: "em processamento",
      completed: "concluído",
    } as Record<string, string>,
    afterReminder: { yes: "sim", no: "não" },
    difference: {
      paid_not_captured: "Pago no serviço, sem captura no Medusa",
      captured_not_paid: "Capturado no Medusa, sem cobrança paga no serviço",
      amount_mismatch: "Valores diferentes",
      refund_not_returned: "Devolução no Medusa, não declarada no serviço",
      refund_not_recorded: "Devolvido no serviço, não registrado no Medusa",
      balance_mismatch: "Saldo não confere",
    },
    totals: {
      charges: "Total de cobranças",
      refunds: "Total de devoluções",
      withdrawals: "Total de saques",
      available: (at: string) => `Saldo disponível (em ${at})`,
      pending: "Saldo a liberar",
      withdrawn: "Total sacado",
      processing: "Saques em processamento",
      earned: "Total recebido (líquido)",
      check: "Disponível + a liberar + sacado + em processamento",
      matches: "confere com o total recebido",
      unknown: "não foi possível conferir",
    },
  },
  en: {
    header: [
      "Date",
      "Type",
      "Order",
      "Customer",
      "Charge",
      "Status at the service",
      "Gross",
      "Fee",
      "Net",
      "Medusa",
      "Owed back",
      "Held",
      "Difference",
      "After a reminder",
      "Pix discount",
      "Purpose",
      "Note",
      "Refund deadline",
      "Buyer CPF/CNPJ",
    ],
    type: { charge: "Charge", refund: "Refund", withdrawal: "Withdrawal" },
    purpose: {
      cart: "Cart",
      order: "Order",
      order_edit: "Order edit",
      exchange: "Exchange",
      claim: "Claim",
      return: "Return",
    },
    status: {} as Record<string, string>,
    afterReminder: { yes: "yes", no: "no" },
    difference: {
      paid_not_captured: "Paid at the service, not captured in Medusa",
      captured_not_paid: "Captured in Medusa, no paid charge at the service",
      amount_mismatch: "Amounts differ",
      refund_not_returned: "Refund in Medusa, not declared returned at the service",
      refund_not_recorded: "Returned at the service, not recorded in Medusa",
      balance_mismatch: "Balance does not add up",
    },
    totals: {
      charges: "Total charges",
      refunds: "Total refunds",
      withdrawals: "Total withdrawals",
      available: (at: string) => `Available balance (at ${at})`,
      pending: "Pending balance",
      withdrawn: "Total withdrawn",
      processing: "Withdrawals in processing",
      earned: "Total earned (net)",
      check: "Available + pending + withdrawn + in processing",
      matches: "matches total earned",
      unknown: "could not be checked",
    },
  },
} satisfies Record<CsvLanguage, unknown>;

/** The short label of a difference kind, as the CSV's "Diferença" column writes it. */
export function differenceLabel(kind: DifferenceKind, language: CsvLanguage): string {
  return WORDS[language].difference[kind];
}

function lineRow(line: BookLine, language: CsvLanguage): CsvCell[] {
  const words = WORDS[language];
  return [
    line.date,
    words.type[line.type],
    line.order?.display_id == null ? null : `#${line.order.display_id}`,
    line.customer,
    line.id,
    line.status == null ? null : (words.status[line.status] ?? line.status),
    line.gross_cents,
    line.fee_cents,
    line.net_cents,
    line.medusa_cents,
    // Where the ledger says the rest of a payment is: owed back to the shopper, or held.
    line.owed_cents || null,
    line.held_cents || null,
    line.difference ? words.difference[line.difference] : null,
    // Whether the payment followed a reminder to its cart; a payment's question only.
    line.type === "charge" ? words.afterReminder[line.after_reminder ? "yes" : "no"] : null,
    // What the Pix discount took off the order: the shopper's and Medusa's figure, to the cent,
    // on the sale's line only (books.ts `pixDiscountLines`), so the column adds up.
    line.type === "charge" ? line.pix_discount_cents || null : null,
    // What the payment was for: a cart, a whole order, a difference after the sale.
    line.type === "charge" && line.purpose ? words.purpose[line.purpose] : null,
    // A refund's: how the merchant said the money went back, each declaration's note.
    line.type === "refund" ? notesOf(line) : null,
    // The last day a Pix devolução of the money owed back may be asked (records/refund-deadline.ts).
    line.type === "charge" && line.refund_deadline ? dayOf(line.refund_deadline) : null,
    // The buyer's CPF or CNPJ on Medusa's order, for the nota fiscal (README "Nota fiscal").
    line.order?.buyer_document ? printedBuyerDocument(line.order.buyer_document) : null,
  ];
}

/** `YYYY-MM-DD` as `DD/MM/AAAA`, the way a Brazilian spreadsheet reads a date. */
function dayOf(day: string): string {
  const [year, month, date] = day.split("-");
  return `${date}/${month}/${year}`;
}

/** The notes of a refund line's declarations in the period, in order; none without one. */
function notesOf(line: BookLine): string | null {
  const notes = (line.declarations ?? []).map((d) => d.note?.trim()).filter(Boolean);
  return notes.length > 0 ? notes.join(" | ") : null;
}

/**
 * A totals row: label in "Type", figures in Gross, Fee, Net, Medusa, Owed back and Held, a
 * remark in Difference, and the Pix discounts in theirs.
 */
function totalRow(
  label: string,
  figures: {
    gross?: CsvCell;
    fee?: CsvCell;
    net?: CsvCell;
    medusa?: CsvCell;
    owed?: CsvCell;
    held?: CsvCell;
    remark?: CsvCell;
    pixDiscount?: CsvCell;
  },
): CsvCell[] {
  return [
    null,
    label,
    null,
    null,
    null,
    null,
    figures.gross,
    figures.fee,
    figures.net,
    figures.medusa,
    figures.owed,
    figures.held,
    figures.remark,
    null,
    figures.pixDiscount,
    null, // Finalidade
    null, // Observação
    null, // Prazo de devolução
    null, // CPF/CNPJ do comprador
  ];
}

/**
 * The reconciliation as a CSV file (see the README's "Daily reconciliation"): a header, one
 * row per line of the books, an empty row, then the totals and the balance.
 */
export function reconciliationCsv(report: Reconciliation, language: CsvLanguage = "pt-BR"): string {
  const words = WORDS[language];
  const { totals } = report;
  const rows: CsvCell[][] = [words.header, ...report.lines.map((line) => lineRow(line, language))];
  rows.push([]);
  rows.push(
    totalRow(words.totals.charges, {
      gross: totals.charges.gross_cents,
      fee: totals.charges.fee_cents,
      net: totals.charges.net_cents,
      medusa: totals.charges.captured_cents,
      owed: totals.charges.owed_cents,
      held: totals.charges.held_cents,
      pixDiscount: totals.charges.pix_discount_cents,
    }),
    totalRow(words.totals.refunds, {
      gross: -totals.refunds.declared_cents,
      medusa: -totals.refunds.medusa_cents,
    }),
    totalRow(words.totals.withdrawals, {
      gross: -totals.withdrawals.amount_cents,
      net: -totals.withdrawals.amount_cents,
    }),
  );
  const balance = totals.balance;
  if (balance) {
    rows.push(
      totalRow(words.totals.available(saoPauloDateTime(balance.read_at)), {
        net: balance.available_cents,
      }),
      totalRow(words.totals.pending, { net: balance.pending_cents }),
      totalRow(words.totals.withdrawn, { net: balance.total_withdrawn_cents }),
      totalRow(words.totals.processing, { net: balance.processing_withdrawals_cents }),
      totalRow(words.totals.earned, { net: balance.total_earned_cents }),
      totalRow(words.totals.check, {
        net: balance.accounted_cents,
        remark:
          balance.matches === null
            ? words.totals.unknown
            : balance.matches
              ? words.totals.matches
              : words.difference.balance_mismatch,
      }),
    );
  }
  return toCsv(rows);
}

/** The download's file name: `conciliacao-pix-<registration>-<from>_<to>.csv`. */
export function csvFileName(provider: string, from: string, to: string): string {
  const safe = provider.replace(/[^A-Za-z0-9_-]/g, "_");
  return `conciliacao-pix-${safe}-${from}_${to}.csv`;
}
