// @ts-check
/**
 * The Stryker options every package's mutation run shares (`npm run mutation`,
 * scripts/mutation.mjs): Vitest on the package's `configFile` (its pure unit tests only), at
 * most two workers (two cores, shared), and the reports where scripts/mutation.mjs reads them.
 * A score under `thresholds` is printed, never a failure.
 * @param {{ configFile: string, mutate: string[], thresholds: { high: number, low: number } }} run
 * @returns {import("@stryker-mutator/api/core").PartialStrykerOptions}
 */
export function strykerOptions({ configFile, mutate, thresholds }) {
  return {
    testRunner: "vitest",
    plugins: ["@stryker-mutator/vitest-runner"],
    vitest: { configFile, related: false },
    mutate,
    // The sandbox needs the sources and the vitest config only (node_modules is linked).
    ignorePatterns: ["/*", "!/src", "!/package.json", "!/tsconfig.json", `!/${configFile}`],
    coverageAnalysis: "perTest",
    concurrency: 2,
    reporters: ["clear-text", "progress", "html", "json"],
    // scripts/mutation.mjs lists the survivors, one line each, after Stryker's score table.
    clearTextReporter: { reportMutants: false, logTests: false },
    htmlReporter: { fileName: "reports/mutation/mutation.html" },
    jsonReporter: { fileName: "reports/mutation/mutation.json" },
    tempDirName: ".stryker-tmp",
    cleanTempDir: "always",
    thresholds: { ...thresholds, break: null },
  };
}
