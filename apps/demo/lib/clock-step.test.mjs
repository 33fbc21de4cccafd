import { describe, expect, it } from "vitest";
import { clockStep, msToNextMorning } from "./clock-step.mjs";

describe("the demo's clock line", () => {
  it("reads minutes, hours and days forward", () => {
    expect(clockStep("+25m")).toBe(25 * 60_000);
    expect(clockStep(" +2h ")).toBe(2 * 3_600_000);
    expect(clockStep("+1D")).toBe(86_400_000);
  });

  it("refuses anything else: backwards, zero, no unit, words", () => {
    for (const line of ["-5m", "+0m", "+25", "25m", "amanhã", ""])
      expect(clockStep(line)).toBeNull();
  });
});

describe("the demo's morning", () => {
  it("is the next 10:00 in São Paulo", () => {
    expect(msToNextMorning(new Date("2026-11-25T04:45:00-03:00"))).toBe((5 * 60 + 15) * 60_000);
    expect(msToNextMorning(new Date("2026-11-25T10:00:00-03:00"))).toBe(24 * 3_600_000);
    expect(msToNextMorning(new Date("2026-11-25T22:00:00-03:00"))).toBe(12 * 3_600_000);
  });
});
