import { defineConfig } from "vitest/config";
import LongestFirst from "./test/support/longest-first";

// Each package owns its test environment (node, real Chromium, Medusa's runner);
// this file only names them so `vitest run` at the root runs them all.
export default defineConfig({
  test: {
    // Vitest's default on two cores is one worker, which would run every file one after the
    // other. Two workers take every project's files, the longest first (LongestFirst): most of
    // a Medusa, demo or packaging file's time is spent waiting on its store, its sandbox's
    // webhooks or npm, so two at a time take about half the wall time of one. A third worker
    // was faster still (vitest 939 to 958 s against about 1,040 s), but on the two cores it made
    // the races the suites play lose their timing: two of three runs had a failure that two
    // workers have not shown (test/README.md). Every file has its own database, ports and folders; the demo's
    // start-up suite takes the demo's default ports when they are free and moves when they are
    // not, as `npm run demo` does.
    maxWorkers: 2,
    sequence: { sequencer: LongestFirst },
    projects: [
      "packages/*/vitest.config.ts",
      "packages/medusa/vitest.unit.config.ts",
      "packages/element/vitest.unit.config.ts",
      "apps/*/vitest.config.ts",
      "test/vitest.config.ts",
      "test/fuzz/vitest.config.ts",
      "test/e2e/vitest.config.ts",
      "test/packaging/vitest.config.ts",
    ],
  },
});
