// @ts-check
// `npm run mutation` (scripts/mutation.mjs runs Stryker here, on Node.js 24): StrykerJS changes
// the money rules both plugins share, one mutant at a time, and runs their unit tests
// (vitest.mutation.config.ts) against each. The report is written to reports/mutation/
// (mutation.html, mutation.json).
import { strykerOptions } from "../../scripts/lib/stryker-options.mjs";

/**
 * What is mutated: the files that are nothing but rules the Medusa and Vendure plugins share.
 * @type {{ file: string, fn?: string }[]}
 */
export const TARGETS = [
  // What a paid code's money becomes: held, for the order, owed back; what the order takes.
  { file: "src/settlement.ts" },
  // Where a MED's block falls, where its return goes, how near its deadline is.
  { file: "src/med.ts" },
  // When a waiting code is asked about.
  { file: "src/check-schedule.ts" },
  // When a shopper is reminded of an unpaid code (the steps, quiet hours, a boleto's real due day).
  { file: "src/reminders.ts" },
];

export default strykerOptions({
  configFile: "vitest.mutation.config.ts",
  mutate: TARGETS.map(({ file }) => file),
  // As the Medusa plugin's settlement: 85 %.
  thresholds: { high: 85, low: 70 },
});
