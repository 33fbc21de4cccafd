import { describe, expect, it } from "vitest";
import { bankCalendar } from "@pix-checkout/client/bank-days";
import {
  decideMedOutcome,
  decideMedRecord,
  medDeadlineState,
  type MedCase,
  type MedPaymentFacts,
} from "./med-case";

// A Tuesday, noon in São Paulo.
const now = new Date("2026-12-01T15:00:00.000Z");

describe("where an open MED's deadline stands, in bank business days", () => {
  it.each([
    // today (São Paulo), deadline, state
    ["2026-12-01T15:00:00Z", "2026-12-10", "ok"], // 7 business days after Tuesday
    ["2026-12-01T15:00:00Z", "2026-12-04", "ok"], // Wed, Thu, Fri: 3
    ["2026-12-01T15:00:00Z", "2026-12-03", "near"], // Wed, Thu: 2, the deadline's day counted
    ["2026-12-01T15:00:00Z", "2026-12-01", "near"], // the day itself
    ["2026-12-01T15:00:00Z", "2026-11-30", "past"],
    // 23:30 in São Paulo is still the deadline's day there, though UTC is the next day.
    ["2026-12-02T02:30:00Z", "2026-12-01", "near"],
    // Thursday → Monday: Friday and Monday, the weekend not counted.
    ["2026-12-03T15:00:00Z", "2026-12-07", "near"],
    // Friday before Carnival 2027 → Ash Wednesday: Carnival Monday and Tuesday are bank
    // holidays, so five calendar days are one business day.
    ["2027-02-05T15:00:00Z", "2027-02-10", "near"],
  ])("at %s, a deadline of %s is %s", (at, deadline, state) => {
    expect(medDeadlineState(deadline, new Date(at))).toBe(state);
  });

  it("counts on the store's calendar: its own holiday makes a deadline three business days away near", () => {
    const closedThursday = bankCalendar({ extraHolidays: ["2026-12-03"] });
    expect(medDeadlineState("2026-12-04", new Date("2026-12-01T15:00:00Z"))).toBe("ok");
    expect(medDeadlineState("2026-12-04", new Date("2026-12-01T15:00:00Z"), closedThursday)).toBe(
      "near",
    );
  });
});

const settledPix: MedPaymentFacts = {
  method: "pix",
  state: "Settled",
  amountCents: 11_480,
  held: null,
  // An order made cheaper: R$ 20,00 and then R$ 29,90 owed back; R$ 10,00 already returned.
  refunds: [
    { id: 1, state: "Settled", cents: 1_000 },
    { id: 2, state: "Pending", cents: 2_000 },
    { id: 3, state: "Pending", cents: 2_990 },
  ],
  med: null,
};
const heldPix: MedPaymentFacts = {
  method: "pix",
  state: "Declined",
  amountCents: 11_480,
  held: { receivedCents: 9_000, returnedCents: 0 },
  refunds: [],
  med: null,
};
const input = { protocol: " MED-1 ", deadline: "2026-12-09", amountCents: 8_000 };

/** The refusal's code `work` throws, or "none". */
function refusalOf(work: () => unknown): string {
  try {
    work();
    return "none";
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

describe("Registrar MED", () => {
  it("blocks owed money first (the Pending refunds), then captured money", () => {
    expect(decideMedRecord(settledPix, input, now)).toEqual({
      protocol: "MED-1",
      deadline: "2026-12-09",
      blockedCents: 8_000,
      blockedOwedCents: 4_990,
      contestedCents: 3_010,
      openedAt: now.toISOString(),
      state: "open",
      returnedCents: null,
      decidedAt: null,
    });
  });

  it("a held code's block is all owed money: it captured nothing", () => {
    expect(decideMedRecord(heldPix, { ...input, amountCents: 9_000 }, now)).toMatchObject({
      blockedOwedCents: 9_000,
      contestedCents: 0,
    });
  });

  it("refuses what is not a MED, or not one this payment can have", () => {
    const refused = (facts: Partial<MedPaymentFacts>, over: Partial<typeof input> = {}) =>
      refusalOf(() => decideMedRecord({ ...settledPix, ...facts }, { ...input, ...over }, now));
    expect(refused({}, { protocol: "  " })).toBe("invalid_med");
    expect(refused({}, { protocol: "P".repeat(121) })).toBe("invalid_med");
    expect(refused({}, { deadline: "2026-02-30" })).toBe("invalid_med");
    expect(refused({}, { deadline: "09/12/2026" })).toBe("invalid_med");
    expect(refused({}, { amountCents: 0 })).toBe("invalid_med");
    expect(refused({}, { amountCents: 10.5 })).toBe("invalid_med");
    expect(refused({ method: "boleto" })).toBe("med_not_contestable");
    expect(refused({ state: "AwaitingPix", refunds: [] })).toBe("med_not_contestable");
    expect(refused({ state: "Cancelled", refunds: [] })).toBe("med_not_contestable");
    expect(refused({ ...heldPix, held: { receivedCents: 9_000, returnedCents: 9_000 } }, {})).toBe(
      "med_not_contestable",
    );
    // Owed 4 990 + captured 5 490 = 10 480: a cent more is more than the Pix holds.
    expect(refused({}, { amountCents: 10_480 })).toBe("none");
    expect(refused({}, { amountCents: 10_481 })).toBe("med_amount_exceeds_captured");
    const open = decideMedRecord(settledPix, input, now);
    expect(refused({ med: open })).toBe("med_already_open");
    // A decided case is no obstacle to the next.
    expect(refused({ med: { ...open, state: "kept" } })).toBe("none");
  });
});

describe("the institution's decision", () => {
  const open: MedCase = decideMedRecord(settledPix, input, now);
  const withCase = { ...settledPix, med: open };

  it("returned in part: the blocked refunds settled oldest first (one in part), then the contested money refunded on the order", () => {
    const decided = decideMedOutcome(withCase, { outcome: "returned", amountCents: 6_000 }, now);
    expect(decided).toMatchObject({
      med: { state: "returned", returnedCents: 6_000, decidedAt: now.toISOString() },
      split: { owedSettled: 4_990, owedSettledOnOrder: 4_990, refundedOnOrder: 1_010 },
      settleRefunds: [
        { refundId: 2, cents: 2_000, total: 2_000 },
        { refundId: 3, cents: 2_990, total: 2_990 },
      ],
      heldReturn: null,
      refundOnOrderCents: 1_010,
    });
    // Less than the owed part: the second refund settled in part.
    expect(
      decideMedOutcome(withCase, { outcome: "returned", amountCents: 3_000 }, now).settleRefunds,
    ).toEqual([
      { refundId: 2, cents: 2_000, total: 2_000 },
      { refundId: 3, cents: 1_000, total: 2_990 },
    ]);
  });

  it("returned with no amount: the whole block", () => {
    expect(
      decideMedOutcome(withCase, { outcome: "returned", amountCents: null }, now),
    ).toMatchObject({ med: { returnedCents: 8_000 }, refundOnOrderCents: 3_010 });
  });

  it("kept: nothing moves, the case closes", () => {
    expect(decideMedOutcome(withCase, { outcome: "kept", amountCents: null }, now)).toMatchObject({
      med: { state: "kept", returnedCents: null },
      split: { incomeAgain: 3_010, stillOwed: 4_990 },
      settleRefunds: [],
      heldReturn: null,
      refundOnOrderCents: 0,
    });
  });

  it("a held code: the MED's return is the code's return, closing it only when nothing is left", () => {
    const held = {
      ...heldPix,
      med: decideMedRecord(heldPix, { ...input, amountCents: 9_000 }, now),
    };
    expect(decideMedOutcome(held, { outcome: "returned", amountCents: null }, now)).toMatchObject({
      heldReturn: { cents: 9_000, closes: true },
      refundOnOrderCents: 0,
    });
    expect(decideMedOutcome(held, { outcome: "returned", amountCents: 4_000 }, now)).toMatchObject({
      heldReturn: { cents: 4_000, closes: false },
      settleRefunds: [],
    });
  });

  it("refuses an unknown decision, an amount over the block, and a decision with no case open", () => {
    const refused = (facts: MedPaymentFacts, outcome: string, amountCents: number | null) =>
      refusalOf(() => decideMedOutcome(facts, { outcome, amountCents }, now));
    expect(refused(withCase, "devolvido", null)).toBe("invalid_med");
    expect(refused(withCase, "returned", 8_001)).toBe("invalid_med");
    expect(refused(withCase, "returned", 0)).toBe("invalid_med");
    expect(refused(withCase, "kept", 100)).toBe("invalid_med");
    expect(refused(settledPix, "kept", null)).toBe("med_not_open");
    expect(refused({ ...withCase, med: { ...open, state: "kept" } }, "kept", null)).toBe(
      "med_not_open",
    );
  });
});
