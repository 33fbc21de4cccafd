import { medDeadlineState, medHealthLine } from "./med-deadline";

describe("a MED's deadline", () => {
  // The count itself is @pix-checkout/client/bank-days' `businessDaysUntil` (tested there); on
  // the store's calendar: platform/store-calendar.test.ts.
  it("is near from two business days before it, its own day included, and past after it", () => {
    expect(medDeadlineState("2026-11-27", "2026-12-02")).toBe("ok");
    expect(medDeadlineState("2026-11-27", "2026-12-01")).toBe("near");
    expect(medDeadlineState("2026-11-27", "2026-11-27")).toBe("near");
    expect(medDeadlineState("2026-11-28", "2026-11-27")).toBe("past");
  });
});

describe("the health card's MED line", () => {
  const open = (chargeId: string, deadline: string, blockedCents = 1_000) => ({
    chargeId,
    protocol: `P-${chargeId}`,
    deadline,
    blockedCents,
  });

  it("is ok with no MED open, or none near its deadline", () => {
    expect(medHealthLine([], "2026-11-27")).toMatchObject({ state: "ok", value: 0, action: null });
    expect(medHealthLine([open("ch_1", "2026-12-10")], "2026-11-27")).toMatchObject({
      state: "ok",
      value: 1,
      detail: { open: 1, blocked_cents: 1_000, near: 0, past: 0 },
    });
  });

  it("warns when a deadline nears, and says so of the nearest", () => {
    const line = medHealthLine(
      [open("ch_far", "2026-12-10"), open("ch_near", "2026-11-30", 2_500)],
      "2026-11-27",
    );
    expect(line).toMatchObject({
      state: "warning",
      value: 2,
      action: "record_med_outcome",
      detail: {
        reason: "med_deadline_near",
        near: 1,
        past: 0,
        blocked_cents: 3_500,
        nearest_deadline: "2026-11-30",
        nearest_charge_id: "ch_near",
        nearest_protocol: "P-ch_near",
      },
    });
  });

  it("says the deadline passed once one has", () => {
    const line = medHealthLine(
      [open("ch_near", "2026-11-30"), open("ch_past", "2026-11-20")],
      "2026-11-27",
    );
    expect(line.detail).toMatchObject({ reason: "med_deadline_past", past: 1, near: 1 });
    expect(line.detail.nearest_charge_id).toBe("ch_past");
  });
});
