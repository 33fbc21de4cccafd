import { brl } from "@pix-checkout/client/books";
import { AWAITING_PAYMENT } from "./awaiting-pix";

/**
 * What a paid Pix becomes on Vendure. Vendure's payments cover an order's total together (a
 * second code pays what an order that grew costs more), so a code settles when the service
 * says it is paid, for exactly its payment's amount, while its order waits for payment and the
 * payments already settled plus this one do not pass what the order costs. Anything else paid
 * is held: never settled, listed for the merchant. Pure: the service's word and Vendure's
 * records come in, a verdict goes out.
 */
export type SettlementVerdict =
  | { kind: "settle" }
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

export interface SettlementFacts {
  /** `settledCents`: what the order's payments already settled (integer cents). */
  order: { state: string; totalCents: number; settledCents: number };
  /** `replaced`: the shopper asked for another code before this one was paid (`pixCheckoutReplaceCode`). */
  payment: { state: string; amountCents: number; replaced?: boolean };
  charge: { status: string; amountCents: number };
}

/**
 * The order states in which Vendure waits for a payment: before it is placed, and placed with a
 * boleto (`PaymentAuthorized`) still to be paid.
 */
const WAITING = new Set(["ArrangingPayment", "ArrangingAdditionalPayment", "PaymentAuthorized"]);

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
  if (charge.amountCents !== payment.amountCents) {
    return hold(
      `o Pix pago é de ${brl(charge.amountCents)} e o código pedia ${brl(payment.amountCents)}`,
      charge.amountCents < payment.amountCents ? "underpaid" : "overpaid",
    );
  }
  if (!WAITING.has(order.state)) {
    return hold(
      `o pedido está "${order.state}" e não aguarda este pagamento`,
      order.state.startsWith("Payment") || order.state === "Shipped" || order.state === "Delivered"
        ? "paid_twice"
        : "other",
    );
  }
  if (order.settledCents + payment.amountCents > order.totalCents) {
    return hold(
      `o pedido custa ${brl(order.totalCents)}, já tem ${brl(order.settledCents)} pagos, e este Pix de ${brl(payment.amountCents)} passaria do total`,
      "amount_lowered",
    );
  }
  return { kind: "settle" };
}
