import { describe, expect, it } from "vitest";
import { bankCalendar } from "@pix-checkout/client/bank-days";
import {
  decideMedOutcome,
  decideMedRecord,
  isCalendarDay,
  medCaseOf,
  medDeadlineState,
  medWords,
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
    expect(refused({}, { protocol: "P".repeat(120) })).toBe("none");
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

  it("tells the merchant, in Portuguese, what to fix or why this payment can have no MED", () => {
    const record =
      (facts: Partial<MedPaymentFacts>, over: Partial<typeof input> = {}) =>
      () =>
        decideMedRecord({ ...settledPix, ...facts }, { ...input, ...over }, now);
    expect(record({}, { protocol: "" })).toThrow(
      /^Informe o protocolo do MED \(até 120 caracteres\), como a notificação o mostra\.$/,
    );
    expect(record({}, { deadline: "2026-02-30" })).toThrow(
      /^Informe o prazo do MED como uma data AAAA-MM-DD \(o dia em que a instituição decide\)\.$/,
    );
    expect(record({}, { amountCents: -1 })).toThrow(
      /^Informe o valor bloqueado em centavos inteiros e positivos \(R\$\s10,00 = 1000\)\.$/,
    );
    expect(record({ med: decideMedRecord(settledPix, input, now) })).toThrow(
      /^Este Pix já tem um MED aberto \(protocolo MED-1\): registre a decisão dele antes de outro\.$/,
    );
    expect(record({ method: "boleto" })).toThrow(
      /^Boleto não tem MED: só um Pix pago pode ser bloqueado pelo banco do pagador\.$/,
    );
    expect(record({ state: "AwaitingPix", refunds: [] })).toThrow(
      /^Este pagamento não tem dinheiro que um MED possa bloquear: só um Pix pago/,
    );
    expect(record({}, { amountCents: 10_481 })).toThrow(
      /^O bloqueio de R\$\s104,81 passa do que este Pix tem: R\$\s104,80 \(R\$\s54,90 no pedido, R\$\s49,90 a devolver\)\. Confira o valor da notificação\.$/,
    );
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

  it("a held code partly returned before its MED: the MED's return closes it when it returns all that was left", () => {
    const partly = { ...heldPix, held: { receivedCents: 9_000, returnedCents: 1_000 } };
    const held = {
      ...partly,
      med: decideMedRecord(partly, { ...input, amountCents: 8_000 }, now),
    };
    expect(decideMedOutcome(held, { outcome: "returned", amountCents: null }, now)).toMatchObject({
      heldReturn: { cents: 8_000, closes: true },
    });
    expect(decideMedOutcome(held, { outcome: "returned", amountCents: 7_999 }, now)).toMatchObject({
      heldReturn: { cents: 7_999, closes: false },
    });
  });

  it("a held code's MED kept: nothing returned, so no return recorded on the code", () => {
    const held = {
      ...heldPix,
      med: decideMedRecord(heldPix, { ...input, amountCents: 9_000 }, now),
    };
    expect(decideMedOutcome(held, { outcome: "kept", amountCents: null }, now)).toMatchObject({
      med: { state: "kept", returnedCents: null },
      settleRefunds: [],
      heldReturn: null,
      refundOnOrderCents: 0,
    });
  });

  it("refuses an unknown decision, an amount over the block, and a decision with no case open", () => {
    const refused = (facts: MedPaymentFacts, outcome: string, amountCents: number | null) =>
      refusalOf(() => decideMedOutcome(facts, { outcome, amountCents }, now));
    expect(refused(withCase, "devolvido", null)).toBe("invalid_med");
    expect(refused(withCase, "returned", 8_001)).toBe("invalid_med");
    expect(refused(withCase, "returned", 0)).toBe("invalid_med");
    expect(refused(withCase, "returned", 10.5)).toBe("invalid_med");
    expect(refused(withCase, "kept", 100)).toBe("invalid_med");
    expect(refused(settledPix, "kept", null)).toBe("med_not_open");
    expect(refused({ ...withCase, med: { ...open, state: "kept" } }, "kept", null)).toBe(
      "med_not_open",
    );
  });

  it("tells the merchant, in Portuguese, what to fix", () => {
    const decide = (facts: MedPaymentFacts, outcome: string, amountCents: number | null) => () =>
      decideMedOutcome(facts, { outcome, amountCents }, now);
    expect(decide(withCase, "devolvido", null)).toThrow(
      /^Informe a decisão do MED: "kept" \(mantido\) ou "returned" \(devolvido pelo MED\)\.$/,
    );
    expect(decide(withCase, "kept", 100)).toThrow(
      /^Um MED mantido não devolve nada: não informe valor\.$/,
    );
    expect(decide(withCase, "returned", 8_001)).toThrow(
      /^Informe o valor devolvido pelo MED em centavos inteiros, de 1 até o bloqueio de R\$\s80,00\.$/,
    );
    expect(decide(settledPix, "kept", null)).toThrow(
      /^Este Pix não tem MED aberto: registre o MED \(protocolo, prazo e valor\) antes da decisão\.$/,
    );
  });
});

describe("a MED case in one sentence for the merchant", () => {
  const open: MedCase = decideMedRecord(settledPix, input, now);

  it("open: the protocol, what is blocked, and until when, as the notice's day", () => {
    expect(medWords(open)).toMatch(
      /^MED aberto \(protocolo MED-1\): R\$\s80,00 bloqueados até 09\/12\/2026\.$/,
    );
  });

  it("returned: what went back, and of how much blocked only when it was part of it", () => {
    expect(medWords({ ...open, state: "returned", returnedCents: 8_000 })).toMatch(
      /^Devolvido pelo MED: R\$\s80,00 \(protocolo MED-1\)\.$/,
    );
    expect(medWords({ ...open, state: "returned", returnedCents: 7_999 })).toMatch(
      /^Devolvido pelo MED: R\$\s79,99 dos R\$\s80,00 bloqueados \(protocolo MED-1\)\.$/,
    );
  });

  it("kept: nothing went back", () => {
    expect(medWords({ ...open, state: "kept" })).toBe(
      "MED mantido (protocolo MED-1): nada foi devolvido, o bloqueio acabou.",
    );
  });
});

describe("a MED case read back from the payment's metadata", () => {
  const kept: MedCase = {
    protocol: "MED-1",
    deadline: "2026-12-09",
    blockedCents: 8_000,
    blockedOwedCents: 4_990,
    contestedCents: 3_010,
    openedAt: "2026-12-01T15:00:00.000Z",
    state: "kept",
    returnedCents: null,
    decidedAt: "2026-12-08T15:00:00.000Z",
  };

  it("reads a case as it was written", () => {
    expect(medCaseOf(JSON.parse(JSON.stringify(kept)))).toEqual(kept);
    const returned = { ...kept, state: "returned", returnedCents: 6_000 };
    expect(medCaseOf(returned)).toEqual(returned);
  });

  it.each([
    ["nothing", undefined],
    ["null", null],
    ["a string", "MED-1"],
    ["no protocol", { ...kept, protocol: undefined }],
    ["a protocol not text", { ...kept, protocol: 1 }],
    ["no deadline", { ...kept, deadline: undefined }],
    ["a deadline not text", { ...kept, deadline: 20261209 }],
    ["no state", { ...kept, state: undefined }],
    ["an unknown state", { ...kept, state: "closed" }],
  ])("finds no case in %s", (_, value) => {
    expect(medCaseOf(value)).toBeNull();
  });

  it("reads each state a case can be in", () => {
    for (const state of ["open", "kept", "returned"] as const) {
      expect(medCaseOf({ ...kept, state })?.state).toBe(state);
    }
  });

  it("counts amounts that are not whole cents as none, and fills what an older case left out", () => {
    expect(
      medCaseOf({
        protocol: "MED-1",
        deadline: "2026-12-09",
        state: "open",
        blockedCents: 80.5,
        blockedOwedCents: "4990",
        contestedCents: Number.MAX_SAFE_INTEGER + 1,
        openedAt: 0,
        returnedCents: "6000",
        decidedAt: 0,
      }),
    ).toEqual({
      protocol: "MED-1",
      deadline: "2026-12-09",
      blockedCents: 0,
      blockedOwedCents: 0,
      contestedCents: 0,
      openedAt: "",
      state: "open",
      returnedCents: null,
      decidedAt: null,
    });
  });
});

describe("a MED deadline as the merchant types it", () => {
  it("takes a real calendar day written YYYY-MM-DD", () => {
    for (const day of ["2026-12-09", "2028-02-29"]) expect(isCalendarDay(day)).toBe(true);
  });

  it.each([
    ["2026-02-30"], // no such day
    ["2027-02-29"], // not a leap year
    ["09/12/2026"],
    ["2026-12-9"],
    ["x2026-12-01"],
    ["2026-12-011"],
    ["2026-12-01T00:00:00Z"],
    ["+010000-01"], // a date JavaScript reads, in the year 10000: not a day written YYYY-MM-DD
    [20261201],
    [null],
  ])("refuses %j", (value) => {
    expect(isCalendarDay(value)).toBe(false);
  });
});
