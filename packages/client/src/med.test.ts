import { describe, expect, it } from "vitest";
import { businessDaysUntil } from "./bank-days.js";
import { blockedOwedOnOrderOf, medBlockOf, medDeadlineState, medOutcomeSplit } from "./med.js";

describe("where a MED's block falls", () => {
  it.each([
    // owed, captured, block → owed part, captured part
    [500, 3_500, 1_500, 500, 1_000],
    [500, 3_500, 300, 300, 0],
    [0, 3_500, 2_000, 0, 2_000],
    [4_000, 0, 4_000, 4_000, 0],
    [500, 3_500, 4_000, 500, 3_500],
  ])(
    "owed %i and captured %i: a block of %i takes %i owed, then %i captured",
    (owed, captured, amount, owedCents, capturedCents) => {
      expect(medBlockOf({ owed, captured }, amount)).toEqual({ owedCents, capturedCents });
    },
  );

  it("blocks no more than is owed and captured, and only positive whole cents", () => {
    expect(medBlockOf({ owed: 500, captured: 3_500 }, 4_001)).toBeUndefined();
    expect(medBlockOf({ owed: 0, captured: 0 }, 1)).toBeUndefined();
    expect(medBlockOf({ owed: 500, captured: 3_500 }, 0)).toBeUndefined();
    expect(medBlockOf({ owed: 500, captured: 3_500 }, 10.5)).toBeUndefined();
  });
});

describe("where a MED's outcome goes", () => {
  const issueCase = { blockedOwed: 500, blockedOwedOnOrder: 0, contested: 1_000 };

  it("settles the owed money first, then refunds the contested money on the order, and the rest is income again", () => {
    expect(medOutcomeSplit(issueCase, 1_200)).toEqual({
      returned: 1_200,
      owedSettled: 500,
      owedSettledOnOrder: 0,
      refundedOnOrder: 700,
      incomeAgain: 300,
      stillOwed: 0,
      recordedOnOrder: 700,
      ledgerOnly: 500,
    });
  });

  it("leaves owed money the MED did not return still owed", () => {
    expect(medOutcomeSplit(issueCase, 200)).toMatchObject({
      owedSettled: 200,
      refundedOnOrder: 0,
      incomeAgain: 1_000,
      stillOwed: 300,
      recordedOnOrder: 0,
      ledgerOnly: 200,
    });
  });

  it("'Mantido' returns nothing: the captured money is income again, the owed money still owed", () => {
    expect(medOutcomeSplit(issueCase, 0)).toMatchObject({
      returned: 0,
      owedSettled: 0,
      refundedOnOrder: 0,
      incomeAgain: 1_000,
      stillOwed: 500,
      recordedOnOrder: 0,
    });
  });

  it("records on the order the settled owed money the order held captured, after the money it never held", () => {
    const med = { blockedOwed: 1_000, blockedOwedOnOrder: 600, contested: 0 };
    expect(medOutcomeSplit(med, 300)).toMatchObject({ owedSettledOnOrder: 0, ledgerOnly: 300 });
    expect(medOutcomeSplit(med, 700)).toMatchObject({
      owedSettledOnOrder: 300,
      recordedOnOrder: 300,
      ledgerOnly: 400,
    });
  });

  it("every line adds up: the return, and the whole block", () => {
    for (let returned = 0; returned <= 1_500; returned += 50) {
      const split = medOutcomeSplit(issueCase, returned)!;
      expect(split.owedSettled + split.refundedOnOrder).toBe(returned);
      expect(split.recordedOnOrder + split.ledgerOnly).toBe(returned);
      expect(split.returned + split.incomeAgain + split.stillOwed).toBe(1_500);
    }
  });

  it("returns no more than the block, and only whole cents", () => {
    expect(medOutcomeSplit(issueCase, 1_501)).toBeUndefined();
    expect(medOutcomeSplit(issueCase, -1)).toBeUndefined();
    expect(medOutcomeSplit(issueCase, 0.5)).toBeUndefined();
  });
});

describe("what of the blocked owed money the order holds captured", () => {
  it("is what the block took beyond the owed money the order never captured", () => {
    expect(blockedOwedOnOrderOf(1_000, 600, 300)).toBe(0);
    expect(blockedOwedOnOrderOf(1_000, 600, 700)).toBe(300);
    expect(blockedOwedOnOrderOf(1_000, 0, 1_000)).toBe(0);
    expect(blockedOwedOnOrderOf(1_000, 1_000, 200)).toBe(200);
  });
});

describe("a MED's deadline", () => {
  it("is near from two bank business days before it, its own day counted, and past after it", () => {
    // Friday 2026-11-27: Monday 30 is one business day away, Tuesday 1 December two.
    expect(medDeadlineState(businessDaysUntil("2026-11-27", "2026-12-02"))).toBe("ok");
    expect(medDeadlineState(businessDaysUntil("2026-11-27", "2026-12-01"))).toBe("near");
    expect(medDeadlineState(businessDaysUntil("2026-11-27", "2026-11-27"))).toBe("near");
    expect(medDeadlineState(businessDaysUntil("2026-11-28", "2026-11-27"))).toBe("past");
    // Carnival 2027 (Monday 8 and Tuesday 9 February) is no business day.
    expect(medDeadlineState(businessDaysUntil("2027-02-05", "2027-02-11"))).toBe("near");
  });
});
