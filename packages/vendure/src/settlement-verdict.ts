import { brl } from "@pix-checkout/client/books";
import { arrivalOf, paymentOf } from "@pix-checkout/client/settlement";
import { AWAITING_PAYMENT } from "./awaiting-pix";
import { PAID_ORDER, WAITING_FOR_PAYMENT } from "./order-states";

/**
 * What a paid Pix becomes on Vendure. Vendure's payments cover an order's total together (a
 * second code pays what an order that grew costs more). The money's split is
 * @pix-checkout/client/settlement's, the Medusa plugin's too: a code pays at most what it asked
 * (less is held for the merchant, more owes the excess back, `overpaid`), and the order takes at
 * most what it still asks (the rest owed back, `amount_lowered`; all of it when the order was
 * paid already, `paid_twice`). What is Vendure's is when a code may pay at all: its payment
 * still awaiting it, its order waiting for payment, not cancelled, the code not replaced.
 * Anything else paid is held: never settled, listed for the merchant. Pure: the service's word
 * and Vendure's records come in, a verdict goes out.
 */
export type SettlementVerdict =
  /**
   * Settle the payment for all it received (`receivedCents`, its amount from then on), and owe
   * each of `owed` back as a refund on Vendure's order, `Pending` until the merchant records
   * the devolução: what Vendure counts paid is then exactly what pays the order.
   */
  | { kind: "settle"; receivedCents: number; owed: readonly OwedPart[] }
  | { kind: "not_paid"; why: string }
  | { kind: "hold"; why: string; reason: HoldReason; receivedCents: number };

/**
 * Why paid money settled nothing, as the shopper is told it: the element's `refund.reason`, or
 * `underpaid`, a payment short of its code that waits for the store's decision (its `held`).
 */
export type HoldReason =
  | "underpaid"
  | "overpaid"
  | "paid_twice"
  | "paid_replaced"
  | "amount_lowered"
  | "paid_after_order_canceled"
  | "other";

/** Money of a settled payment owed back to the payer, and why. */
export interface OwedPart {
  cents: number;
  reason: "overpaid" | "amount_lowered";
}

export interface SettlementFacts {
  /** `settledCents`: what the order's payments already settled (integer cents). */
  order: { state: string; totalCents: number; settledCents: number };
  /** `replaced`: the shopper asked for another code before this one was paid (`pixCheckoutReplaceCode`). */
  payment: { state: string; amountCents: number; replaced?: boolean };
  charge: { status: string; amountCents: number };
}

export function settlementVerdict({ order, payment, charge }: SettlementFacts): SettlementVerdict {
  if (charge.status !== "paid") {
    return {
      kind: "not_paid",
      why: `o serviço diz que este Pix está "${charge.status}", não pago`,
    };
  }
  const hold = (why: string, reason: HoldReason): SettlementVerdict => ({
    kind: "hold",
    why,
    reason,
    receivedCents: charge.amountCents,
  });
  // The shopper moved to another code (another method, or a new Pix): this one pays nothing,
  // whatever else is true of the order, and its money goes back.
  if (payment.replaced) {
    return hold("este código foi trocado por outro antes de ser pago", "paid_replaced");
  }
  // A cancelled order (by the merchant, or a boleto's unpaid past its grace, its payment
  // cancelled with it) takes nothing more: the money goes back.
  if (order.state === "Cancelled") {
    return hold(
      "o pedido foi cancelado antes de este pagamento chegar",
      "paid_after_order_canceled",
    );
  }
  if (!AWAITING_PAYMENT.has(payment.state)) {
    return hold(`o pagamento já estava "${payment.state}" no Vendure`, "other");
  }
  const arrival = arrivalOf(payment.amountCents, charge.amountCents);
  // Short of its code (held whole for the merchant): it pays nothing of the order.
  if (arrival.forOrderCents < payment.amountCents) {
    return hold(
      `o Pix pago é de ${brl(charge.amountCents)} e o código pedia ${brl(payment.amountCents)}`,
      "underpaid",
    );
  }
  if (!WAITING_FOR_PAYMENT.has(order.state)) {
    return hold(
      `o pedido está "${order.state}" e não aguarda este pagamento`,
      PAID_ORDER.has(order.state) ? "paid_twice" : "other",
    );
  }
  const toOrder = paymentOf(arrival.forOrderCents, order.settledCents, order.totalCents);
  if (toOrder.kind === "paid_twice") {
    return hold(
      `o pedido custa ${brl(order.totalCents)} e já tem ${brl(order.settledCents)} pagos`,
      "paid_twice",
    );
  }
  // Vendure records money owed back as a refund on the order, and takes none while the order
  // still waits for payment (`RefundOrderStateError`): more than the code asked, on a code that
  // leaves the order unpaid (it grew after the code), cannot be settled with its excess owed.
  // All of it is held and owed back instead, and the order asks a new code for what it costs.
  if (arrival.excessCents > 0 && order.settledCents + toOrder.payCents < order.totalCents) {
    return hold(
      `o Pix pago é de ${brl(charge.amountCents)}, o código pedia ${brl(payment.amountCents)}, e o pedido passou a custar ${brl(order.totalCents)}`,
      "overpaid",
    );
  }
  const owed: OwedPart[] = [
    { cents: arrival.excessCents, reason: "overpaid" as const },
    { cents: toOrder.excessCents, reason: "amount_lowered" as const },
  ].filter((part) => part.cents > 0);
  return { kind: "settle", receivedCents: charge.amountCents, owed };
}

/** What the payer is told a part owed back is, in the refund's reason on Vendure's order. */
export function owedWords(part: OwedPart, askedCents: number): string {
  return part.reason === "overpaid"
    ? `Pix pago a mais: ${brl(part.cents)} acima dos ${brl(askedCents)} que o código pedia`
    : `o pedido passou a custar menos que o Pix pago: ${brl(part.cents)} a devolver`;
}
