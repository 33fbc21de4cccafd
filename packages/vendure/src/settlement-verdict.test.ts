import { describe, expect, it } from "vitest";
import { settlementVerdict, type SettlementFacts } from "./settlement-verdict";

const paidInFull: SettlementFacts = {
  order: { state: "ArrangingPayment", totalCents: 11_480 },
  payment: { state: "AwaitingPix", amountCents: 11_480 },
  charge: { status: "paid", amountCents: 11_480 },
};

describe("what a paid Pix becomes on Vendure", () => {
  it("settles a code paid in full for the order that waits for it", () => {
    expect(settlementVerdict(paidInFull)).toEqual({ kind: "settle" });
  });

  it("settles nothing the service has not confirmed paid", () => {
    for (const status of ["pending", "expired", "canceled"]) {
      const verdict = settlementVerdict({ ...paidInFull, charge: { status, amountCents: 11_480 } });
      expect(verdict.kind).toBe("not_paid");
    }
  });

  it("holds a code whose paid amount is not the payment's, a cent either way", () => {
    for (const amountCents of [11_479, 11_481]) {
      expect(
        settlementVerdict({ ...paidInFull, charge: { status: "paid", amountCents } }).kind,
      ).toBe("hold");
    }
  });

  it("holds a code made before the order changed: its money is not this order's", () => {
    const verdict = settlementVerdict({
      ...paidInFull,
      order: { state: "ArrangingPayment", totalCents: 12_980 },
    });
    expect(verdict).toMatchObject({ kind: "hold" });
    expect(verdict.kind === "hold" && verdict.why).toContain("12980");
  });

  it("holds a payment already settled or cancelled, and an order no longer waiting for it", () => {
    for (const state of ["Settled", "Cancelled", "Declined"]) {
      expect(
        settlementVerdict({ ...paidInFull, payment: { state, amountCents: 11_480 } }).kind,
      ).toBe("hold");
    }
    for (const state of ["Cancelled", "PaymentSettled", "AddingItems"]) {
      expect(settlementVerdict({ ...paidInFull, order: { state, totalCents: 11_480 } }).kind).toBe(
        "hold",
      );
    }
  });
});
