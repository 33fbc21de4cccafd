import { describe, expect, it } from "vitest";
import {
  collectionPaidBy,
  countsAsPayment,
  decide,
  type ChargeFacts,
  type CollectionSnapshot,
} from "./decide";

const NOW = new Date("2026-11-24T12:00:00Z");

const charge = (over: Partial<ChargeFacts> = {}): ChargeFacts => ({
  chargeId: "ch_a",
  sessionId: "ps_a",
  status: "paid",
  settlement: "capturable",
  settlementReason: null,
  amountCents: 10_000,
  apiAmountCents: 10_000,
  paidAt: new Date("2026-11-24T11:00:00Z"),
  superseded: false,
  captureSessionId: null,
  captured: false,
  capturedAt: null,
  captureClaimed: false,
  orderHoldUntil: null,
  cartCompletion: null,
  ...over,
});

const snapshot = (over: Partial<CollectionSnapshot> = {}): CollectionSnapshot => ({
  charges: [charge()],
  liveSessions: [{ id: "ps_a", amountCents: 10_000 }],
  payments: [],
  order: null,
  cartId: "cart_1",
  cancelOrderOnExpiry: true,
  now: NOW,
  ...over,
});

describe("decide: what a paid charge becomes", () => {
  const cases: [string, Partial<CollectionSnapshot>, string, unknown][] = [
    [
      "captures a charge paid in full on its own live session",
      {},
      "ch_a",
      { kind: "capture", sessionId: "ps_a", adopted: false, amountCents: 10_000 },
    ],
    [
      "holds a charge the bank credited R$ 10,00 short, whatever its settlement was written as",
      { charges: [charge({ apiAmountCents: 9_000, settlement: "held" })] },
      "ch_a",
      { kind: "hold", reason: "underpaid" },
    ],
    [
      "holds an underpaid charge recorded before settlements existed",
      { charges: [charge({ apiAmountCents: 9_000, settlement: null })] },
      "ch_a",
      { kind: "hold", reason: "underpaid" },
    ],
    [
      "captures an accepted underpaid charge for what arrived, never the code's amount",
      { charges: [charge({ apiAmountCents: 9_000, settlement: "capturable" })] },
      "ch_a",
      { kind: "capture", sessionId: "ps_a", adopted: false, amountCents: 9_000 },
    ],
    [
      "captures an overpaid charge for the cart's amount",
      { charges: [charge({ apiAmountCents: 11_000 })] },
      "ch_a",
      { kind: "capture", sessionId: "ps_a", adopted: false, amountCents: 10_000 },
    ],
    [
      "does nothing more for a captured charge",
      { charges: [charge({ captured: true, settlement: "captured" })] },
      "ch_a",
      { kind: "nothing", why: "already captured" },
    ],
    [
      "keeps a refund due a refund due, with its reason",
      { charges: [charge({ settlement: "refund_due", settlementReason: "out_of_stock" })] },
      "ch_a",
      { kind: "refund_due", reason: "out_of_stock" },
    ],
    [
      "makes the second of two codes paid in full a refund due (first paid wins)",
      {
        charges: [
          charge({ chargeId: "ch_a", paidAt: new Date("2026-11-24T11:00:00Z") }),
          charge({ chargeId: "ch_b", sessionId: "ps_b", paidAt: new Date("2026-11-24T11:00:01Z") }),
        ],
        liveSessions: [
          { id: "ps_a", amountCents: 10_000 },
          { id: "ps_b", amountCents: 10_000 },
        ],
      },
      "ch_b",
      { kind: "refund_due", reason: "paid_twice" },
    ],
    [
      "keeps a captured charge the payment even if the other was paid earlier by the API's clock",
      {
        charges: [
          charge({ chargeId: "ch_a", paidAt: new Date("2026-11-24T11:00:00Z") }),
          charge({
            chargeId: "ch_b",
            sessionId: "ps_b",
            paidAt: new Date("2026-11-24T11:30:00Z"),
            captured: true,
            settlement: "captured",
          }),
        ],
      },
      "ch_a",
      { kind: "refund_due", reason: "paid_twice" },
    ],
    [
      "lets a charge paid in full be the payment while an underpaid sibling is held",
      {
        charges: [
          charge({ chargeId: "ch_a", apiAmountCents: 5_000, settlement: "held" }),
          charge({ chargeId: "ch_b", sessionId: "ps_b", paidAt: new Date("2026-11-24T11:30:00Z") }),
        ],
        liveSessions: [{ id: "ps_b", amountCents: 10_000 }],
      },
      "ch_b",
      { kind: "capture", sessionId: "ps_b", adopted: false, amountCents: 10_000 },
    ],
    [
      "adopts a replaced code paid for the cart's current amount onto the live session",
      {
        charges: [charge({ superseded: true })],
        liveSessions: [{ id: "ps_new", amountCents: 10_000 }],
      },
      "ch_a",
      { kind: "capture", sessionId: "ps_new", adopted: true, amountCents: 10_000 },
    ],
    [
      "adopts a paid code whose session Medusa deleted without superseding it",
      { liveSessions: [{ id: "ps_new", amountCents: 10_000 }] },
      "ch_a",
      { kind: "capture", sessionId: "ps_new", adopted: true, amountCents: 10_000 },
    ],
    [
      "makes a replaced code paid for an old amount a refund due",
      {
        charges: [charge({ superseded: true })],
        liveSessions: [{ id: "ps_new", amountCents: 12_000 }],
      },
      "ch_a",
      { kind: "refund_due", reason: "paid_old_amount" },
    ],
    [
      "captures an adopted charge on the session that adopted it",
      { charges: [charge({ captureSessionId: "ps_new" })], liveSessions: [] },
      "ch_a",
      { kind: "capture", sessionId: "ps_new", adopted: false, amountCents: 10_000 },
    ],
    [
      "captures on its own session once the order holds its payment (sessions of a completed cart)",
      { liveSessions: [], payments: [{ sessionId: "ps_a", captured: false }] },
      "ch_a",
      { kind: "capture", sessionId: "ps_a", adopted: false, amountCents: 10_000 },
    ],
  ];
  it.each(cases)("%s", (_name, over, chargeId, expected) => {
    expect(decide(snapshot(over), chargeId)).toEqual(expected);
  });
});

describe("decide: what an ended charge does to its order", () => {
  const order = { id: "order_1", status: "pending", canceledAt: null };
  const ended = (over: Partial<ChargeFacts> = {}) =>
    charge({ status: "expired", settlement: null, apiAmountCents: null, paidAt: null, ...over });
  const cases: [string, Partial<CollectionSnapshot>, unknown][] = [
    [
      "ends the order that waits on an expired Pix",
      { charges: [ended()], order },
      { kind: "end_order", orderId: "order_1" },
    ],
    [
      "ends an order-first order with no payment yet",
      { charges: [ended({ status: "failed" })], order, payments: [] },
      { kind: "end_order", orderId: "order_1" },
    ],
    [
      "keeps the order when the merchant turned cancelOrderOnExpiry off",
      { charges: [ended()], order, cancelOrderOnExpiry: false },
      { kind: "keep_order", orderId: "order_1" },
    ],
    [
      "never ends an order while another code of the cart is paid",
      { charges: [ended(), charge({ chargeId: "ch_b", sessionId: "ps_b" })], order },
      { kind: "nothing", why: "the collection holds a payment" },
    ],
    [
      "never ends an order while an underpaid code holds money for the merchant",
      {
        charges: [
          ended(),
          charge({ chargeId: "ch_b", sessionId: "ps_b", apiAmountCents: 1, settlement: "held" }),
        ],
        order,
      },
      { kind: "nothing", why: "the collection holds a payment" },
    ],
    [
      "ends the order even if a sibling's money is a refund due",
      {
        charges: [
          ended(),
          charge({ chargeId: "ch_b", sessionId: "ps_b", settlement: "refund_due" }),
        ],
        order,
      },
      { kind: "end_order", orderId: "order_1" },
    ],
    [
      "does nothing for a replaced code that expired",
      { charges: [ended({ superseded: true })], order },
      { kind: "nothing", why: "a replaced code ended" },
    ],
    [
      "waits for a boleto's grace period before ending its order",
      {
        charges: [ended({ orderHoldUntil: new Date("2026-11-27T03:00:00Z") })],
        order,
      },
      { kind: "recheck", at: new Date("2026-11-25T12:00:00Z") },
    ],
    [
      "does not end an order whose payment is another session's",
      { charges: [ended()], order, payments: [{ sessionId: "ps_other", captured: false }] },
      { kind: "cancel_session" },
    ],
    [
      "only cancels the session when no order exists",
      { charges: [ended()] },
      { kind: "cancel_session" },
    ],
  ];
  it.each(cases)("%s", (_name, over, expected) => {
    expect(decide(snapshot(over), "ch_a")).toEqual(expected);
  });

  it("does nothing for a pending charge", () => {
    expect(decide(snapshot({ charges: [ended({ status: "pending" })] }), "ch_a").kind).toBe(
      "nothing",
    );
  });
});

describe("countsAsPayment", () => {
  it("counts paid money that is neither held nor due a refund", () => {
    expect(countsAsPayment({ status: "paid", settlement: "capturable" })).toBe(true);
    expect(countsAsPayment({ status: "paid", settlement: "captured" })).toBe(true);
    expect(countsAsPayment({ status: "paid", settlement: "held" })).toBe(false);
    expect(countsAsPayment({ status: "paid", settlement: "refund_due" })).toBe(false);
    expect(countsAsPayment({ status: "expired", settlement: null })).toBe(false);
  });
});

describe("collectionPaidBy: whether a collection is paid, and how", () => {
  const row = (
    over: Partial<{
      status: ChargeFacts["status"];
      settlement: ChargeFacts["settlement"];
      session_id: string;
      capture_session_id: string | null;
    }> = {},
  ) => ({
    status: "pending" as ChargeFacts["status"],
    settlement: null as ChargeFacts["settlement"],
    session_id: "ps_a",
    capture_session_id: null as string | null,
    ...over,
  });

  it("is paid by a charge that counts as the payment", () => {
    const paid = row({ status: "paid", settlement: "captured", session_id: "ps_b" });
    expect(collectionPaidBy([row(), paid], [])).toEqual({ by: "charge", charge: paid });
  });

  it("is not paid by a charge held or due a refund", () => {
    const held = row({ status: "paid", settlement: "held" });
    const refund = row({ status: "paid", settlement: "refund_due", session_id: "ps_b" });
    expect(collectionPaidBy([held, refund], [{ sessionId: "ps_a", captured: false }])).toBeNull();
  });

  it("is paid another way when Medusa holds a capture, or a payment of a session none of its charges had", () => {
    expect(collectionPaidBy([row()], [{ sessionId: "ps_a", captured: true }])).toEqual({
      by: "elsewhere",
    });
    expect(collectionPaidBy([row()], [{ sessionId: "ps_card", captured: false }])).toEqual({
      by: "elsewhere",
    });
  });

  it("is not paid by its own code's authorized payment (an order-first boleto) nor by one adopted from an older session", () => {
    const adopted = row({ session_id: "ps_new", capture_session_id: "ps_old" });
    expect(
      collectionPaidBy(
        [adopted],
        [
          { sessionId: "ps_new", captured: false },
          { sessionId: "ps_old", captured: false },
        ],
      ),
    ).toBeNull();
  });
});
