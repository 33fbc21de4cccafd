import { describe, expect, it } from "vitest";
import { refundDeadline, refundDeadlineState } from "./refund-deadline.js";

const owedPix = (paidAt: string, owed = 3_500) => ({
  method: "pix" as const,
  paid_at: paidAt,
  owed_cents: owed,
});

describe("refundDeadline", () => {
  it("is the payment's São Paulo day plus 90 calendar days, with the days left to it", () => {
    expect(
      refundDeadline(owedPix("2026-12-08T15:00:00-03:00"), new Date("2027-02-24T10:00:00-03:00")),
    ).toEqual({ deadline: "2027-03-08", days_left: 12, state: "warning" });
  });

  it("counts across month ends: paid on 30 November, the deadline is 28 February", () => {
    expect(
      refundDeadline(owedPix("2026-11-30T12:00:00-03:00"), new Date("2026-11-30T13:00:00-03:00")),
    ).toEqual({ deadline: "2027-02-28", days_left: 90, state: "ok" });
    // 31 December + 90 days is 31 March (January 31, February 28, March 31).
    expect(refundDeadline(owedPix("2026-12-31T12:00:00-03:00"), new Date())?.deadline).toBe(
      "2027-03-31",
    );
  });

  it("counts 29 February in a leap year (2028)", () => {
    // 1 December 2027 + 90 days: 30 (Dec) + 31 (Jan) + 29 (Feb) = 90 → 29 February 2028.
    expect(
      refundDeadline(owedPix("2027-12-01T12:00:00-03:00"), new Date("2028-02-28T12:00:00-03:00")),
    ).toEqual({ deadline: "2028-02-29", days_left: 1, state: "critical" });
    // The same dates a year earlier end on 1 March (2027 is no leap year).
    expect(refundDeadline(owedPix("2026-12-01T12:00:00-03:00"), new Date())?.deadline).toBe(
      "2027-03-01",
    );
  });

  it("takes the payment's day in São Paulo, not in UTC, on both sides of midnight", () => {
    // 23:30 in São Paulo is already the next day in UTC: the payment is still the 8th's.
    expect(refundDeadline(owedPix("2026-12-09T02:30:00Z"), new Date())?.deadline).toBe(
      "2027-03-08",
    );
    // 00:10 in São Paulo on the 9th.
    expect(refundDeadline(owedPix("2026-12-09T03:10:00Z"), new Date())?.deadline).toBe(
      "2027-03-09",
    );
    // Today turns at São Paulo's midnight too: 23:59 on the 23rd leaves 13 days, 00:00 on the 24th 12.
    const paid = owedPix("2026-12-08T15:00:00-03:00");
    expect(refundDeadline(paid, new Date("2027-02-24T02:59:59Z"))?.days_left).toBe(13);
    expect(refundDeadline(paid, new Date("2027-02-24T03:00:00Z"))?.days_left).toBe(12);
  });

  it("warns at 15 days left, is critical at 5 and on the day itself, and past after it", () => {
    const paid = owedPix("2026-12-08T15:00:00-03:00"); // deadline 2027-03-08
    const on = (day: string) => refundDeadline(paid, new Date(`${day}T12:00:00-03:00`));
    expect(on("2027-02-20")).toMatchObject({ days_left: 16, state: "ok" });
    expect(on("2027-02-21")).toMatchObject({ days_left: 15, state: "warning" });
    expect(on("2027-03-02")).toMatchObject({ days_left: 6, state: "warning" });
    expect(on("2027-03-03")).toMatchObject({ days_left: 5, state: "critical" });
    expect(on("2027-03-08")).toMatchObject({ days_left: 0, state: "critical" });
    expect(on("2027-03-09")).toMatchObject({ days_left: -1, state: "past" });
    expect(on("2027-06-01")).toMatchObject({ deadline: "2027-03-08", state: "past" });
  });

  it("has no clock for a boleto, for nothing owed, or for an unpaid charge", () => {
    const now = new Date("2027-02-24T12:00:00-03:00");
    const boleto = { ...owedPix("2026-12-08T15:00:00-03:00"), method: "boleto" as const };
    expect(refundDeadline(boleto, now)).toBeNull();
    expect(refundDeadline(owedPix("2026-12-08T15:00:00-03:00", 0), now)).toBeNull();
    expect(refundDeadline({ method: "pix", paid_at: null, owed_cents: 100 }, now)).toBeNull();
  });

  it("reads a row as Postgres hands it (a Date, cents as a string)", () => {
    expect(
      refundDeadline(
        { method: "pix", paid_at: new Date("2026-12-08T18:00:00Z"), owed_cents: "3500" },
        new Date("2027-02-24T12:00:00-03:00"),
      ),
    ).toMatchObject({ deadline: "2027-03-08", days_left: 12 });
  });
});

describe("refundDeadlineState", () => {
  it("has its thresholds at 15 and 5 days left", () => {
    expect([16, 15, 6, 5, 0, -1].map(refundDeadlineState)).toEqual([
      "ok",
      "warning",
      "warning",
      "critical",
      "critical",
      "past",
    ]);
  });
});
