import { describe, expect, it } from "vitest";
import type { ChargeRow } from "../../records/charges";
import { chargeRow } from "../../settlement/__tests__/charge-row";
import { toStoreView } from "../store-view";
import { paymentOnItsWay, streamIsDone } from "./order-news";

/** A pending Pix of R$ 49,90 with its code on display (the shared row, before any payment). */
const row = (over: Partial<ChargeRow> = {}): ChargeRow =>
  chargeRow({
    status: "pending",
    amount_cents: 4990,
    api_amount_cents: null,
    received_cents: null,
    held_cents: 0,
    held_reason: null,
    expires_at: new Date("2026-11-21T06:30:00.000Z"),
    display: { charge_id: "x", pix: { copy_paste: "000201...6304ABCD" } },
    ...over,
  });

const paidAt = new Date("2026-11-21T06:10:00.000Z");
/** Paid in full, as the ledger records it at the payment: all of it held for the capture. */
const justPaid = (over: Partial<ChargeRow> = {}) =>
  row({
    status: "paid",
    paid_at: paidAt,
    received_cents: 4990,
    held_cents: 4990,
    held_reason: "awaiting_capture",
    ...over,
  });
/** Captured in full, its cart an order. */
const captured = (over: Partial<ChargeRow> = {}) =>
  justPaid({ held_cents: 0, held_reason: null, captured_cents: 4990, ...over });
const viewOf = (charge: ChargeRow, payment?: "paid" | "awaiting" | "canceled") => ({
  ...toStoreView(charge, "payses_1"),
  ...(payment ? { order: { display_id: 1042, payment } } : {}),
});
const done = (charge: ChargeRow, payment?: "paid" | "awaiting" | "canceled") =>
  streamIsDone(viewOf(charge, payment), charge);

describe("streamIsDone", () => {
  it("keeps a pending code's stream open, and ends one that expired or whose money goes back", () => {
    expect(done(row())).toBe(false);
    expect(done(row({ status: "expired" }))).toBe(true);
    // Refused by the service, or its order canceled: nothing of it can be paid any more.
    expect(done(row({ status: "failed" }))).toBe(true);
    expect(done(row({ status: "canceled" }))).toBe(true);
    const owed = justPaid({ held_cents: 0, held_reason: null, owed_cents: 4990 });
    expect(viewOf({ ...owed, owed_reason: "paid_twice" }).status).toBe("refund_due");
    expect(done({ ...owed, owed_reason: "paid_twice" })).toBe(true);
  });

  it("keeps a paid code's stream open until Medusa's order is paid, while the ledger says that news is coming", () => {
    // Recorded, not captured yet: the order's news follows.
    expect(done(justPaid())).toBe(false);
    // Captured, its cart not an order yet.
    expect(done(captured({ awaiting_order_since: paidAt }))).toBe(false);
    // Captured and an order, which does not count the capture yet (its transactions follow).
    expect(done(captured(), "awaiting")).toBe(false);
    // The order is paid: everything is said.
    expect(done(captured(), "paid")).toBe(true);
  });

  it("keeps a short payment's stream open: `held` waits for the store's decision", () => {
    expect(
      done(justPaid({ received_cents: 3000, held_cents: 3000, held_reason: "underpaid" })),
    ).toBe(false);
  });

  it("ends a paid code's stream when no order news is on its way", () => {
    // The order was canceled; a code of no payment collection has no order to wait for.
    expect(done(captured(), "canceled")).toBe(true);
    expect(done(justPaid({ payment_collection_id: null }))).toBe(true);
    // Without its row (a view read on its own), a final status ends the stream as before.
    expect(streamIsDone(viewOf(justPaid()))).toBe(true);
  });
});

describe("streamIsDone, when the order's news is already told", () => {
  it("ends a paid code's stream once Medusa's order is paid or canceled, even before the ledger records the capture", () => {
    // Medusa captures first; the ledger's record of it follows.
    expect(done(justPaid(), "paid")).toBe(true);
    expect(done(justPaid(), "canceled")).toBe(true);
  });

  it("ends a replaced code's stream at the cart paid by another of its codes, whose page tells the order's news", () => {
    // The status route answers a replaced, unpaid code with the code that paid the cart.
    const own = row({ superseded_at: paidAt });
    const paidByAnother = {
      ...viewOf(captured()),
      order: { display_id: 1042, payment: "awaiting" as const },
    };
    expect(streamIsDone(paidByAnother, own)).toBe(true);
  });

  it("ends a captured code's stream when its cart is an order the page could not name: nothing more comes from the ledger", () => {
    expect(done(captured())).toBe(true);
  });
});

describe("paymentOnItsWay", () => {
  // With it, the page names no amount the order owes ("Faltam R$ X"): this code is paying it.
  it("says a paid code's money is on its way while settlement captures it or its cart becomes an order", () => {
    // Held for the capture, or accepted by the merchant: settlement captures it by itself.
    expect(paymentOnItsWay(justPaid())).toBe(true);
    expect(paymentOnItsWay(justPaid({ held_reason: "accepted" }))).toBe(true);
    // Captured, its cart not an order yet.
    expect(paymentOnItsWay(captured({ awaiting_order_since: paidAt }))).toBe(true);
  });

  it("says it is not once the money is the order's, waits on the store, or pays no collection", () => {
    // Captured and an order: what the order still asks is owed (an edit added to it).
    expect(paymentOnItsWay(captured())).toBe(false);
    // Short of the code: held for the store's decision, paying nothing meanwhile.
    expect(
      paymentOnItsWay(
        justPaid({ received_cents: 3000, held_cents: 3000, held_reason: "underpaid" }),
      ),
    ).toBe(false);
    // A code of no payment collection pays no order.
    expect(paymentOnItsWay(justPaid({ payment_collection_id: null }))).toBe(false);
    expect(
      paymentOnItsWay(captured({ payment_collection_id: null, awaiting_order_since: paidAt })),
    ).toBe(false);
  });
});
