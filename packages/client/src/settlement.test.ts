import { describe, expect, it } from "vitest";
import { arrivalOf, paymentOf } from "./settlement.js";

describe("arrivalOf: how a paid code's money arrives", () => {
  it.each([
    // asked, received → for the order, held, excess
    [11_480, 11_480, 11_480, 0, 0],
    [11_480, 11_481, 11_480, 0, 1],
    [11_480, 12_000, 11_480, 0, 520],
    [11_480, 11_479, 0, 11_479, 0],
    [11_480, 1, 0, 1, 0],
  ])(
    "a code of %i paid %i: %i for the order, %i held for the merchant, %i owed back",
    (asked, received, forOrderCents, heldCents, excessCents) => {
      const arrival = arrivalOf(asked, received);
      expect(arrival).toEqual({ forOrderCents, heldCents, excessCents });
      // Every cent received is in exactly one part.
      expect(arrival.forOrderCents + arrival.heldCents + arrival.excessCents).toBe(received);
    },
  );
});

describe("paymentOf: what a code's money pays of its order", () => {
  it("pays what it brings while the order still asks at least that", () => {
    expect(paymentOf(11_480, 0, 11_480)).toEqual({
      kind: "pays",
      payCents: 11_480,
      excessCents: 0,
    });
    expect(paymentOf(4_990, 11_480, 16_470)).toEqual({
      kind: "pays",
      payCents: 4_990,
      excessCents: 0,
    });
  });

  it("pays only what is still asked when the order asks less, a cent either way; the rest is owed back", () => {
    expect(paymentOf(11_480, 0, 11_479)).toEqual({
      kind: "pays",
      payCents: 11_479,
      excessCents: 1,
    });
    expect(paymentOf(4_990, 11_480, 14_000)).toEqual({
      kind: "pays",
      payCents: 2_520,
      excessCents: 2_470,
    });
    expect(paymentOf(11_480, 0, 11_481)).toEqual({
      kind: "pays",
      payCents: 11_480,
      excessCents: 0,
    });
  });

  it("pays nothing of an order that asks nothing and was paid nothing: all of it owed back as the order's lowering, not as paid twice", () => {
    expect(paymentOf(11_480, 0, 0)).toEqual({ kind: "pays", payCents: 0, excessCents: 11_480 });
  });

  it("pays nothing of an order already paid: all of it is owed back as paid twice", () => {
    expect(paymentOf(11_480, 11_480, 11_480)).toEqual({ kind: "paid_twice" });
    expect(paymentOf(4_990, 11_480, 10_000)).toEqual({ kind: "paid_twice" });
  });

  it("never takes more than the order asks, whatever came before", () => {
    for (const [forOrder, before, asks] of [
      [100, 0, 0],
      [100, 50, 120],
      [500, 0, 499],
      [1, 0, 1],
    ] as const) {
      const payment = paymentOf(forOrder, before, asks);
      expect(payment.kind).toBe("pays");
      if (payment.kind !== "pays") continue;
      expect(before + payment.payCents).toBeLessThanOrEqual(Math.max(asks, before));
      expect(payment.payCents + payment.excessCents).toBe(forOrder);
    }
  });
});
