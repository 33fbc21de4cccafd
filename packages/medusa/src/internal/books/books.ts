import type { ChargePurpose } from "../records/charges";
import { brl } from "@pix-checkout/client/books";
import { boletoGraceEndsAt, endOfBusinessDaysAfter, payableUntil } from "../platform/business-days";
import {
  BOLETO_MAX_DUE_DAYS,
  PIX_MAX_EXPIRY_MINUTES,
  type PixCheckoutOptions,
} from "../platform/options";
import { daysInclusive, nextDay, startOfSaoPauloDay } from "@pix-checkout/client/books";

// Daily reconciliation for the accountant: three books for one period, compared. Pure: the
// loader (books-loader.ts) reads Medusa, the payment API and the plugin's ledger; this module
// only matches and adds, in integer cents. The ledger (docs/ledger.md) says where each
// payment's money is, so money owed back, returned or held is accounted for, not a difference.

/** Why a line of the books needs the merchant. Stable words: the admin, CSV and event use them. */
export const DIFFERENCE_KINDS = [
  "paid_not_captured",
  "captured_not_paid",
  "amount_mismatch",
  "refund_not_returned",
  "refund_not_recorded",
  "balance_mismatch",
] as const;

/** One of `DIFFERENCE_KINDS`. */
export type DifferenceKind = (typeof DIFFERENCE_KINDS)[number];

/** The order a line belongs to, as the merchant knows it. */
export interface OrderRef {
  /** Medusa's order id: what tells two lines of one order apart from two orders. */
  id: string;
  display_id: number | null;
  /** The customer's name, else the order's e-mail. */
  customer: string | null;
  /**
   * The buyer's CPF or CNPJ on Medusa's order, bare (README "Nota fiscal"); null without one.
   * What a nota fiscal is issued to; the CSV's column and the OFX's memo carry it.
   */
  buyer_document?: string | null;
  /**
   * The Pix discount the order's current version records, in integer cents (0 without it): the
   * same cents the shopper saw and Medusa's order page shows. A figure of the order, not of a
   * line: the books count it once, on the line `BookLine.pix_discount_cents` names.
   */
  pix_discount_cents: number;
}

/** A capture Medusa recorded on a payment of one of the plugin's providers. */
export interface MedusaCapture {
  capture_id: string;
  payment_id: string;
  /** The payment service's charge behind the payment, when the plugin knows it. */
  charge_id: string | null;
  amount_cents: number;
  captured_at: Date;
  order: OrderRef | null;
}

/**
 * Where the store's ledger says a charge's money is, in integer cents (docs/ledger.md): what it
 * holds now in each part, and what ever went into `captured` (what Medusa's captures of it add
 * up to, whatever left `captured` since).
 */
export interface LedgerBook {
  received_cents: number;
  held_cents: number;
  /** Of `held_cents`, held for Medusa's capture (settlement takes it in seconds), not the merchant's. */
  capturing_cents: number;
  captured_cents: number;
  owed_cents: number;
  returned_cents: number;
  /** Blocked by an open MED (bloqueio cautelar): captured in Medusa, not income. */
  contested_cents?: number;
  ever_captured_cents: number;
  /**
   * The last day (`YYYY-MM-DD`, São Paulo) a Pix devolução of the owed money may be asked
   * (records/refund-deadline.ts); null or left out when nothing is owed, or for a boleto.
   */
  refund_deadline?: string | null;
}

/** A charge in the payment service's transaction list (or read one by one). */
export interface ServiceCharge {
  id: string;
  /** The API's word, verbatim. */
  status: string;
  amount_cents: number;
  fee_cents: number | null;
  net_cents: number | null;
  created_at: Date | null;
  paid_at: Date | null;
  /** The payer as the service knows them (name, else e-mail). */
  customer: string | null;
  /** The Medusa order, when this store made the charge and it became one. */
  order: OrderRef | null;
  /**
   * Whether its payment followed a reminder to its cart (a "recuperado"), by the plugin's
   * record of the charge (`followedReminderSql`); false for a charge the plugin did not make.
   */
  after_reminder: boolean;
  /**
   * What its payment collection was for (a cart, a whole order, an order edit's, exchange's,
   * claim's or return's difference); null for a charge the plugin did not make or recorded
   * before it kept it.
   */
  purpose?: ChargePurpose | null;
  /** Where the ledger says its money is; null (or left out) for a charge the plugin did not make. */
  ledger?: LedgerBook | null;
}

/** A withdrawal in the payment service's transaction list. */
export interface ServiceWithdrawal {
  id: string;
  status: string;
  amount_cents: number | null;
  created_at: Date | null;
}

/**
 * Refunds of one charge touched in the period, to date. The API has no refund: the merchant
 * returns the money in the service's dashboard and records it in the admin, which moves it to
 * the ledger's `returned` (`declared`); of it, what Medusa held captured (`medusa_due`) Medusa
 * records as a refund on its payment (`medusa`). Those two should always be equal; money Medusa
 * never captured (a code paid twice, an overpayment's excess) has no Medusa refund.
 */
export interface ChargeRefunds {
  charge_id: string;
  declared_cents: number;
  medusa_due_cents: number;
  medusa_cents: number;
  /** The latest declaration or Medusa refund of the charge inside the period. */
  last_at: Date;
  order: OrderRef | null;
  /** The merchant's declarations of money returned at the service made inside the period. */
  declared_in_period?: RefundDeclaration[];
}

/** One declaration that money went back at the service: the ledger's entries that moved it. */
export interface RefundDeclaration {
  /** Its first ledger entry's id: stable, so an OFX re-import never counts it twice. */
  id: string;
  amount_cents: number;
  declared_at: Date;
  /** What the merchant wrote about how it was returned; null for entries from before notes. */
  note?: string | null;
  /**
   * Who returned it: `merchant_refund` (the merchant, at the service) or `med_returned` (the
   * MED returned it to the payer; its note names the protocol).
   */
  reason?: string | null;
}

/** The service's balance, in cents, as read when the books were compared. */
export interface BalanceBook {
  available_cents: number;
  pending_cents: number;
  total_earned_cents: number | null;
  total_withdrawn_cents: number | null;
  /** Withdrawals in `processing`, whenever made (the list's `status=processing`). */
  processing_withdrawals_cents: number | null;
  read_at: Date;
}

/** The three books of a period `[start, end)`. */
export interface Books {
  period: { from: string; to: string; start: Date; end: Date };
  medusa: { captures: MedusaCapture[] };
  service: { charges: ServiceCharge[]; withdrawals: ServiceWithdrawal[] };
  refunds: ChargeRefunds[];
  balance: BalanceBook | null;
}

/** One line of the report: a charge (paid or captured), a refund or a withdrawal. */
export interface BookLine {
  type: "charge" | "refund" | "withdrawal";
  date: Date;
  /** The service's id of the charge or withdrawal. */
  id: string | null;
  order: OrderRef | null;
  customer: string | null;
  /** The service's status word (charges and withdrawals). */
  status: string | null;
  /** The service's side: gross, fee and net; money that left the account is negative. */
  gross_cents: number | null;
  fee_cents: number | null;
  net_cents: number | null;
  /** Medusa's side: captured, or refunded (negative). */
  medusa_cents: number | null;
  /** Charge lines: what the ledger holds owed back and held of it now; null on other lines. */
  owed_cents: number | null;
  held_cents: number | null;
  /**
   * Charge lines: what a MED blocks of it now (bloqueio cautelar; captured in Medusa, not
   * income); left out of other lines and of charges never contested.
   */
  contested_cents?: number;
  /** Charge lines with Pix money owed back: the devolução's deadline, `YYYY-MM-DD`; else null. */
  refund_deadline?: string | null;
  difference: DifferenceKind | null;
  /** Charge lines: the payment followed a reminder to its cart. False on other lines. */
  after_reminder: boolean;
  /** Charge lines: what the charge's collection was for (`ServiceCharge.purpose`). */
  purpose?: ChargePurpose | null;
  /** Refund lines: the declarations made in the period (the OFX's one transaction each). */
  declarations?: RefundDeclaration[];
  /**
   * The order's Pix discount, on the one line of the period that counts it (see
   * {@link pixDiscountLines}); null on every other line, so a column of it adds up to what the
   * discounts cost.
   */
  pix_discount_cents?: number | null;
}

/** A difference with its cause in the merchant's words. */
export interface Difference {
  kind: DifferenceKind;
  id: string | null;
  order: OrderRef | null;
  /** What the service's books say, and Medusa's (or, for the balance, the expected figure). */
  service_cents: number | null;
  medusa_cents: number | null;
  /** Amounts: what the ledger accounts for outside Medusa (owed back, returned, held). */
  ledger_cents?: number;
  message: { "pt-BR": string; en: string };
}

/** Sums of the period, and the balance with its check. */
export interface Totals {
  charges: {
    count: number;
    gross_cents: number;
    fee_cents: number;
    net_cents: number;
    captured_cents: number;
    /** What the ledger holds owed back and held of the period's payments now. */
    owed_cents: number;
    held_cents: number;
    /**
     * The Pix discounts of the orders sold in the period, each counted once: what the shoppers
     * did not pay. The sum of the lines' `pix_discount_cents`.
     */
    pix_discount_cents: number;
    /** How many orders those discounts are of. */
    pix_discount_orders: number;
  };
  refunds: { declared_cents: number; medusa_cents: number };
  withdrawals: { count: number; amount_cents: number };
  balance:
    | (BalanceBook & {
        /** available + pending + total_withdrawn + processing; the spec's formula says = total_earned. */
        accounted_cents: number | null;
        matches: boolean | null;
      })
    | null;
}

/** What the comparison found. */
export interface Reconciliation {
  period: { from: string; to: string };
  lines: BookLine[];
  differences: Difference[];
  totals: Totals;
}

const inPeriod = (books: Books, at: Date | null): at is Date =>
  at !== null && at >= books.period.start && at < books.period.end;

function ref(order: OrderRef | null, id: string | null): string {
  if (order?.display_id != null) return `#${order.display_id}`;
  return id ?? "?";
}

/** The merchant's words for a difference, in both languages the admin ships. */
export function describeDifference(
  kind: DifferenceKind,
  who: string,
  service: number | null,
  medusa: number | null,
  status?: string | null,
  ledger = 0,
): { "pt-BR": string; en: string } {
  const pt = (cents: number | null) => (cents === null ? "?" : brl(cents, "pt-BR"));
  const en = (cents: number | null) => (cents === null ? "?" : brl(cents, "en"));
  switch (kind) {
    case "paid_not_captured":
      return {
        "pt-BR": `${who}: pago no serviço (${pt(service)}), mas o Medusa não registrou a captura.`,
        en: `${who}: paid at the payment service (${en(service)}), but Medusa recorded no capture.`,
      };
    case "captured_not_paid":
      return status
        ? {
            "pt-BR": `${who}: capturado no Medusa (${pt(medusa)}), mas o serviço diz que a cobrança está "${status}".`,
            en: `${who}: captured in Medusa (${en(medusa)}), but the payment service says the charge is "${status}".`,
          }
        : {
            "pt-BR": `${who}: capturado no Medusa (${pt(medusa)}), mas o serviço não tem essa cobrança paga.`,
            en: `${who}: captured in Medusa (${en(medusa)}), but the payment service has no such paid charge.`,
          };
    case "amount_mismatch":
      return ledger > 0
        ? {
            "pt-BR": `${who}: o serviço recebeu ${pt(service)}, mas o Medusa capturou ${pt(medusa)} e a loja registra ${pt(ledger)} a devolver, devolvidos ou retidos.`,
            en: `${who}: the payment service received ${en(service)}, but Medusa captured ${en(medusa)} and the store records ${en(ledger)} owed back, returned or held.`,
          }
        : {
            "pt-BR": `${who}: o serviço recebeu ${pt(service)} e o Medusa capturou ${pt(medusa)}.`,
            en: `${who}: the payment service received ${en(service)} and Medusa captured ${en(medusa)}.`,
          };
    case "refund_not_returned":
      return {
        "pt-BR": `${who}: o Medusa registra ${pt(medusa)} devolvidos, mas a loja só registrou ${pt(service)} do que o Medusa capturou como devolvidos no serviço.`,
        en: `${who}: Medusa records ${en(medusa)} refunded, but the store recorded only ${en(service)} of what Medusa captured as returned at the payment service.`,
      };
    case "refund_not_recorded":
      return {
        "pt-BR": `${who}: ${pt(service)} do que o Medusa capturou foram devolvidos no serviço, mas o Medusa registra só ${pt(medusa)}.`,
        en: `${who}: ${en(service)} of what Medusa captured was returned at the payment service, but Medusa records only ${en(medusa)}.`,
      };
    case "balance_mismatch":
      return {
        "pt-BR": `Saldo do serviço: disponível + a liberar + sacado + saques em processamento somam ${pt(medusa)}, mas o total recebido é ${pt(service)}.`,
        en: `Service balance: available + pending + withdrawn + withdrawals in processing add up to ${en(medusa)}, but total earned is ${en(service)}.`,
      };
  }
}

function sumCents(values: readonly (number | null)[]): number {
  return values.reduce<number>((sum, value) => sum + (value ?? 0), 0);
}

/**
 * Compares the books. A paid charge and its capture are one line, dated by the payment at the
 * service (else the capture), so a payment at 23:59 captured at 00:01 appears in one day's
 * report only. Every line and difference is in integer cents.
 */
export function reconcileBooks(books: Books): Reconciliation {
  const lines: BookLine[] = [];
  const differences: Difference[] = [];
  const differ = (
    kind: DifferenceKind,
    id: string | null,
    order: OrderRef | null,
    service: number | null,
    medusa: number | null,
    status?: string | null,
    ledger = 0,
  ) => {
    differences.push({
      kind,
      id,
      order,
      service_cents: service,
      medusa_cents: medusa,
      ...(ledger > 0 ? { ledger_cents: ledger } : {}),
      message: describeDifference(kind, ref(order, id), service, medusa, status, ledger),
    });
    return kind;
  };

  const capturesOf = new Map<string, MedusaCapture[]>();
  const unknownCaptures: MedusaCapture[] = [];
  for (const capture of books.medusa.captures) {
    if (capture.charge_id === null) unknownCaptures.push(capture);
    else capturesOf.set(capture.charge_id, [...(capturesOf.get(capture.charge_id) ?? []), capture]);
  }
  const serviceById = new Map(books.service.charges.map((charge) => [charge.id, charge]));

  for (const charge of books.service.charges) {
    if (charge.status !== "paid") continue;
    const date = charge.paid_at ?? charge.created_at;
    if (!inPeriod(books, date)) continue;
    const captures = capturesOf.get(charge.id) ?? [];
    const order = captures[0]?.order ?? charge.order;
    const captured = captures.length > 0 ? sumCents(captures.map((c) => c.amount_cents)) : null;
    // The ledger accounts for money that never goes to Medusa: owed back or returned without
    // being captured, or held for the merchant. What it holds for Medusa's capture, or ever
    // captured, Medusa's captures must show.
    const ledger = charge.ledger ?? null;
    const outside = ledger
      ? ledger.received_cents - ledger.ever_captured_cents - ledger.capturing_cents
      : 0;
    const expectsCapture = ledger ? ledger.ever_captured_cents + ledger.capturing_cents > 0 : true;
    let difference: DifferenceKind | null = null;
    if (captured === null && expectsCapture) {
      difference = differ("paid_not_captured", charge.id, order, charge.amount_cents, null);
    } else if ((captured ?? 0) + outside !== charge.amount_cents) {
      difference = differ(
        "amount_mismatch",
        charge.id,
        order,
        charge.amount_cents,
        captured,
        null,
        outside,
      );
    }
    lines.push({
      type: "charge",
      date,
      id: charge.id,
      order,
      customer: order?.customer ?? charge.customer,
      status: charge.status,
      gross_cents: charge.amount_cents,
      fee_cents: charge.fee_cents,
      net_cents:
        charge.net_cents ??
        (charge.fee_cents === null ? null : charge.amount_cents - charge.fee_cents),
      medusa_cents: captured,
      owed_cents: ledger?.owed_cents ?? null,
      ...(ledger?.contested_cents ? { contested_cents: ledger.contested_cents } : {}),
      held_cents: ledger?.held_cents ?? null,
      refund_deadline: ledger?.refund_deadline ?? null,
      difference,
      after_reminder: charge.after_reminder,
      purpose: charge.purpose ?? null,
    });
  }

  const capturedOnly = [...capturesOf.entries()].map(([id, captures]) => ({ id, captures }));
  for (const capture of unknownCaptures) capturedOnly.push({ id: "", captures: [capture] });
  for (const { id, captures } of capturedOnly) {
    const charge = id ? serviceById.get(id) : undefined;
    if (charge?.status === "paid") continue; // on its payment's line above
    const first = captures.reduce((a, b) => (a.captured_at <= b.captured_at ? a : b));
    if (!inPeriod(books, first.captured_at)) continue;
    const captured = sumCents(captures.map((c) => c.amount_cents));
    const chargeId = id || null;
    lines.push({
      type: "charge",
      date: first.captured_at,
      id: chargeId,
      order: first.order,
      customer: first.order?.customer ?? charge?.customer ?? null,
      status: charge?.status ?? null,
      gross_cents: null,
      fee_cents: null,
      net_cents: null,
      medusa_cents: captured,
      owed_cents: null,
      held_cents: null,
      difference: differ(
        "captured_not_paid",
        chargeId,
        first.order,
        null,
        captured,
        charge?.status,
      ),
      after_reminder: charge?.after_reminder ?? false,
      purpose: charge?.purpose ?? null,
    });
  }

  for (const refund of books.refunds) {
    if (!inPeriod(books, refund.last_at)) continue;
    // Medusa records refunds of the money it captured: what the ledger returned of it.
    let difference: DifferenceKind | null = null;
    if (refund.medusa_cents > refund.medusa_due_cents) {
      difference = differ(
        "refund_not_returned",
        refund.charge_id,
        refund.order,
        refund.medusa_due_cents,
        refund.medusa_cents,
      );
    } else if (refund.medusa_due_cents > refund.medusa_cents) {
      difference = differ(
        "refund_not_recorded",
        refund.charge_id,
        refund.order,
        refund.medusa_due_cents,
        refund.medusa_cents,
      );
    }
    lines.push({
      type: "refund",
      date: refund.last_at,
      id: refund.charge_id,
      order: refund.order,
      customer: refund.order?.customer ?? null,
      status: null,
      gross_cents: 0 - refund.declared_cents,
      fee_cents: null,
      net_cents: null,
      medusa_cents: 0 - refund.medusa_cents,
      owed_cents: null,
      held_cents: null,
      difference,
      after_reminder: false,
      declarations: refund.declared_in_period ?? [],
    });
  }

  const withdrawals = books.service.withdrawals.filter(
    (w) => inPeriod(books, w.created_at) && w.status !== "failed",
  );
  for (const withdrawal of withdrawals) {
    lines.push({
      type: "withdrawal",
      date: withdrawal.created_at as Date,
      id: withdrawal.id,
      order: null,
      customer: null,
      status: withdrawal.status,
      gross_cents: withdrawal.amount_cents === null ? null : -withdrawal.amount_cents,
      fee_cents: null,
      net_cents: withdrawal.amount_cents === null ? null : -withdrawal.amount_cents,
      medusa_cents: null,
      owed_cents: null,
      held_cents: null,
      difference: null,
      after_reminder: false,
    });
  }

  let balance: Totals["balance"] = null;
  if (books.balance) {
    const b = books.balance;
    const parts = [b.total_withdrawn_cents, b.processing_withdrawals_cents];
    const accounted = parts.some((p) => p === null)
      ? null
      : b.available_cents + b.pending_cents + sumCents(parts);
    const matches =
      accounted === null || b.total_earned_cents === null
        ? null
        : accounted === b.total_earned_cents;
    if (matches === false) differ("balance_mismatch", null, null, b.total_earned_cents, accounted);
    balance = { ...b, accounted_cents: accounted, matches };
  }

  lines.sort(
    (a, b) => a.date.getTime() - b.date.getTime() || (a.id ?? "").localeCompare(b.id ?? ""),
  );
  for (const line of lines) line.pix_discount_cents = null;
  for (const [line, cents] of pixDiscountLines(lines)) line.pix_discount_cents = cents;
  const charges = lines.filter((line) => line.type === "charge");
  const discounted = charges.filter((line) => (line.pix_discount_cents ?? 0) > 0);
  const refunds = lines.filter((line) => line.type === "refund");
  return {
    period: { from: books.period.from, to: books.period.to },
    lines,
    differences,
    totals: {
      charges: {
        count: charges.filter((line) => line.gross_cents !== null).length,
        gross_cents: sumCents(charges.map((line) => line.gross_cents)),
        fee_cents: sumCents(charges.map((line) => line.fee_cents)),
        net_cents: sumCents(charges.map((line) => line.net_cents)),
        captured_cents: sumCents(charges.map((line) => line.medusa_cents)),
        owed_cents: sumCents(charges.map((line) => line.owed_cents)),
        held_cents: sumCents(charges.map((line) => line.held_cents)),
        pix_discount_cents: sumCents(discounted.map((line) => line.pix_discount_cents ?? 0)),
        pix_discount_orders: discounted.length,
      },
      refunds: {
        // 0 - x, not -x: no refund is 0, not -0.
        declared_cents: 0 - sumCents(refunds.map((line) => line.gross_cents)),
        medusa_cents: 0 - sumCents(refunds.map((line) => line.medusa_cents)),
      },
      withdrawals: {
        count: withdrawals.length,
        amount_cents: sumCents(withdrawals.map((w) => w.amount_cents)),
      },
      balance,
    },
  };
}

/** What the charge's collection was for, when it was the sale itself (not a difference after it). */
const SALE_PURPOSES: readonly (ChargePurpose | null)[] = ["cart", "order", null];

/**
 * Which line of the books counts each order's Pix discount, and how much (the lines are in the
 * report's order, by date). The discount is a figure of the order, not of each payment, so it is
 * written once, on the line of the sale: the payment of the order's cart or of the whole order,
 * never a difference paid after the sale (an order edit's, exchange's, claim's or return's),
 * which the discount was not given on. When the period holds more than one line of the sale (a
 * code paid twice, one owed back), the one Medusa captured counts it, else the first. A period
 * that holds only a difference of an order counts none of its discount: the discount belongs to
 * the day of the sale, so exports of consecutive periods never count it twice. Lines of orders
 * without the discount, refunds and withdrawals count nothing.
 */
export function pixDiscountLines(lines: readonly BookLine[]): Map<BookLine, number> {
  const saleOf = new Map<string, BookLine>();
  for (const line of lines) {
    const order = line.order;
    if (line.type !== "charge" || !order || order.pix_discount_cents <= 0) continue;
    if (!SALE_PURPOSES.includes(line.purpose ?? null)) continue;
    const chosen = saleOf.get(order.id);
    const captured = (candidate: BookLine) => (candidate.medusa_cents ?? 0) > 0;
    if (!chosen || (captured(line) && !captured(chosen))) saleOf.set(order.id, line);
  }
  return new Map([...saleOf.values()].map((line) => [line, line.order!.pix_discount_cents]));
}

/** What the Pix discount cost over a period: the sum of its orders' discounts and how many. */
export interface PixDiscountCost {
  period: { from: string; to: string };
  cents: number;
  orders: number;
}

/**
 * The Pix discount's cost over the report's period, as its CSV's and OFX's "Desconto no Pix"
 * add up (the admin's "Desconto no Pix" tab shows it): one source for the three.
 */
export function pixDiscountCost(report: Reconciliation): PixDiscountCost {
  return {
    period: report.period,
    cents: report.totals.charges.pix_discount_cents,
    orders: report.totals.charges.pix_discount_orders,
  };
}

/** How many differences of each kind (every kind present, zeros included). */
export function countDifferences(
  differences: readonly Difference[],
): Record<DifferenceKind, number> {
  const counts = Object.fromEntries(DIFFERENCE_KINDS.map((kind) => [kind, 0])) as Record<
    DifferenceKind,
    number
  >;
  for (const difference of differences) counts[difference.kind] += 1;
  return counts;
}

const DAY_MS = 86_400_000;

/**
 * The creation time of the oldest charge that can be paid at or after `start` (the first
 * instant of a São Paulo day): the service's list is read from there, since the API filters it
 * on creation only. A Pix lives at most a week. A boleto is due up to `BOLETO_MAX_DUE_DAYS` bank
 * business days after its creation (the service sets the date; `boletoDueDays` only caps the
 * plugin's view of it), payable until the next business day when that falls on a weekend or a
 * holiday, and its bank confirms it up to the grace's last business day. A day more absorbs the
 * service's clock against ours.
 *
 * Listing that far back, `status=paid` only, costs one call per 100 charges paid in the
 * window: about 335 a day at 500 paid charges a day. Reading the plugin's old charges one by
 * one instead costs a call per charge that might still be paid, on each day it stays open:
 * every unpaid boleto for up to 60 business days, thousands of calls a day at the same store,
 * and it never sees a charge made outside the store (README "Daily reconciliation").
 */
export function serviceListStart(
  start: Date,
  registration: Pick<PixCheckoutOptions, "variant" | "boletoGraceBusinessDays">,
): Date {
  const pix = start.getTime() - PIX_MAX_EXPIRY_MINUTES * 60_000 - DAY_MS;
  if (registration.variant === "b") return new Date(pix); // Variant B has Pix only.
  // The earliest due date whose grace, counted from its real due date, still reaches `start`,
  // a São Paulo day at a time.
  const graceOf = (due: number) =>
    boletoGraceEndsAt(payableUntil(new Date(due)), registration.boletoGraceBusinessDays);
  let due = start.getTime();
  while (graceOf(due - DAY_MS) >= start) due -= DAY_MS;
  // The earliest creation whose last possible due date reaches that one.
  let created = due;
  while (endOfBusinessDaysAfter(new Date(created - DAY_MS), BOLETO_MAX_DUE_DAYS).getTime() >= due) {
    created -= DAY_MS;
  }
  return new Date(Math.min(pix, created - DAY_MS));
}

/** The longest period one request compares: a month, so a report stays one API paging away. */
export const MAX_PERIOD_DAYS = 31;

/** A period the admin asked for, or what to fix. */
export type ParsedPeriod =
  { ok: true; from: string; to: string; start: Date; end: Date } | { ok: false; message: string };

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isDay = (value: unknown): value is string =>
  typeof value === "string" &&
  DAY.test(value) &&
  new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value;

/**
 * Reads `from` and `to` (`YYYY-MM-DD`, São Paulo calendar days, both included; `to` defaults
 * to `from`). `today` is São Paulo's today: a period may end today (a partial day) but not later.
 */
export function parsePeriod(from: unknown, to: unknown, today: string): ParsedPeriod {
  if (!isDay(from)) {
    return {
      ok: false,
      message: "from must be a calendar day written YYYY-MM-DD, e.g. 2026-11-01.",
    };
  }
  const until = to === undefined || to === "" ? from : to;
  if (!isDay(until)) {
    return { ok: false, message: "to must be a calendar day written YYYY-MM-DD, e.g. 2026-11-30." };
  }
  if (until < from)
    return { ok: false, message: `from (${from}) must not be after to (${until}).` };
  if (until > today) {
    return {
      ok: false,
      message: `to (${until}) is in the future: the last day that can be compared is today, ${today}.`,
    };
  }
  const days = daysInclusive(from, until);
  if (days > MAX_PERIOD_DAYS) {
    return {
      ok: false,
      message: `The period has ${days} days; compare at most ${MAX_PERIOD_DAYS} at a time (split it by month).`,
    };
  }
  return {
    ok: true,
    from,
    to: until,
    start: startOfSaoPauloDay(from),
    end: startOfSaoPauloDay(nextDay(until)),
  };
}
