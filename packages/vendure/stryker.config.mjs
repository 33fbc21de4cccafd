// @ts-check
// `npm run mutation` (scripts/mutation.mjs runs Stryker here, on Node.js 24): StrykerJS changes
// the Vendure plugin's pure decisions, one mutant at a time, and runs their unit tests
// (vitest.mutation.config.ts; never the e2e suites, which boot Vendure) against each. The report
// is written to reports/mutation/ (mutation.html, mutation.json).

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

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  plugins: ["@stryker-mutator/vitest-runner"],
  vitest: { configFile: "vitest.mutation.config.ts", related: false },
  mutate: TARGETS.map(({ file }) => file),
  // The sandbox needs the sources and the vitest config only (node_modules is linked).
  ignorePatterns: [
    "/*",
    "!/src",
    "!/package.json",
    "!/tsconfig.json",
    "!/vitest.mutation.config.ts",
  ],
  coverageAnalysis: "perTest",
  // Two cores, shared: never more than two test workers.
  concurrency: 2,
  reporters: ["clear-text", "progress", "html", "json"],
  // scripts/mutation.mjs lists the survivors, one line each, after Stryker's score table.
  clearTextReporter: { reportMutants: false, logTests: false },
  htmlReporter: { fileName: "reports/mutation/mutation.html" },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
  // The Medusa plugin's settlement asks 85 %; a lower score is printed, not a failure.
  thresholds: { high: 85, low: 70, break: null },
};
