// @ts-check
// `npm run mutation` (scripts/mutation.mjs runs Stryker here, on Node.js 24): StrykerJS changes
// the Vendure plugin's pure decisions, one mutant at a time, and runs their unit tests
// (vitest.mutation.config.ts; never the e2e suites, which boot Vendure) against each. The report
// is written to reports/mutation/ (mutation.html, mutation.json).
import { strykerOptions } from "../../scripts/lib/stryker-options.mjs";

/**
 * What is mutated: the files that are nothing but the plugin's decisions (the services read
 * Vendure's records, then ask these).
 * @type {{ file: string, fn?: string }[]}
 */
export const TARGETS = [
  // When a paid code may pay its order at all, and what it becomes (the split is the client's).
  { file: "src/settlement-verdict.ts" },
  // What an order's codes say: where each one's money went, in cents and in words.
  { file: "src/order-codes.ts" },
  // A MED on a Vendure payment: the case, its block, its outcome, its words.
  { file: "src/med-case.ts" },
  // What the shopper's page is told about a code.
  { file: "src/shopper-session.ts" },
  // Whether a due reminder goes, and its words.
  { file: "src/reminder-decision.ts" },
];

export default strykerOptions({
  configFile: "vitest.mutation.config.ts",
  mutate: TARGETS.map(({ file }) => file),
  // As the Medusa plugin's settlement: 85 %.
  thresholds: { high: 85, low: 70 },
});
