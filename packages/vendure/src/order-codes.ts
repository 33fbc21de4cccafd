import { DEFAULT_BANK_CALENDAR, type BankCalendar } from "@pix-checkout/client/bank-days";
import { brl } from "@pix-checkout/client/books";
import { AWAITING_PAYMENT } from "./awaiting-pix";
import { devolucaoOf, type DevolucaoDeadline } from "./devolucao";
import { medViewOf, medWords, openMedOf, type MedCase, type MedView } from "./med-case";

/**
 * What became of each code of an order, as the merchant's order screen shows it: where its
 * money went (paid the order, held, owed back, returned) and one sentence saying why. Pure: the
 * payment's records come in, the amounts and the words go out; the service only gathers them.
 */

/** What the store's records say of one code of ours. */
export interface OrderCodeFacts {
  method: "pix" | "boleto";
  /** Vendure's payment state. */
  state: string;
  /** Integer cents the code asked for (payment-facts.ts `askedOf`). */
  askedCents: number;
  /**
   * What the bank paid for a settled code (the payment's amount): more than asked when it was
   * overpaid. The code's asked amount when absent.
   */
  receivedCents?: number;
  /** What settling it owed back at once, and why (payment-facts.ts `owedAtSettleOf`). */
  owedAtSettle?: { cents: number; reason: "overpaid" | "amount_lowered" } | null;
  /** When it settled (`metadata.settledAt`): the devolução clock of a refund runs from it. */
  settledAt: string | null;
  /**
   * Its money settled nothing (`metadata.held`); `returned` once the rest of it was recorded
   * returned (by the merchant, or by a MED that returned all of it), `returnedParts` for parts
   * returned before that (a MED that returned part of it).
   */
  held: {
    why: string;
    receivedCents: number;
    at: string;
    returned: { reference: string; at: string } | null;
    returnedParts?: readonly { reference: string; at: string; cents: number }[];
  } | null;
  /** The shopper let it go for another code before it was paid. */
  replaced: boolean;
  /** A boleto unpaid past its grace, cancelled with its order. */
  overdue: boolean;
  /** Its refunds (Vendure's), in integer cents. */
  refunds: readonly { state: string; cents: number }[];
  /** Its latest MED case (`metadata.med`), open or decided; none when absent. */
  med?: MedCase | null;
}

/**
 * `waiting`: still to be paid. `captured`: settled, paying its order. `held`: paid, paying
 * nothing, its money the payer's. `ended`: no money came (expired, cancelled, replaced).
 */
export type CodeBecame = "waiting" | "captured" | "held" | "ended";

/**
 * Where a code's money is, in integer cents. For a captured or held code,
 * `received = captured + contested + owedBack + returned`, to the cent.
 */
export interface OrderCodeStory {
  became: CodeBecame;
  asked: number;
  received: number;
  /** What pays the order: a captured code's money less its refunds and what an open MED contests. */
  captured: number;
  /** Captured money an open MED blocked: out of income until the institution decides. */
  contested: number;
  /** Owed back to the payer, including owed money an open MED blocked (the case's until then). */
  owedBack: number;
  returned: number;
  /** One sentence, in Portuguese, for the merchant (and one more for its MED, if any). */
  words: string;
  /**
   * The Pix devolução clock while something is owed back that no open MED blocked; null
   * otherwise, and for a boleto.
   */
  devolucao: DevolucaoDeadline | null;
  /** Its latest MED case, or null. */
  med: MedView | null;
}

/** `calendar`: the store's, for a MED's deadline (options.ts `bankCalendarOf`). */
export function orderCodeStory(
  facts: OrderCodeFacts,
  now: Date,
  calendar: BankCalendar = DEFAULT_BANK_CALENDAR,
): OrderCodeStory {
  const { method, askedCents: asked } = facts;
  const code = `${method === "boleto" ? "boleto" : "Pix"} de ${brl(asked)}`;
  const med = facts.med ?? null;
  const open = openMedOf(med);
  const withMed = (words: string) => (med ? `${words} ${medWords(med)}` : words);
  const nothing = {
    asked,
    received: 0,
    captured: 0,
    contested: 0,
    owedBack: 0,
    returned: 0,
    devolucao: null,
    med: med && medViewOf(med, now, calendar),
  };

  if (facts.held) {
    const { why, receivedCents: received, at, returned: recorded } = facts.held;
    const parts = (facts.held.returnedParts ?? []).reduce((sum, part) => sum + part.cents, 0);
    const returned = recorded ? received : Math.min(parts, received);
    const owedBack = received - returned;
    // Owed money an open MED blocked is the case's: no devolução asks for it until it decides.
    const toReturn = owedBack - Math.min(open?.blockedOwedCents ?? 0, owedBack);
    const done = parts > 0 ? `${brl(parts)} já devolvidos ao pagador; ` : "";
    return {
      ...nothing,
      became: "held",
      received,
      owedBack,
      returned,
      words: withMed(
        recorded
          ? `Retido, não pagou o pedido: ${why}; ${brl(received)} devolvidos ao pagador (devolução ${recorded.reference}).`
          : toReturn > 0
            ? `Retido, não paga o pedido: ${why}; ${done}devolva ${brl(toReturn)} ao pagador pelo painel do serviço de pagamento e registre aqui a devolução.`
            : `Retido, não paga o pedido: ${why}; ${done}nada a devolver enquanto o MED não decide.`,
      ),
      devolucao: devolucaoOf(method, toReturn, at, now),
    };
  }

  if (facts.state === "Settled") {
    const sum = (state: string) =>
      facts.refunds.filter((r) => r.state === state).reduce((total, r) => total + r.cents, 0);
    // A refund owed or made is money of this code that no longer pays the order.
    const owedBack = sum("Pending");
    const returned = sum("Settled");
    // Captured money an open MED blocked is out of income until it decides.
    const contested = open?.contestedCents ?? 0;
    const blockedOwed = Math.min(open?.blockedOwedCents ?? 0, owedBack);
    const received = facts.receivedCents ?? asked;
    const captured = received - owedBack - returned - contested;
    const owedWords = blockedOwed > 0 ? `, ${brl(blockedOwed)} bloqueados pelo MED` : "";
    // Why settling it owed money back at once, when it did.
    const owedWhy =
      facts.owedAtSettle?.reason === "overpaid"
        ? `pago ${brl(received)} por um código de ${brl(asked)}; `
        : facts.owedAtSettle?.reason === "amount_lowered"
          ? "o pedido passou a custar menos que o código; "
          : "";
    const parts = [
      captured > 0 ? `${brl(captured)} pagam o pedido` : null,
      contested > 0 ? `${brl(contested)} contestados no MED, fora da receita até a decisão` : null,
      owedBack > 0
        ? `${brl(owedBack)} a devolver ao pagador (reembolso pendente${owedWords})`
        : null,
      returned > 0 ? `${brl(returned)} já devolvidos ao pagador` : null,
    ].filter((part) => part !== null);
    return {
      ...nothing,
      became: "captured",
      received,
      captured,
      contested,
      owedBack,
      returned,
      words: withMed(`Pago: ${owedWhy}${parts.join("; ")}.`),
      devolucao: devolucaoOf(method, owedBack - blockedOwed, facts.settledAt, now),
    };
  }

  if (AWAITING_PAYMENT.has(facts.state)) {
    return {
      ...nothing,
      became: "waiting",
      words:
        method === "boleto"
          ? `Aguardando pagamento: o pedido já foi feito, e este ${code} o paga quando o banco confirmar.`
          : `Aguardando pagamento: este ${code} ainda não foi pago.`,
    };
  }

  return { ...nothing, became: "ended", words: endedWords(facts, code) };
}

/** Why a code that brought no money ended. */
function endedWords(facts: OrderCodeFacts, code: string): string {
  if (facts.replaced) {
    return `Trocado por outro código antes de ser pago: este ${code} não paga mais o pedido.`;
  }
  if (facts.overdue) {
    return `Encerrado sem pagamento: este ${code} não foi pago até o fim do prazo de compensação, e o pedido foi cancelado.`;
  }
  if (facts.state === "Cancelled") {
    return `Encerrado sem pagamento: este ${code} expirou ou foi cancelado.`;
  }
  return `Encerrado sem pagamento: este ${code} está "${facts.state}" no Vendure.`;
}
