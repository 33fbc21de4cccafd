import { describe, expect, it } from "vitest";
import type { ChargeRow } from "../records/charges";
import { chargeRow as row } from "./__tests__/charge-row";
import type { Decision } from "./decide";
import {
  captureSessionOf,
  toSessionStatus,
  verdictOf,
  type DecidedCharge,
  type SessionAnswer,
} from "./session-answer";

const capturedRow = (over: Partial<ChargeRow> = {}) =>
  row({ held_cents: 0, held_reason: null, captured_cents: 10_000, ...over });
const capture = (sessionId: string, over: Partial<Decision> = {}): Decision =>
  ({ kind: "capture", sessionId, adopted: false, amountCents: 10_000, ...over }) as Decision;
/** The right to capture, as the provider's door takes it at cart completion. */
const claim = { medusa: false, holder: { door: "authorize", id: "ps_a" } };

const paidRow = row();
const adoptedRow = row({ charge_id: "ch_old", session_id: "ps_old", capture_session_id: "ps_a" });
const siblingRow = row({ charge_id: "ch_b", session_id: "ps_b" });
const pendingRow = row({
  status: "pending",
  received_cents: null,
  held_cents: 0,
  held_reason: null,
});

describe("verdictOf: what a Medusa payment session answers, from the decisions just recorded", () => {
  const cases: [
    string,
    {
      own: ChargeRow;
      decided: DecidedCharge[];
      authorizing: boolean;
    },
    SessionAnswer,
  ][] = [
    [
      "captured, showing the code paid, once the ledger holds the session's money captured",
      {
        own: capturedRow(),
        decided: [{ decision: { kind: "nothing", why: "already captured" }, row: capturedRow() }],
        authorizing: true,
      },
      { status: "captured", row: capturedRow(), shows: "paid" },
    ],
    [
      "captured while a MED blocks all of the session's money: Medusa still holds it captured",
      {
        own: capturedRow({ captured_cents: 0, contested_cents: 10_000 }),
        decided: [
          {
            decision: { kind: "nothing", why: "already captured" },
            row: capturedRow({ captured_cents: 0, contested_cents: 10_000 }),
          },
        ],
        authorizing: true,
      },
      {
        status: "captured",
        row: capturedRow({ captured_cents: 0, contested_cents: 10_000 }),
        shows: "paid",
      },
    ],
    [
      "captured for an older code's money captured on this session that adopted it",
      {
        own: pendingRow,
        decided: [
          {
            decision: { kind: "nothing", why: "already captured" },
            row: { ...adoptedRow, held_cents: 0, captured_cents: 10_000 },
          },
        ],
        authorizing: true,
      },
      {
        status: "captured",
        row: { ...adoptedRow, held_cents: 0, captured_cents: 10_000 },
        shows: "paid",
      },
    ],
    [
      "captured when a status read (not cart completion) finds the capture decided on this session",
      { own: paidRow, decided: [{ decision: capture("ps_a"), row: paidRow }], authorizing: false },
      { status: "captured", row: paidRow, shows: "paid" },
    ],
    [
      "captured at cart completion holding the right to capture: Medusa captures inside completion",
      {
        own: paidRow,
        decided: [{ decision: capture("ps_a"), row: paidRow, claim }],
        authorizing: true,
      },
      { status: "captured", row: paidRow, shows: "paid" },
    ],
    [
      "authorized at cart completion while another door (a webhook's capture) holds the right to capture: Medusa captures once",
      { own: paidRow, decided: [{ decision: capture("ps_a"), row: paidRow }], authorizing: true },
      { status: "authorized", row: paidRow, shows: "paid" },
    ],
    [
      "authorized, never captured, for a capture of less than the session asks (an accepted amount, an order edited down)",
      {
        own: paidRow,
        decided: [
          {
            decision: capture("ps_a", { amountCents: 5_000, partOfSession: true }),
            row: paidRow,
            claim,
          },
        ],
        authorizing: false,
      },
      { status: "authorized", row: paidRow, shows: "paid" },
    ],
    [
      "captured on the live session an older code's money is adopted by, showing that code",
      {
        own: pendingRow,
        decided: [
          {
            decision: capture("ps_a", { adopted: true }),
            row: row({ charge_id: "ch_old", session_id: "ps_old" }),
          },
        ],
        authorizing: false,
      },
      {
        status: "captured",
        row: row({ charge_id: "ch_old", session_id: "ps_old" }),
        shows: "paid",
      },
    ],
    [
      "pending_authorization, showing the money held, for a code paid short of what it asked: the order may wait for the merchant",
      {
        own: paidRow,
        decided: [
          {
            decision: { kind: "hold", reason: "underpaid" },
            row: row({ held_cents: 9_000, held_reason: "underpaid" }),
          },
        ],
        authorizing: true,
      },
      {
        status: "pending_authorization",
        row: row({ held_cents: 9_000, held_reason: "underpaid" }),
        shows: "held",
      },
    ],
    [
      "error, refund due, for a paid code that is not the collection's payment: the cart never completes on money owed back",
      {
        own: row({ held_cents: 0, owed_cents: 10_000, owed_reason: "paid_twice" }),
        decided: [
          {
            decision: { kind: "refund_due", reason: "paid_twice", from: "held", amountCents: 1 },
            row: row({ held_cents: 0, owed_cents: 10_000, owed_reason: "paid_twice" }),
          },
        ],
        authorizing: true,
      },
      {
        status: "error",
        row: row({ held_cents: 0, owed_cents: 10_000, owed_reason: "paid_twice" }),
        shows: "refund_due",
      },
    ],
    [
      "error, refund due, when the decision just owed captured money back, even while the row still shows some captured",
      {
        own: capturedRow({ captured_cents: 4_000, owed_cents: 6_000 }),
        decided: [
          {
            decision: {
              kind: "refund_due",
              reason: "order_canceled",
              from: "captured",
              amountCents: 6_000,
            },
            row: capturedRow({ captured_cents: 4_000, owed_cents: 6_000 }),
          },
        ],
        authorizing: true,
      },
      {
        status: "error",
        row: capturedRow({ captured_cents: 4_000, owed_cents: 6_000 }),
        shows: "refund_due",
      },
    ],
    [
      "reads nothing of another session's capture: a sibling code's payment does not pay this session",
      {
        own: pendingRow,
        decided: [
          { decision: capture("ps_b"), row: siblingRow, claim },
          { decision: { kind: "hold", reason: "underpaid" }, row: siblingRow },
          { decision: { kind: "nothing", why: "already captured" }, row: capturedRow(siblingRow) },
        ],
        authorizing: true,
      },
      { status: "pending_authorization", row: pendingRow },
    ],
    [
      "pending_authorization for an unpaid code: an order-first order may be placed for it",
      { own: pendingRow, decided: [], authorizing: true },
      { status: "pending_authorization", row: pendingRow },
    ],
    [
      "canceled for a code the plugin canceled",
      { own: row({ status: "canceled" }), decided: [], authorizing: false },
      { status: "canceled", row: row({ status: "canceled" }) },
    ],
    [
      "canceled for an expired code",
      { own: row({ status: "expired" }), decided: [], authorizing: false },
      { status: "canceled", row: row({ status: "expired" }) },
    ],
    [
      "error for a code the service failed",
      { own: row({ status: "failed" }), decided: [], authorizing: true },
      { status: "error", row: row({ status: "failed" }) },
    ],
  ];
  it.each(cases)("%s", (_name, { own, decided, authorizing }, expected) => {
    expect(verdictOf("ps_a", own, decided, authorizing)).toEqual(expected);
  });
});

describe("toSessionStatus: an API status as Medusa's session status", () => {
  it.each([
    ["paid", "captured"],
    ["pending", "pending_authorization"],
    ["expired", "canceled"],
    ["failed", "error"],
  ] as const)("maps API %s to Medusa %s", (api, medusa) => {
    expect(toSessionStatus(api)).toBe(medusa);
  });
});

describe("captureSessionOf: the session a paid charge is captured on", () => {
  it("is the session that adopted it, else its own", () => {
    expect(captureSessionOf(adoptedRow)).toBe("ps_a");
    expect(captureSessionOf(paidRow)).toBe("ps_a");
    expect(captureSessionOf(siblingRow)).toBe("ps_b");
  });
});
