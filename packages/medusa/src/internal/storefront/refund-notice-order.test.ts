import { describe, expect, it } from "vitest";
import type { ChargeRow } from "../records/charges";
import { openRefundNotes, refundWaitsForOrder } from "./refund-notice-order";

const COLLECTION = "pay_col_01JX3Q8Z2K4T0M9V6R7W5Y1N2B";

/** A charge's row with its ledger columns, pending and empty unless told. */
function row(overrides: Partial<ChargeRow> = {}): ChargeRow {
  return {
    charge_id: "ch_1",
    session_id: "payses_1",
    payment_collection_id: COLLECTION,
    method: "pix",
    status: "pending",
    amount_cents: 1490,
    currency_code: "brl",
    expires_at: null,
    paid_at: null,
    received_cents: null,
    held_cents: 0,
    held_reason: null,
    captured_cents: 0,
    owed_cents: 0,
    owed_reason: null,
    returned_cents: 0,
    flag_code: null,
    flag_detail: null,
    flag_resolved_at: null,
    ...overrides,
  } as unknown as ChargeRow;
}

/** A code paid twice: its R$ 14,90 owed back, with its open note. */
const owedTwice = row({
  charge_id: "ch_twice",
  status: "paid",
  received_cents: 1490,
  owed_cents: 1490,
  owed_reason: "paid_twice",
  flag_code: "refund_due",
  flag_detail: { reason: "paid_twice", amount_cents: 1490, order_id: null },
});
/** The code that pays the cart, captured and waiting for its order. */
const paying = row({
  charge_id: "ch_paying",
  status: "paid",
  received_cents: 1490,
  captured_cents: 1490,
});

describe("a refund notice waits for the order its cart is becoming", () => {
  it("waits while the cart is no order and another code's money pays it", () => {
    expect(refundWaitsForOrder({ cartId: "cart_1" }, [owedTwice, paying])).toBe(true);
    // Money held for Medusa's capture is on its way to pay it too.
    const held = row({ status: "paid", held_cents: 1490, held_reason: "awaiting_capture" });
    expect(refundWaitsForOrder({ cartId: "cart_1" }, [owedTwice, held])).toBe(true);
  });

  it("goes at once when the order exists, or no order is coming", () => {
    const order = { id: "order_4" };
    expect(refundWaitsForOrder({ cartId: "cart_1", order }, [owedTwice, paying])).toBe(false);
    // Nothing pays the cart (a replaced code paid while the current one waits): no order by it.
    expect(refundWaitsForOrder({ cartId: "cart_1" }, [owedTwice, row()])).toBe(false);
    // An order's own collection (no cart) has its order already.
    expect(refundWaitsForOrder({}, [owedTwice, paying])).toBe(false);
    // Short money waits for the merchant, not for an order.
    const short = row({ status: "paid", held_cents: 1000, held_reason: "underpaid" });
    expect(refundWaitsForOrder({ cartId: "cart_1" }, [owedTwice, short])).toBe(false);
  });
});

describe("the refund notices still owed on a collection", () => {
  it("are its open refund_due notes with money still owed, as their flag event said them", () => {
    const notes = openRefundNotes([owedTwice, paying], "order_placed");
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      charge_id: "ch_twice",
      payment_collection_id: COLLECTION,
      source: "order_placed",
      flag: { code: "refund_due", reason: "paid_twice", amount_cents: 1490 },
    });
  });

  it("leave out money returned and notes the merchant resolved", () => {
    const returned = { ...owedTwice, owed_cents: 0, returned_cents: 1490 } as ChargeRow;
    const resolved = { ...owedTwice, flag_resolved_at: new Date() } as ChargeRow;
    const otherNote = { ...owedTwice, flag_code: "capture_failed" } as ChargeRow;
    expect(openRefundNotes([returned, resolved, otherNote], "reconcile")).toEqual([]);
  });
});
