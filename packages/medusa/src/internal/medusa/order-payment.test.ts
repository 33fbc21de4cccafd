import { describe, expect, it } from "vitest";
import { orderPaymentOf, shopperOrderStateOf } from "./order-payment";

describe("orderPaymentOf", () => {
  it("says paid only when Medusa's order has nothing pending", () => {
    expect(orderPaymentOf({ status: "pending", summary: { pending_difference: 0 } })).toBe("paid");
    expect(
      orderPaymentOf({ status: "completed", summary: { raw_pending_difference: { value: "-5" } } }),
    ).toBe("paid");
    expect(orderPaymentOf({ status: "pending", summary: { pending_difference: 194.55 } })).toBe(
      "awaiting",
    );
    // A cent's fraction pending still rounds as Medusa rounds.
    expect(
      orderPaymentOf({ status: "pending", summary: { raw_pending_difference: { value: "0.01" } } }),
    ).toBe("awaiting");
  });

  it("never says paid when the summary cannot say", () => {
    expect(orderPaymentOf({ status: "pending" })).toBe("awaiting");
    expect(orderPaymentOf({ status: "pending", summary: { pending_difference: "n/a" } })).toBe(
      "awaiting",
    );
  });

  it("says canceled for an order Medusa canceled, whatever it holds", () => {
    expect(orderPaymentOf({ status: "canceled", summary: { pending_difference: 0 } })).toBe(
      "canceled",
    );
    expect(orderPaymentOf({ status: "pending", canceled_at: "2026-11-26T10:00:00Z" })).toBe(
      "canceled",
    );
  });
});

describe("shopperOrderStateOf", () => {
  it("names what an awaiting order still owes, to the cent, from Medusa's summary", () => {
    expect(
      shopperOrderStateOf({
        display_id: 7,
        status: "pending",
        summary: { raw_pending_difference: { value: "39.9" } },
      }),
    ).toStrictEqual({ display_id: 7, payment: "awaiting", owes: 3_990 });
  });

  it("names no amount when the order is paid, canceled, or its summary cannot say", () => {
    expect(
      shopperOrderStateOf({ display_id: 7, status: "pending", summary: { pending_difference: 0 } }),
    ).toStrictEqual({ display_id: 7, payment: "paid" });
    expect(
      shopperOrderStateOf({
        display_id: 7,
        status: "canceled",
        summary: { pending_difference: 12 },
      }),
    ).toStrictEqual({ display_id: 7, payment: "canceled" });
    // Not even an empty `owes`: a storefront reads the key's presence as an amount to show.
    expect(shopperOrderStateOf({ display_id: 7, status: "pending" })).toStrictEqual({
      display_id: 7,
      payment: "awaiting",
    });
  });
});
