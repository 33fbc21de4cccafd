import { describe, expect, it } from "vitest";
import { stalledEngines, withRerun } from "../scripts/lib/stalled-engines.mjs";

const counts = (passed: number, failed: number, stalled: string[] = []) => ({
  passed,
  failed,
  skipped: 0,
  stalled,
});
const report = (browsers: Record<string, ReturnType<typeof counts>>) => ({ browsers });

describe("npm test's second chance for a stalled browser engine", () => {
  it("runs WebKit again when its only failure is a page that stalled", () => {
    const first = report({
      Chrome: counts(120, 0),
      Firefox: counts(120, 0),
      MiniBrowser: counts(64, 1, ["src/pix-checkout.test.ts"]),
    });
    expect(stalledEngines(first)).toEqual(["MiniBrowser"]);
  });

  it("never runs an engine again when a test failed in it, stalled page or not", () => {
    const failedTest = report({ Chrome: counts(119, 1), MiniBrowser: counts(120, 0) });
    const both = report({ MiniBrowser: counts(63, 2, ["src/pix-checkout.test.ts"]) });
    const elsewhere = report({
      Chrome: counts(119, 1),
      MiniBrowser: counts(64, 1, ["src/pix-checkout.test.ts"]),
    });
    expect(stalledEngines(failedTest)).toEqual([]);
    expect(stalledEngines(both)).toEqual([]);
    expect(stalledEngines(elsewhere)).toEqual([]);
  });

  it("has nothing to run again when nothing failed or there is no report", () => {
    expect(stalledEngines(report({ Chrome: counts(120, 0) }))).toEqual([]);
    expect(stalledEngines(null)).toEqual([]);
  });

  it("counts the second run's figures for the engine it ran, and a crash there as a failure", () => {
    const first = report({
      Chrome: counts(120, 0),
      MiniBrowser: counts(64, 1, ["src/pix-checkout.test.ts"]),
    });
    const again = report({ MiniBrowser: counts(120, 0) });
    expect(withRerun(first, again, ["MiniBrowser"])).toMatchObject({
      passed: 240,
      failed: 0,
      rerun: ["MiniBrowser"],
    });
    expect(withRerun(first, null, ["MiniBrowser"])).toMatchObject({ passed: 120, failed: 1 });
  });
});
