// @ts-check
// `npm run mutation` (scripts/mutation.mjs runs Stryker here, on Node.js 24): StrykerJS changes
// the money rules both plugins share, one mutant at a time, and runs their unit tests
// (vitest.mutation.config.ts) against each. The report is written to reports/mutation/
// (mutation.html, mutation.json).

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
