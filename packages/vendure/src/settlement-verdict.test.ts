import { describe, expect, it } from "vitest";
import { settlementVerdict, type SettlementFacts } from "./settlement-verdict";

const paidInFull: SettlementFacts = {
  order: { state: "ArrangingPayment", totalCents: 11_480, settledCents: 0 },
  payment: { state: "AwaitingPix", amountCents: 11_480 },
  charge: { status: "paid", amountCents: 11_480 },
};

describe("what a paid Pix becomes on Vendure", () => {
  it("settles a code paid in full for the order that waits for it", () => {
    expect(settlementVerdict(paidInFull)).toEqual({ kind: "settle" });
  });

  it("settles a second code that pays what an order that grew costs more, to the cent", () => {
    const verdict = settlementVerdict({
      order: { state: "ArrangingPayment", totalCents: 16_470, settledCents: 11_480 },
      payment: { state: "AwaitingPix", amountCents: 4_990 },
      charge: { status: "paid", amountCents: 4_990 },
    });
    expect(verdict).toEqual({ kind: "settle" });
  });

  it("settles nothing the service has not confirmed paid", () => {
    for (const status of ["pending", "expired", "canceled"]) {
      const verdict = settlementVerdict({ ...paidInFull, charge: { status, amountCents: 11_480 } });
      expect(verdict.kind).toBe("not_paid");
    }
  });

  it("holds a code whose paid amount is not its payment's, a cent either way", () => {
    for (const amountCents of [11_479, 11_481]) {
      expect(
        settlementVerdict({ ...paidInFull, charge: { status: "paid", amountCents } }).kind,
      ).toBe("hold");
    }
  });

  it("holds a code that would make the order's settled payments pass its total by a cent", () => {
    const verdict = settlementVerdict({
      ...paidInFull,
      order: { state: "ArrangingPayment", totalCents: 11_480, settledCents: 1 },
    });
    expect(verdict).toMatchObject({ kind: "hold" });
    expect(verdict.kind === "hold" && verdict.why).toMatch(/custa R\$\s114,80, já tem R\$\s0,01/);
  });

  it("holds a replaced code's money whatever the order waits for: it is owed back as paid_replaced", () => {
    for (const state of ["Cancelled", "AwaitingPix"]) {
      expect(
        settlementVerdict({
          ...paidInFull,
          payment: { state, amountCents: 11_480, replaced: true },
        }),
      ).toEqual({
        kind: "hold",
        why: "este código foi trocado por outro antes de ser pago",
        reason: "paid_replaced",
        receivedCents: 11_480,
      });
    }
  });

  it("holds a payment no longer awaiting its Pix, and any code of an order no longer waiting", () => {
    for (const state of ["Settled", "Cancelled", "Declined"]) {
      expect(
        settlementVerdict({ ...paidInFull, payment: { state, amountCents: 11_480 } }).kind,
      ).toBe("hold");
    }
    for (const state of ["Cancelled", "PaymentSettled", "AddingItems"]) {
      expect(
        settlementVerdict({ ...paidInFull, order: { state, totalCents: 11_480, settledCents: 0 } })
          .kind,
      ).toBe("hold");
    }
    expect(
      settlementVerdict({
        ...paidInFull,
        order: { state: "ArrangingAdditionalPayment", totalCents: 11_480, settledCents: 0 },
      }).kind,
    ).toBe("settle");
  });

  it("owes back all of a payment to a cancelled order, whatever its amount and its payment's state: paid_after_order_canceled", () => {
    for (const payment of [
      { state: "Cancelled", amountCents: 11_480 },
      { state: "Authorized", amountCents: 11_480 },
      { state: "AwaitingPix", amountCents: 20_000 },
    ]) {
      expect(
        settlementVerdict({
          ...paidInFull,
          order: { state: "Cancelled", totalCents: 11_480, settledCents: 0 },
          payment,
        }),
      ).toEqual({
        kind: "hold",
        why: "o pedido foi cancelado antes de este pagamento chegar",
        reason: "paid_after_order_canceled",
        receivedCents: 11_480,
      });
    }
  });
});
