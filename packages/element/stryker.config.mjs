// @ts-check
// `npm run mutation` (scripts/mutation.mjs runs Stryker here after the plugin's, on Node.js 24):
// StrykerJS changes the element's status mapping one mutant at a time and runs its Node unit
// tests (vitest.unit.config.ts, the `element-unit` project) against each. The browser suites are
// never run here. The report is written to reports/mutation/ (mutation.html, mutation.json).
import { strykerOptions } from "../../scripts/lib/stryker-options.mjs";

/**
 * What is mutated: files that are nothing but the element's decisions about a status answer.
 * @type {{ file: string, fn?: string }[]}
 */
export const TARGETS = [
  // Which view shows and under which title, whether its words come in the notice chunk, which
  // event a status fires (`pix-paid`, `pix-refund-due`), where the countdown aims, whether a new
  // code is offered, and when the element stops listening (an order paid or canceled, money
  // owed back, a code that ended).
  { file: "src/internal/status-mapping.ts" },
];

export default strykerOptions({
  configFile: "vitest.unit.config.ts",
  mutate: TARGETS.map(({ file }) => file),
  // Issue #69 asks 95 % of the view functions.
  thresholds: { high: 95, low: 85 },
});
