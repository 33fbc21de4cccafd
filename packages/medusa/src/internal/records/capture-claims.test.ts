import { describe, expect, it } from "vitest";
import { captureRetryDelayMs, CAPTURE_RETRY_MAX_MS } from "./capture-claims";

describe("captureRetryDelayMs", () => {
  it("tries at once before any failure, then 1 minute, 2, 4 … after each failure", () => {
    expect([0, 1, 2, 3, 4].map(captureRetryDelayMs)).toEqual([
      0, 60_000, 120_000, 240_000, 480_000,
    ]);
  });

  it("never waits more than 6 hours, however many failures, so a capture failing for days is still tried", () => {
    expect(captureRetryDelayMs(9)).toBe(256 * 60_000);
    expect(captureRetryDelayMs(10)).toBe(CAPTURE_RETRY_MAX_MS);
    expect(captureRetryDelayMs(10_000)).toBe(6 * 3_600_000);
  });
});
