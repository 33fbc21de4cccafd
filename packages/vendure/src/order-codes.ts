import { brl } from "@pix-checkout/client/books";
import { AWAITING_PAYMENT } from "./awaiting-pix";
import { devolucaoOf, type DevolucaoDeadline } from "./devolucao";

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
  /** Integer cents the code asked for (the payment's amount). */
  askedCents: number;
  /** When it settled (`metadata.settledAt`): the devolução clock of a refund runs from it. */
  settledAt: string | null;
  /** Its money settled nothing (`metadata.held`); `returned` once the merchant recorded it. */
  held: {
    why: string;
    receivedCents: number;
    at: string;
    returned: { reference: string; at: string } | null;
  } | null;
  /** The shopper let it go for another code before it was paid. */
  replaced: boolean;
  /** A boleto unpaid past its grace, cancelled with its order. */
  overdue: boolean;
  /** Its refunds (Vendure's), in integer cents. */
  refunds: readonly { state: string; cents: number }[];
}

/**
 * `waiting`: still to be paid. `captured`: settled, paying its order. `held`: paid, paying
 * nothing, its money the payer's. `ended`: no money came (expired, cancelled, replaced).
 */
export type CodeBecame = "waiting" | "captured" | "held" | "ended";

/**
 * Where a code's money is, in integer cents. For a captured or held code,
 * `received = captured + owedBack + returned`, to the cent.
 */
export interface OrderCodeStory {
  became: CodeBecame;
  asked: number;
  received: number;
  captured: number;
  owedBack: number;
  returned: number;
  /** One sentence, in Portuguese, for the merchant. */
  words: string;
  /** The Pix devolução clock while something is owed back; null otherwise, and for a boleto. */
  devolucao: DevolucaoDeadline | null;
}

export function orderCodeStory(facts: OrderCodeFacts, now: Date): OrderCodeStory {
  const { method, askedCents: asked } = facts;
  const code = `${method === "boleto" ? "boleto" : "Pix"} de ${brl(asked)}`;
  const nothing = { asked, received: 0, captured: 0, owedBack: 0, returned: 0, devolucao: null };

  if (facts.held) {
    const { why, receivedCents: received, at, returned: recorded } = facts.held;
    const returned = recorded ? received : 0;
    const owedBack = received - returned;
    return {
      became: "held",
      asked,
      received,
      captured: 0,
      owedBack,
      returned,
      words: recorded
        ? `Retido, não pagou o pedido: ${why}; ${brl(received)} devolvidos ao pagador (devolução ${recorded.reference}).`
        : `Retido, não paga o pedido: ${why}; devolva ${brl(received)} ao pagador pelo painel do serviço de pagamento e registre aqui a devolução.`,
      devolucao: devolucaoOf(method, owedBack, at, now),
    };
  }

  if (facts.state === "Settled") {
    const sum = (state: string) =>
      facts.refunds.filter((r) => r.state === state).reduce((total, r) => total + r.cents, 0);
    // A refund owed or made is money of this code that no longer pays the order.
    const owedBack = sum("Pending");
    const returned = sum("Settled");
    const captured = asked - owedBack - returned;
    const parts = [
      captured > 0 ? `${brl(captured)} pagam o pedido` : null,
      owedBack > 0 ? `${brl(owedBack)} a devolver ao pagador (reembolso pendente)` : null,
      returned > 0 ? `${brl(returned)} já devolvidos ao pagador` : null,
    ].filter((part) => part !== null);
    return {
      became: "captured",
      asked,
      received: asked,
      captured,
      owedBack,
      returned,
      words: `Pago: ${parts.join("; ")}.`,
      devolucao: devolucaoOf(method, owedBack, facts.settledAt, now),
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
