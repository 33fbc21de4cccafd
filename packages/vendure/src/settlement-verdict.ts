/**
 * What a paid charge becomes on Vendure: settled only when it pays exactly the order it was
 * made for, while that order still waits for it. Pure: the service's word and Vendure's records
 * come in, a verdict goes out.
 */
export type SettlementVerdict =
  { kind: "settle" } | { kind: "not_paid"; why: string } | { kind: "hold"; why: string };

export interface SettlementFacts {
  order: { state: string; totalCents: number };
  payment: { state: string; amountCents: number };
  charge: { status: string; amountCents: number };
}

export function settlementVerdict({ order, payment, charge }: SettlementFacts): SettlementVerdict {
  if (charge.status !== "paid") {
    return {
      kind: "not_paid",
      why: `o serviço diz que este Pix está "${charge.status}", não pago`,
    };
  }
  if (payment.state !== "AwaitingPix") {
    return { kind: "hold", why: `o pagamento está "${payment.state}" no Vendure` };
  }
  if (charge.amountCents !== payment.amountCents) {
    return {
      kind: "hold",
      why: `o Pix pago é de ${charge.amountCents} centavos e o pagamento pede ${payment.amountCents}`,
    };
  }
  if (payment.amountCents !== order.totalCents) {
    // A code made before the order changed: its money is the shopper's, not this order's.
    return {
      kind: "hold",
      why: `o pedido custa ${order.totalCents} centavos e este Pix foi feito para ${payment.amountCents}`,
    };
  }
  if (order.state !== "ArrangingPayment") {
    return { kind: "hold", why: `o pedido está em "${order.state}", não aguarda este pagamento` };
  }
  return { kind: "settle" };
}
