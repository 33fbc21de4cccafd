import { describe, expect, it } from "vitest";
import type { ChargeMoney } from "../records/ledger-parts";
import {
  arrivalOf,
  collectionPaidBy,
  countsAsPayment,
  coverageOf,
  decide,
  decideFailedCreate,
  returnOf,
  type ChargeFacts,
  type CollectionSnapshot,
  type LiveSession,
  type MedusaPayment,
} from "./decide";

const NOW = new Date("2026-11-24T12:00:00Z");

/** Money as it arrives for a code of R$ 100,00 paid in full, waiting for Medusa's capture. */
const awaiting = (cents = 10_000): ChargeMoney => ({
  received: cents,
  held: cents,
  heldReason: "awaiting_capture",
  captured: 0,
  owed: 0,
  owedReason: null,
  returned: 0,
  contested: 0,
});
const captured = (cents = 10_000): ChargeMoney => ({
  ...awaiting(cents),
  held: 0,
  heldReason: null,
  captured: cents,
});
const owed = (cents: number, reason: ChargeMoney["owedReason"]): ChargeMoney => ({
  ...awaiting(cents),
  held: 0,
  heldReason: null,
  owed: cents,
  owedReason: reason,
});
const underpaid = (cents: number): ChargeMoney => ({ ...awaiting(cents), heldReason: "underpaid" });
const unpaid: ChargeMoney = {
  received: null,
  held: 0,
  heldReason: null,
  captured: 0,
  owed: 0,
  owedReason: null,
  returned: 0,
  contested: 0,
};

/** A charge's facts; what the ledger ever captured follows its money unless said. */
const charge = (over: Partial<ChargeFacts> = {}): ChargeFacts => {
  const money = over.money ?? awaiting();
  return {
    chargeId: "ch_a",
    sessionId: "ps_a",
    providerId: "pp_pix_a",
    status: "paid",
    amountCents: 10_000,
    money,
    everCapturedCents: money.captured,
    paidAt: new Date("2026-11-24T11:00:00Z"),
    superseded: false,
    captureSessionId: null,
    capturedAt: null,
    captureClaimed: false,
    orderHoldUntil: null,
    cartCompletion: null,
    ...over,
  };
};

const session = (id: string, amountCents = 10_000, providerId = "pp_pix_a"): LiveSession => ({
  id,
  providerId,
  amountCents,
  ours: providerId.startsWith("pp_pix_") || providerId.startsWith("pp_boleto_"),
});
const payment = (over: Partial<MedusaPayment> & { sessionId: string }): MedusaPayment => ({
  ours: true,
  captured: false,
  canceled: false,
  captures: over.captured ? [{ id: `cap_${over.sessionId}`, cents: 10_000, recorded: false }] : [],
  ...over,
});
/** A Medusa payment captured by a capture the ledger records. */
const recordedPayment = (sessionId: string, cents = 10_000): MedusaPayment =>
  payment({
    sessionId,
    captured: true,
    captures: [{ id: `cap_${sessionId}`, cents, recorded: true }],
  });
/** The order an order-first cart became. */
const placed = { id: "o", status: "pending", canceledAt: null };

const snapshot = (over: Partial<CollectionSnapshot> = {}): CollectionSnapshot => ({
  charges: [charge()],
  liveSessions: [session("ps_a")],
  payments: [],
  order: null,
  cartId: "cart_1",
  asksCents: 10_000,
  cancelOrderOnExpiry: true,
  now: NOW,
  ...over,
});

const owe = (reason: string, amountCents = 10_000, from = "held") => ({
  kind: "refund_due",
  reason,
  from,
  amountCents,
});

describe("arrivalOf: how a payment's money arrives in the ledger", () => {
  it.each([
    [
      "what the code asked is held for Medusa's capture",
      10_000,
      10_000,
      { held: 10_000, heldReason: "awaiting_capture", owed: 0 },
    ],
    [
      "less is held for the merchant's decision",
      10_000,
      9_000,
      { held: 9_000, heldReason: "underpaid", owed: 0 },
    ],
    [
      "more is held up to what the code asked, and the excess is owed back",
      2_000,
      2_500,
      { held: 2_000, heldReason: "awaiting_capture", owed: 500, owedReason: "overpaid" },
    ],
  ])("%s", (_name, asked, received, expected) => {
    const arrival = arrivalOf(asked, received);
    expect(arrival).toMatchObject(expected);
    // Every real received is in exactly one part.
    expect(arrival.held + arrival.owed).toBe(received);
  });
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
      "holds a charge the bank credited R$ 10,00 short for the merchant",
      { charges: [charge({ money: underpaid(9_000) })] },
      "ch_a",
      { kind: "hold", reason: "underpaid" },
    ],
    [
      "captures an accepted underpaid charge for what arrived, never the code's amount, on the session restated to it",
      {
        charges: [charge({ money: { ...underpaid(9_000), heldReason: "accepted" } })],
        liveSessions: [session("ps_a", 9_000)],
      },
      "ch_a",
      { kind: "capture", sessionId: "ps_a", adopted: false, amountCents: 9_000 },
    ],
    [
      "captures an overpaid charge for the code's amount (its excess was owed back as it arrived)",
      {
        charges: [
          charge({
            money: { ...awaiting(), received: 11_000, owed: 1_000, owedReason: "overpaid" },
          }),
        ],
      },
      "ch_a",
      { kind: "capture", sessionId: "ps_a", adopted: false, amountCents: 10_000 },
    ],
    [
      "does nothing more for captured money whose order stands",
      {
        charges: [charge({ money: captured(), capturedAt: NOW })],
        order: { id: "o", status: "pending", canceledAt: null },
      },
      "ch_a",
      { kind: "nothing", why: "already captured" },
    ],
    [
      "leaves owed money owed",
      { charges: [charge({ money: owed(10_000, "out_of_stock") })] },
      "ch_a",
      { kind: "nothing", why: "refund due: out_of_stock" },
    ],
    [
      "makes the second of two codes paid in full owed back (first paid wins)",
      {
        charges: [
          charge({ chargeId: "ch_a", paidAt: new Date("2026-11-24T11:00:00Z") }),
          charge({ chargeId: "ch_b", sessionId: "ps_b", paidAt: new Date("2026-11-24T11:00:01Z") }),
        ],
        liveSessions: [session("ps_a"), session("ps_b")],
      },
      "ch_b",
      owe("paid_twice"),
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
            money: captured(),
          }),
        ],
      },
      "ch_a",
      owe("paid_twice"),
    ],
    [
      "lets a charge paid in full be the payment while an underpaid sibling is held",
      {
        charges: [
          charge({ chargeId: "ch_a", money: underpaid(5_000) }),
          charge({ chargeId: "ch_b", sessionId: "ps_b", paidAt: new Date("2026-11-24T11:30:00Z") }),
        ],
        liveSessions: [session("ps_b")],
      },
      "ch_b",
      { kind: "capture", sessionId: "ps_b", adopted: false, amountCents: 10_000 },
    ],
    [
      "adopts a replaced code onto its own session when Medusa restated that session and it took a new code",
      {
        charges: [
          charge({ superseded: true }),
          charge({ chargeId: "ch_b", status: "pending", money: unpaid, paidAt: null }),
        ],
        liveSessions: [session("ps_a")],
      },
      "ch_a",
      { kind: "capture", sessionId: "ps_a", adopted: true, amountCents: 10_000 },
    ],
    [
      "adopts a replaced code paid for the cart's current amount onto the live session of ours",
      { charges: [charge({ superseded: true })], liveSessions: [session("ps_new")] },
      "ch_a",
      { kind: "capture", sessionId: "ps_new", adopted: true, amountCents: 10_000 },
    ],
    [
      "lets the live boleto pay the cart though a replaced Pix was paid before it: money no session can take pays nothing before another code, whichever is decided first",
      {
        charges: [
          charge({ superseded: true }),
          charge({
            chargeId: "ch_b",
            sessionId: "ps_b",
            providerId: "pp_boleto_a",
            paidAt: new Date("2026-11-24T11:30:00Z"),
          }),
        ],
        liveSessions: [session("ps_b", 10_000, "pp_boleto_a")],
      },
      "ch_b",
      { kind: "capture", sessionId: "ps_b", adopted: false, amountCents: 10_000 },
    ],
    [
      "never adopts onto another provider's session of the same amount: the code's money is owed back",
      {
        charges: [charge({ superseded: true })],
        liveSessions: [session("ps_card", 10_000, "pp_stripe")],
      },
      "ch_a",
      owe("paid_replaced"),
    ],
    [
      "owes back a code paid after the cart was paid with another provider (its payment authorized)",
      {
        charges: [charge({ superseded: true })],
        liveSessions: [session("ps_card", 10_000, "pp_stripe")],
        payments: [payment({ sessionId: "ps_card", ours: false })],
        order: { id: "o", status: "pending", canceledAt: null },
      },
      "ch_a",
      owe("paid_elsewhere"),
    ],
    [
      "owes back a code whose own session is live when the merchant marked the order paid (a captured payment of no charge)",
      { payments: [payment({ sessionId: "ps_manual", ours: false, captured: true })] },
      "ch_a",
      owe("paid_elsewhere"),
    ],
    [
      "is not paid elsewhere by another provider's canceled payment",
      { payments: [payment({ sessionId: "ps_card", ours: false, canceled: true })] },
      "ch_a",
      { kind: "capture", sessionId: "ps_a", adopted: false, amountCents: 10_000 },
    ],
    [
      "adopts a paid code whose session Medusa deleted without superseding it",
      { liveSessions: [session("ps_new")] },
      "ch_a",
      { kind: "capture", sessionId: "ps_new", adopted: true, amountCents: 10_000 },
    ],
    [
      "makes a replaced code paid for an old amount owed back",
      {
        charges: [charge({ superseded: true })],
        liveSessions: [session("ps_new", 12_000)],
        asksCents: 12_000,
      },
      "ch_a",
      owe("paid_old_amount"),
    ],
    [
      "captures an adopted charge on the session that adopted it",
      { charges: [charge({ captureSessionId: "ps_new" })], liveSessions: [] },
      "ch_a",
      { kind: "capture", sessionId: "ps_new", adopted: false, amountCents: 10_000 },
    ],
    [
      "captures on its own session once the order holds its payment (sessions of a completed cart)",
      { liveSessions: [], payments: [payment({ sessionId: "ps_a" })] },
      "ch_a",
      { kind: "capture", sessionId: "ps_a", adopted: false, amountCents: 10_000 },
    ],
    [
      "records first a capture Medusa already holds (a door died before recording it), whatever came after",
      {
        payments: [payment({ sessionId: "ps_a", captured: true })],
        order: { id: "o", status: "canceled", canceledAt: new Date("2026-11-24T11:30:00Z") },
      },
      "ch_a",
      { kind: "capture", sessionId: "ps_a", adopted: false, amountCents: 10_000 },
    ],
    [
      "owes back a payment that arrived after its order was canceled",
      { order: { id: "o", status: "canceled", canceledAt: new Date("2026-11-24T10:00:00Z") } },
      "ch_a",
      owe("paid_after_order_canceled"),
    ],
    [
      "owes back captured money whose order was canceled after the capture",
      {
        charges: [charge({ money: captured(), capturedAt: new Date("2026-11-24T11:00:00Z") })],
        order: { id: "o", status: "canceled", canceledAt: new Date("2026-11-24T11:30:00Z") },
      },
      "ch_a",
      owe("order_canceled", 10_000, "captured"),
    ],
    [
      "completes the cart of captured money that is no order yet",
      {
        charges: [
          charge({
            money: captured(),
            capturedAt: NOW,
            cartCompletion: { failures: 2, lastMessage: "x" },
          }),
        ],
      },
      "ch_a",
      { kind: "complete_cart", cartId: "cart_1" },
    ],
    [
      "captures a code of an order's own collection (an order edit's difference) on its session",
      { cartId: null, order: { id: "o", status: "pending", canceledAt: null } },
      "ch_a",
      { kind: "capture", sessionId: "ps_a", adopted: false, amountCents: 10_000 },
    ],
    [
      "captures what a code of an order's collection paid once the collection asks more (the edit raised the difference), and leaves the rest asked",
      {
        cartId: null,
        order: { id: "o", status: "pending", canceledAt: null },
        asksCents: 12_000,
      },
      "ch_a",
      { kind: "capture", sessionId: "ps_a", adopted: false, amountCents: 10_000 },
    ],
    [
      "adopts a replaced code of an order's collection only while the collection asks its amount again",
      {
        cartId: null,
        order: { id: "o", status: "pending", canceledAt: null },
        charges: [charge({ superseded: true })],
        liveSessions: [session("ps_new")],
      },
      "ch_a",
      { kind: "capture", sessionId: "ps_new", adopted: true, amountCents: 10_000 },
    ],
    [
      "never adopts onto a live session of the old amount once the collection asks another",
      {
        cartId: null,
        order: { id: "o", status: "pending", canceledAt: null },
        charges: [charge({ superseded: true })],
        liveSessions: [session("ps_new")],
        asksCents: 12_000,
      },
      "ch_a",
      owe("paid_old_amount"),
    ],
    [
      "makes the second code of an order's collection paid in full owed back",
      {
        cartId: null,
        order: { id: "o", status: "pending", canceledAt: null },
        charges: [
          charge({ chargeId: "ch_a", money: captured(), capturedAt: NOW }),
          charge({ chargeId: "ch_b", sessionId: "ps_b", paidAt: new Date("2026-11-24T11:30:00Z") }),
        ],
        liveSessions: [session("ps_b")],
      },
      "ch_b",
      owe("paid_twice"),
    ],
    [
      "owes back a code paid after Medusa canceled its collection",
      { cartId: null, order: { id: "o", status: "pending", canceledAt: null }, asksCents: null },
      "ch_a",
      owe("collection_canceled"),
    ],
    [
      "reads a cart's code by its session alone: Medusa deletes a cart's sessions when its total moves",
      { asksCents: 9_999 },
      "ch_a",
      { kind: "capture", sessionId: "ps_a", adopted: false, amountCents: 10_000 },
    ],
    [
      "owes back a code of a collection nothing owns any more (the merchant deleted it)",
      { cartId: null, order: null, asksCents: null },
      "ch_a",
      owe("collection_canceled"),
    ],
    [
      "owes back a code paid after the merchant marked the order's collection paid",
      {
        cartId: null,
        order: { id: "o", status: "pending", canceledAt: null },
        payments: [payment({ sessionId: "ps_manual", ours: false, captured: true })],
      },
      "ch_a",
      owe("paid_elsewhere"),
    ],
    [
      "owes back captured money whose cart kept failing for its stock, and closes the session",
      {
        charges: [
          charge({
            money: captured(),
            capturedAt: NOW,
            cartCompletion: { failures: 5, lastMessage: "Insufficient inventory" },
          }),
        ],
      },
      "ch_a",
      { ...owe("out_of_stock", 10_000, "captured"), closeSession: "ps_a" },
    ],
    // An order's life: Medusa rewrites an unpaid order's collection under live codes.
    [
      "captures what an order edited down still asks of its order-first code, and owes the rest back",
      { order: placed, asksCents: 5_000 },
      "ch_a",
      {
        kind: "capture",
        sessionId: "ps_a",
        adopted: false,
        amountCents: 5_000,
        excessCents: 5_000,
        partOfSession: true,
      },
    ],
    [
      "captures all an order-first code paid when the order was edited up, leaving the rest asked",
      { order: placed, asksCents: 15_000 },
      "ch_a",
      { kind: "capture", sessionId: "ps_a", adopted: false, amountCents: 10_000 },
    ],
    [
      "captures a code made for what a partly paid collection still asks, on its session of the whole",
      {
        cartId: null,
        order: placed,
        asksCents: 15_000,
        charges: [
          charge({ chargeId: "ch_a", money: captured(), capturedAt: NOW }),
          charge({
            chargeId: "ch_b",
            sessionId: "ps_b",
            amountCents: 5_000,
            money: awaiting(5_000),
            paidAt: new Date("2026-11-24T11:30:00Z"),
          }),
        ],
        liveSessions: [session("ps_a"), session("ps_b", 15_000)],
        payments: [recordedPayment("ps_a")],
      },
      "ch_b",
      {
        kind: "capture",
        sessionId: "ps_b",
        adopted: false,
        amountCents: 5_000,
        partOfSession: true,
      },
    ],
    [
      "owes back a code of a collection whose earlier code was captured and refunded: money returned still paid it once",
      {
        order: placed,
        charges: [
          charge({
            chargeId: "ch_c1",
            sessionId: "ps_c1",
            money: { ...captured(), captured: 0, returned: 10_000 },
            everCapturedCents: 10_000,
            capturedAt: NOW,
          }),
          charge({
            chargeId: "ch_b1",
            sessionId: "ps_b1",
            superseded: true,
            providerId: "pp_boleto_a",
          }),
        ],
        liveSessions: [session("ps_c1")],
        payments: [recordedPayment("ps_c1")],
      },
      "ch_b1",
      owe("paid_twice"),
    ],
    [
      "captures a new code of a cart whose earlier code's captured money was owed back (out_of_stock): that money no longer pays the cart",
      {
        charges: [
          charge({
            chargeId: "ch_c1",
            sessionId: "ps_c1",
            money: owed(10_000, "out_of_stock"),
            everCapturedCents: 10_000,
            capturedAt: NOW,
          }),
          charge({ chargeId: "ch_b1", sessionId: "ps_b1", paidAt: NOW }),
        ],
        liveSessions: [session("ps_b1")],
        payments: [recordedPayment("ps_c1")],
      },
      "ch_b1",
      { kind: "capture", sessionId: "ps_b1", adopted: false, amountCents: 10_000 },
    ],
    [
      "captures a new code of a cart whose earlier code's money, owed back as no order came of it, the merchant returned since",
      {
        charges: [
          charge({
            chargeId: "ch_c1",
            sessionId: "ps_c1",
            money: { ...owed(10_000, null), owed: 0, returned: 10_000 },
            everCapturedCents: 10_000,
            capturedAt: NOW,
          }),
          charge({ chargeId: "ch_b1", sessionId: "ps_b1", paidAt: NOW }),
        ],
        liveSessions: [session("ps_b1")],
        payments: [recordedPayment("ps_c1")],
      },
      "ch_b1",
      { kind: "capture", sessionId: "ps_b1", adopted: false, amountCents: 10_000 },
    ],
    [
      "owes back a second code of a cart whose first code's money is captured and waits for its order",
      {
        charges: [
          charge({
            chargeId: "ch_c1",
            sessionId: "ps_c1",
            money: captured(),
            capturedAt: NOW,
            cartCompletion: { failures: 1, lastMessage: "timeout" },
          }),
          charge({ chargeId: "ch_b1", sessionId: "ps_b1", paidAt: NOW }),
        ],
        liveSessions: [session("ps_b1")],
        payments: [recordedPayment("ps_c1")],
      },
      "ch_b1",
      owe("paid_twice"),
    ],
    [
      "is not captured by a capture of its session the ledger already names for another charge",
      {
        order: placed,
        charges: [
          charge({ captureSessionId: "ps_c1" }),
          charge({
            chargeId: "ch_c1",
            sessionId: "ps_c1",
            money: { ...captured(), captured: 0, returned: 10_000 },
            everCapturedCents: 10_000,
          }),
        ],
        payments: [recordedPayment("ps_c1")],
      },
      "ch_a",
      owe("paid_twice"),
    ],
    [
      "never adopts onto a session whose Medusa payment stands (authorized at cart completion)",
      {
        charges: [charge({ superseded: true })],
        liveSessions: [session("ps_new")],
        payments: [payment({ sessionId: "ps_new" })],
      },
      "ch_a",
      owe("paid_replaced"),
    ],
    [
      "never adopts onto a live session of another account's provider, whatever it asks",
      {
        charges: [charge({ superseded: true })],
        liveSessions: [session("ps_b", 10_000, "pp_pix_b")],
      },
      "ch_a",
      owe("paid_replaced"),
    ],
    [
      "never adopts onto the other method's session: the money came by another provider",
      {
        charges: [charge({ superseded: true, providerId: "pp_boleto_a" })],
        liveSessions: [session("ps_new")],
      },
      "ch_a",
      owe("paid_replaced"),
    ],
    [
      "adopts a replaced code that paid more than the cheaper cart now costs: captures what it asks, owes the difference",
      {
        charges: [charge({ superseded: true, amountCents: 20_945, money: awaiting(20_945) })],
        liveSessions: [session("ps_new", 19_455)],
        asksCents: 19_455,
      },
      "ch_a",
      {
        kind: "capture",
        sessionId: "ps_new",
        adopted: true,
        amountCents: 19_455,
        excessCents: 1_490,
      },
    ],
    [
      "owes back a replaced code that paid less than the cart now costs",
      {
        charges: [charge({ superseded: true })],
        liveSessions: [session("ps_new", 10_001)],
        asksCents: 10_001,
      },
      "ch_a",
      owe("paid_old_amount"),
    ],
    [
      "owes back a second code of a cart still shopping even when the first paid less (accepted): one code pays a cart",
      {
        charges: [
          charge({ chargeId: "ch_a", money: { ...underpaid(9_000), heldReason: "accepted" } }),
          charge({ chargeId: "ch_b", sessionId: "ps_b", paidAt: new Date("2026-11-24T11:30:00Z") }),
        ],
        liveSessions: [session("ps_a"), session("ps_b")],
      },
      "ch_b",
      owe("paid_twice"),
    ],
    [
      "waits for a capture in flight instead of owing its money back from under it",
      {
        charges: [charge({ captureClaimed: true })],
        order: { id: "o", status: "canceled", canceledAt: new Date("2026-11-24T10:00:00Z") },
      },
      "ch_a",
      { kind: "nothing", why: "another process is capturing it" },
    ],
    [
      "owes back captured money beside another provider's standing payment (a session swap raced the payment)",
      {
        charges: [charge({ money: captured(), capturedAt: NOW })],
        order: placed,
        payments: [recordedPayment("ps_a"), payment({ sessionId: "ps_card", ours: false })],
      },
      "ch_a",
      owe("paid_elsewhere", 10_000, "captured"),
    ],
    [
      "keeps captured money beside another provider's canceled payment",
      {
        charges: [charge({ money: captured(), capturedAt: NOW })],
        order: placed,
        payments: [
          recordedPayment("ps_a"),
          payment({ sessionId: "ps_card", ours: false, canceled: true }),
        ],
      },
      "ch_a",
      { kind: "nothing", why: "already captured" },
    ],
    // Which charge is the collection's payment when several paid.
    [
      "makes the code paid first by the API's clock the payment, whatever its id or place in the list",
      {
        charges: [
          charge({ chargeId: "ch_a", paidAt: new Date("2026-11-24T11:30:00Z") }),
          charge({ chargeId: "ch_b", sessionId: "ps_b", paidAt: new Date("2026-11-24T11:00:00Z") }),
        ],
        liveSessions: [session("ps_a"), session("ps_b")],
      },
      "ch_a",
      owe("paid_twice"),
    ],
    [
      "keeps a code whose capture is in flight the payment even if another was paid earlier by the API's clock",
      {
        charges: [
          charge({ chargeId: "ch_a", paidAt: new Date("2026-11-24T11:00:00Z") }),
          charge({
            chargeId: "ch_b",
            sessionId: "ps_b",
            paidAt: new Date("2026-11-24T11:30:00Z"),
            captureClaimed: true,
          }),
        ],
        liveSessions: [session("ps_a"), session("ps_b")],
      },
      "ch_a",
      owe("paid_twice"),
    ],
    [
      "captures a code whose capture is claimed: the claim's holder asks, and captures",
      { charges: [charge({ captureClaimed: true })] },
      "ch_a",
      { kind: "capture", sessionId: "ps_a", adopted: false, amountCents: 10_000 },
    ],
    [
      "captures only what an order edited up still asks of a second code that paid more, and owes the rest back",
      {
        cartId: null,
        order: placed,
        asksCents: 15_000,
        charges: [
          charge({ chargeId: "ch_a", money: captured(), capturedAt: NOW }),
          charge({ chargeId: "ch_b", sessionId: "ps_b", paidAt: new Date("2026-11-24T11:30:00Z") }),
        ],
        liveSessions: [session("ps_a"), session("ps_b")],
        payments: [recordedPayment("ps_a")],
      },
      "ch_b",
      {
        kind: "capture",
        sessionId: "ps_b",
        adopted: false,
        amountCents: 5_000,
        excessCents: 5_000,
        partOfSession: true,
      },
    ],
    [
      "captures the rest of an order edited up on a session of just that rest, with nothing to restate",
      {
        cartId: null,
        order: placed,
        asksCents: 15_000,
        charges: [
          charge({ chargeId: "ch_a", money: captured(), capturedAt: NOW }),
          charge({
            chargeId: "ch_b",
            sessionId: "ps_b",
            amountCents: 5_000,
            money: awaiting(5_000),
            paidAt: new Date("2026-11-24T11:30:00Z"),
          }),
        ],
        liveSessions: [session("ps_a"), session("ps_b", 5_000)],
        payments: [recordedPayment("ps_a")],
      },
      "ch_b",
      { kind: "capture", sessionId: "ps_b", adopted: false, amountCents: 5_000 },
    ],
    [
      "captures an accepted amount on its session still at the code's amount, restating the session first",
      { charges: [charge({ money: { ...underpaid(9_000), heldReason: "accepted" } })] },
      "ch_a",
      {
        kind: "capture",
        sessionId: "ps_a",
        adopted: false,
        amountCents: 9_000,
        partOfSession: true,
      },
    ],
    [
      "adopts onto the live session, not its own, once Medusa canceled its own session's payment",
      {
        liveSessions: [session("ps_new")],
        payments: [payment({ sessionId: "ps_a", canceled: true })],
      },
      "ch_a",
      { kind: "capture", sessionId: "ps_new", adopted: true, amountCents: 10_000 },
    ],
    [
      "never adopts onto a live session that asks less than the collection now does (an order edited up): it could not capture it all",
      {
        cartId: null,
        order: placed,
        asksCents: 12_000,
        charges: [charge({ superseded: true, amountCents: 15_000, money: awaiting(15_000) })],
        liveSessions: [session("ps_new", 10_000)],
      },
      "ch_a",
      owe("paid_replaced", 15_000),
    ],
    [
      "owes back a replaced code as paid for an old amount when the cart has no session to take it (its total moved, no new way to pay chosen yet)",
      { charges: [charge({ superseded: true })], liveSessions: [], asksCents: 9_000 },
      "ch_a",
      owe("paid_old_amount"),
    ],
    [
      "records first a capture of its session Medusa holds that no ledger entry names, beside one an entry names, whatever came after",
      {
        payments: [
          payment({
            sessionId: "ps_a",
            captured: true,
            captures: [
              { id: "cap_1", cents: 5_000, recorded: true },
              { id: "cap_2", cents: 10_000, recorded: false },
            ],
          }),
        ],
        order: { id: "o", status: "canceled", canceledAt: new Date("2026-11-24T11:30:00Z") },
      },
      "ch_a",
      { kind: "capture", sessionId: "ps_a", adopted: false, amountCents: 10_000 },
    ],
    [
      "owes back an older Pix paid after the order was placed on a boleto: its session is gone, and the order's payment is the boleto's",
      {
        charges: [
          charge(),
          charge({
            chargeId: "ch_b",
            sessionId: "ps_b",
            providerId: "pp_boleto_a",
            status: "pending",
            money: unpaid,
            paidAt: null,
          }),
        ],
        liveSessions: [session("ps_b", 10_000, "pp_boleto_a")],
        payments: [payment({ sessionId: "ps_b" })],
        order: placed,
      },
      "ch_a",
      owe("paid_replaced"),
    ],
    // Captured money and its order.
    [
      "owes back captured money whose order was canceled before the capture landed",
      {
        charges: [charge({ money: captured(), capturedAt: new Date("2026-11-24T11:30:00Z") })],
        order: { id: "o", status: "canceled", canceledAt: new Date("2026-11-24T11:00:00Z") },
      },
      "ch_a",
      owe("paid_after_order_canceled", 10_000, "captured"),
    ],
    [
      "reads captured money and an order canceled at the same instant as paid after the cancel",
      {
        charges: [charge({ money: captured(), capturedAt: new Date("2026-11-24T11:30:00Z") })],
        order: { id: "o", status: "canceled", canceledAt: new Date("2026-11-24T11:30:00Z") },
      },
      "ch_a",
      owe("paid_after_order_canceled", 10_000, "captured"),
    ],
    [
      "does nothing more for captured money whose cart became an order, whatever failed completions came before",
      {
        charges: [
          charge({
            money: captured(),
            capturedAt: NOW,
            cartCompletion: { failures: 5, lastMessage: "Insufficient inventory" },
          }),
        ],
        order: placed,
      },
      "ch_a",
      { kind: "nothing", why: "already captured" },
    ],
    [
      "owes back captured money whose cart kept failing for another reason (cart_not_completed), and closes the session it was captured on",
      {
        charges: [
          charge({
            captureSessionId: "ps_new",
            money: captured(),
            capturedAt: NOW,
            cartCompletion: { failures: 5, lastMessage: "Shipping method is not available" },
          }),
        ],
      },
      "ch_a",
      { ...owe("cart_not_completed", 10_000, "captured"), closeSession: "ps_new" },
    ],
    [
      "tries once more to complete the cart of captured money short of the last attempt",
      {
        charges: [
          charge({
            money: captured(),
            capturedAt: NOW,
            cartCompletion: { failures: 4, lastMessage: "Insufficient inventory" },
          }),
        ],
      },
      "ch_a",
      { kind: "complete_cart", cartId: "cart_1" },
    ],
    // What a delivery is told when nothing is left to decide.
    [
      "says a charge whose money was all returned to the shopper is refunded",
      {
        charges: [charge({ money: { ...owed(10_000, null), owed: 0, returned: 10_000 } })],
      },
      "ch_a",
      { kind: "nothing", why: "refunded" },
    ],
    [
      "leaves money a MED blocked where it is, captured in Medusa, until the merchant's outcome",
      {
        order: placed,
        charges: [charge({ money: { ...captured(), captured: 0, contested: 10_000 } })],
      },
      "ch_a",
      { kind: "nothing", why: "already captured" },
    ],
    [
      "does nothing for a charge that is not one of the collection's",
      {},
      "ch_other",
      { kind: "nothing", why: "not a charge of this collection" },
    ],
  ];
  it.each(cases)("%s", (_name, over, chargeId, expected) => {
    expect(decide(snapshot(over), chargeId)).toEqual(expected);
  });
});

describe("decide: what an ended charge does to its order", () => {
  const order = { id: "order_1", status: "pending", canceledAt: null };
  const ended = (over: Partial<ChargeFacts> = {}) =>
    charge({ status: "expired", money: unpaid, paidAt: null, ...over });
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
        charges: [ended(), charge({ chargeId: "ch_b", sessionId: "ps_b", money: underpaid(1) })],
        order,
      },
      { kind: "nothing", why: "the collection holds a payment" },
    ],
    [
      "never ends an order while a MED blocks a sibling's captured money (Medusa still holds it)",
      {
        charges: [
          ended(),
          charge({
            chargeId: "ch_b",
            sessionId: "ps_b",
            money: { ...captured(), captured: 0, contested: 10_000 },
          }),
        ],
        order,
      },
      { kind: "nothing", why: "the collection holds a payment" },
    ],
    [
      "ends the order even if a sibling's money is owed back",
      {
        charges: [
          ended(),
          charge({ chargeId: "ch_b", sessionId: "ps_b", money: owed(10_000, "paid_twice") }),
        ],
        order,
      },
      { kind: "end_order", orderId: "order_1" },
    ],
    [
      "never ends an order another provider's payment stands behind",
      { charges: [ended()], order, payments: [payment({ sessionId: "ps_card", ours: false })] },
      { kind: "cancel_session" },
    ],
    [
      "does nothing for a replaced code that expired",
      { charges: [ended({ superseded: true })], order },
      { kind: "nothing", why: "a replaced code ended" },
    ],
    [
      "looks again at a replaced boleto inside its grace period (its bank may still confirm it)",
      {
        charges: [ended({ superseded: true, orderHoldUntil: new Date("2026-11-27T03:00:00Z") })],
        order,
      },
      { kind: "recheck", at: new Date("2026-11-25T12:00:00Z") },
    ],
    [
      "looks again at an expired boleto inside its grace period when the cart is paid another way",
      {
        charges: [
          ended({ orderHoldUntil: new Date("2026-11-27T03:00:00Z") }),
          charge({ chargeId: "ch_b", sessionId: "ps_b", money: captured() }),
        ],
        order,
      },
      { kind: "recheck", at: new Date("2026-11-25T12:00:00Z") },
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
      { charges: [ended()], order, payments: [payment({ sessionId: "ps_other" })] },
      { kind: "cancel_session" },
    ],
    [
      "never ends the order of an order's own collection (an edit's difference, a converted draft): only its code is closed",
      { charges: [ended()], order, cartId: null },
      { kind: "cancel_session" },
    ],
    [
      "never ends it either when its boleto's grace period is over",
      {
        charges: [ended({ orderHoldUntil: new Date("2026-11-24T03:00:00Z") })],
        order,
        cartId: null,
      },
      { kind: "cancel_session" },
    ],
    [
      "ends the order whose Medusa payment is this session's (authorized at completion)",
      { charges: [ended()], order, payments: [payment({ sessionId: "ps_a" })] },
      { kind: "end_order", orderId: "order_1" },
    ],
    [
      "ends the order whose only other Medusa payment was canceled",
      {
        charges: [ended()],
        order,
        payments: [payment({ sessionId: "ps_other", canceled: true })],
      },
      { kind: "end_order", orderId: "order_1" },
    ],
    [
      "ends the order that waits on this session among several payments Medusa made",
      {
        charges: [ended()],
        order,
        payments: [payment({ sessionId: "ps_other" }), payment({ sessionId: "ps_a" })],
      },
      { kind: "end_order", orderId: "order_1" },
    ],
    [
      "never ends an order whose payment Medusa holds captured (the merchant marked it paid)",
      { charges: [ended()], order, payments: [payment({ sessionId: "ps_a", captured: true })] },
      { kind: "cancel_session" },
    ],
    [
      "never ends an order whose cart another code paid and Medusa captured",
      {
        charges: [ended(), charge({ chargeId: "ch_b", sessionId: "ps_b", money: captured() })],
        order,
      },
      { kind: "nothing", why: "the collection holds a payment" },
    ],
    [
      "leaves an order already canceled as it is: only the session is closed",
      {
        charges: [ended()],
        order: { id: "order_1", status: "canceled", canceledAt: new Date("2026-11-24T11:00:00Z") },
      },
      { kind: "cancel_session" },
    ],
    [
      "ends the order of a failed code at once, grace period or not: a failed code is never paid",
      {
        charges: [ended({ status: "failed", orderHoldUntil: new Date("2026-11-27T03:00:00Z") })],
        order,
      },
      { kind: "end_order", orderId: "order_1" },
    ],
    [
      "ends the order at the very instant its boleto's grace period ends",
      { charges: [ended({ orderHoldUntil: NOW })], order },
      { kind: "end_order", orderId: "order_1" },
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
  it("counts captured money and money held for Medusa's capture, nothing else", () => {
    expect(countsAsPayment({ status: "paid", money: awaiting() })).toBe(true);
    expect(countsAsPayment({ status: "paid", money: captured() })).toBe(true);
    expect(
      countsAsPayment({ status: "paid", money: { ...underpaid(10), heldReason: "accepted" } }),
    ).toBe(true);
    expect(countsAsPayment({ status: "paid", money: underpaid(9_000) })).toBe(false);
    expect(countsAsPayment({ status: "paid", money: owed(10_000, "paid_twice") })).toBe(false);
    expect(countsAsPayment({ status: "expired", money: unpaid })).toBe(false);
  });
});

describe("collectionPaidBy: whether a collection is paid, and how", () => {
  const pending = () => charge({ status: "pending", money: unpaid, paidAt: null });

  it("is paid by a charge that counts as the payment", () => {
    const paid = charge({ chargeId: "ch_b", sessionId: "ps_b", money: captured() });
    expect(collectionPaidBy([pending(), paid], [], 10_000, "order")).toEqual({
      by: "charge",
      charge: paid,
    });
  });

  it("is not paid while its charges paid less than it asks (an order edited up), and is once they paid it all", () => {
    const first = charge({ money: captured() });
    expect(collectionPaidBy([first], [], 15_000, "order")).toBeNull();
    const rest = charge({
      chargeId: "ch_b",
      sessionId: "ps_b",
      amountCents: 5_000,
      money: awaiting(5_000),
    });
    expect(collectionPaidBy([first, rest], [], 15_000, "order")).toEqual({
      by: "charge",
      charge: first,
    });
  });

  it("stays paid by a charge whose captured money was returned since", () => {
    const refunded = charge({
      money: { ...captured(), captured: 0, returned: 10_000 },
      everCapturedCents: 10_000,
    });
    expect(collectionPaidBy([refunded], [], 10_000, "order")).toEqual({
      by: "charge",
      charge: refunded,
    });
  });

  it("is not paid, while its cart is no order, by captured money owed back since (out_of_stock): the card may take it", () => {
    const owedBack = charge({ money: owed(10_000, "out_of_stock"), everCapturedCents: 10_000 });
    expect(collectionPaidBy([owedBack], [recordedPayment("ps_a")], 10_000, "cart")).toBeNull();
    const returned = charge({
      money: { ...owed(10_000, null), owed: 0, returned: 10_000 },
      everCapturedCents: 10_000,
    });
    expect(collectionPaidBy([returned], [recordedPayment("ps_a")], 10_000, "cart")).toBeNull();
    const waiting = charge({ money: captured() });
    expect(collectionPaidBy([waiting], [recordedPayment("ps_a")], 10_000, "cart")).toEqual({
      by: "charge",
      charge: waiting,
    });
  });

  it("is not paid by a charge held for the merchant or owed back", () => {
    const held = charge({ money: underpaid(9_000) });
    const refund = charge({ chargeId: "ch_b", sessionId: "ps_b", money: owed(1, "paid_twice") });
    expect(
      collectionPaidBy([held, refund], [payment({ sessionId: "ps_a" })], 10_000, "order"),
    ).toBeNull();
  });

  it("is paid another way by another provider's payment, or a captured payment of a session none of its charges had", () => {
    expect(
      collectionPaidBy(
        [pending()],
        [payment({ sessionId: "ps_card", ours: false })],
        10_000,
        "order",
      ),
    ).toEqual({ by: "elsewhere" });
    expect(
      collectionPaidBy(
        [pending()],
        [payment({ sessionId: "ps_x", captured: true })],
        10_000,
        "order",
      ),
    ).toEqual({ by: "elsewhere" });
  });

  it("is not paid by its own code's authorized payment (an order-first boleto) nor by one adopted from an older session", () => {
    const adopted = charge({
      status: "pending",
      money: unpaid,
      sessionId: "ps_new",
      captureSessionId: "ps_old",
    });
    expect(
      collectionPaidBy(
        [adopted],
        [payment({ sessionId: "ps_new" }), payment({ sessionId: "ps_old" })],
        10_000,
        "order",
      ),
    ).toBeNull();
  });
  it("is not paid by codes that never paid, even once it asks nothing (Medusa canceled it)", () => {
    expect(collectionPaidBy([pending()], [], null, "order")).toBeNull();
    const paid = charge({ chargeId: "ch_b", sessionId: "ps_b", money: captured() });
    expect(collectionPaidBy([pending(), paid], [], null, "order")).toEqual({
      by: "charge",
      charge: paid,
    });
  });

  it("is not paid another way by the capture of the session an older code was adopted by (an order edited up, the rest still asked)", () => {
    const adopted = charge({ sessionId: "ps_old", captureSessionId: "ps_new", money: captured() });
    expect(collectionPaidBy([adopted], [recordedPayment("ps_new")], 15_000, "order")).toBeNull();
  });
});

describe("coverageOf: what a collection's charges paid of what it asks", () => {
  it("counts money captured (returned since or not) and money held for the capture, and leaves the rest", () => {
    const charges = [
      charge({
        money: { ...captured(3_000), captured: 0, returned: 3_000 },
        everCapturedCents: 3_000,
      }),
      charge({ chargeId: "ch_b", money: awaiting(2_000) }),
      charge({ chargeId: "ch_c", money: underpaid(1_000) }),
      charge({ chargeId: "ch_d", status: "pending", money: unpaid }),
    ];
    expect(coverageOf(charges, 10_000, "order")).toEqual({
      paidCents: 5_000,
      remainingCents: 5_000,
    });
    expect(coverageOf(charges, 4_000, "order")).toEqual({ paidCents: 5_000, remainingCents: 0 });
    expect(coverageOf(charges, null, "order")).toEqual({ paidCents: 5_000, remainingCents: 0 });
  });

  it("counts, while the cart is no order, only its own money: captured now or held for the capture, not money owed back or returned since", () => {
    const charges = [
      charge({ money: owed(5_730, "out_of_stock"), everCapturedCents: 5_730 }),
      charge({
        chargeId: "ch_b",
        money: { ...owed(2_000, null), owed: 0, returned: 2_000 },
        everCapturedCents: 2_000,
      }),
      charge({
        chargeId: "ch_c",
        money: { ...captured(3_000), captured: 1_000, contested: 2_000 },
        everCapturedCents: 3_000,
      }),
      charge({ chargeId: "ch_d", money: awaiting(1_500) }),
    ];
    // The cart asks its whole total of a new code: R$ 57,30 owed back pays none of it.
    expect(coverageOf(charges, 9_480, "cart")).toEqual({ paidCents: 4_500, remainingCents: 4_980 });
    // The same money on an order still paid it once.
    expect(coverageOf(charges, 9_480, "order")).toEqual({ paidCents: 12_230, remainingCents: 0 });
  });
});

describe("decideFailedCreate: a create that failed after its cart became an order", () => {
  const cases: [string, Partial<CollectionSnapshot>, unknown][] = [
    [
      "ends the order-first order that waits on the session",
      { charges: [], order: placed },
      { kind: "end_order", orderId: "o" },
    ],
    [
      "keeps it for the merchant when cancelOrderOnExpiry is off",
      { charges: [], order: placed, cancelOrderOnExpiry: false },
      { kind: "keep_order", orderId: "o" },
    ],
    [
      "does nothing while no order waits on it (the cart never completed)",
      { charges: [] },
      { kind: "nothing", why: "no order waits on it" },
    ],
    [
      "does nothing while another code of the collection holds money",
      { charges: [charge({ sessionId: "ps_other" })], order: placed },
      { kind: "nothing", why: "the collection holds a payment" },
    ],
    [
      "does nothing while another code of the collection may still be paid",
      {
        charges: [
          charge({ sessionId: "ps_other", status: "pending", money: unpaid, paidAt: null }),
        ],
        order: placed,
      },
      { kind: "nothing", why: "another code of the collection may still be paid" },
    ],
    [
      "does nothing once the order's payment is another session's",
      { charges: [], order: placed, payments: [payment({ sessionId: "ps_card", ours: false })] },
      { kind: "nothing", why: "no order waits on it" },
    ],
    [
      "ends it although an older code of the collection expired unpaid",
      {
        charges: [
          charge({
            sessionId: "ps_old",
            status: "expired",
            money: unpaid,
            paidAt: null,
          }),
        ],
        order: placed,
      },
      { kind: "end_order", orderId: "o" },
    ],
    [
      "ends it although a replaced code of the collection is still payable: that code pays no order",
      {
        charges: [
          charge({
            sessionId: "ps_old",
            status: "pending",
            money: unpaid,
            paidAt: null,
            superseded: true,
          }),
        ],
        order: placed,
      },
      { kind: "end_order", orderId: "o" },
    ],
    [
      "never ends an order's own collection's order",
      { charges: [], order: placed, cartId: null },
      { kind: "nothing", why: "no order waits on it" },
    ],
  ];
  it.each(cases)("%s", (_name, over, expected) => {
    expect(decideFailedCreate(snapshot(over), "ps_failed")).toEqual(expected);
  });
});

describe("returnOf: which parts a merchant's refund returns", () => {
  const money = (over: Partial<ChargeMoney>): ChargeMoney => ({ ...unpaid, received: 0, ...over });
  it.each([
    [
      "owed money first, then the order's captured money",
      money({ received: 2_500, captured: 2_000, owed: 500, owedReason: "overpaid" }),
      700,
      0,
      {
        takes: [
          { from: "owed", amountCents: 500, inMedusa: false, why: "overpaid" },
          { from: "captured", amountCents: 200, inMedusa: true, why: null },
        ],
        medusaCents: 200,
        ledgerOnlyCents: 500,
      },
    ],
    [
      "owed money Medusa holds captured (an order canceled after its capture) is refunded in Medusa",
      money({ received: 3_800, owed: 3_800, owedReason: "order_canceled" }),
      3_800,
      3_800,
      {
        takes: [{ from: "owed", amountCents: 3_800, inMedusa: true, why: "order_canceled" }],
        medusaCents: 3_800,
        ledgerOnlyCents: 0,
      },
    ],
    [
      "of mixed owed money, the part Medusa never held goes first",
      money({ received: 2_500, owed: 2_500, owedReason: "order_canceled" }),
      600,
      2_000,
      {
        takes: [
          { from: "owed", amountCents: 500, inMedusa: false, why: "order_canceled" },
          { from: "owed", amountCents: 100, inMedusa: true, why: "order_canceled" },
        ],
        medusaCents: 100,
        ledgerOnlyCents: 500,
      },
    ],
    [
      "a replaced code's money, which Medusa never captured, is the ledger's only",
      money({ received: 20_945, owed: 20_945, owedReason: "paid_old_amount" }),
      20_945,
      0,
      {
        takes: [{ from: "owed", amountCents: 20_945, inMedusa: false, why: "paid_old_amount" }],
        medusaCents: 0,
        ledgerOnlyCents: 20_945,
      },
    ],
    [
      "money held for the merchant's decision can be returned",
      money({ received: 9_000, held: 9_000, heldReason: "underpaid" }),
      9_000,
      0,
      {
        takes: [{ from: "held", amountCents: 9_000, inMedusa: false, why: "underpaid" }],
        medusaCents: 0,
        ledgerOnlyCents: 9_000,
      },
    ],
  ])("%s", (_name, m, amount, owedInMedusa, expected) => {
    expect(returnOf(m, amount, owedInMedusa)).toEqual(expected);
  });

  it("never returns money Medusa's capture is taking, nor more than the charge holds", () => {
    expect(returnOf(awaiting(), 100, 0)).toBeUndefined();
    expect(returnOf(captured(), 10_001, 0)).toBeUndefined();
  });
});
