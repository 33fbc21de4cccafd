import { defineConfig } from "vitest/config";

// Each package owns its test environment (node, real Chromium, Medusa's runner);
// this file only names them so `vitest run` at the root runs them all.
export default defineConfig({
  test: {
    // Vitest's default on two cores is one worker, which would run every file one after the
    // other. The projects that boot Medusa, a store or browsers run one file at a time anyway
    // (their fileParallelism: false puts them in a group of their own, after the rest); the
    // rest (unit tests, the cross-package checks, the packaging install) share two workers.
    maxWorkers: 2,
    projects: [
      "packages/*/vitest.config.ts",
      "packages/medusa/vitest.unit.config.ts",
      "packages/medusa/vitest.scale.config.ts",
      "apps/*/vitest.config.ts",
      "test/vitest.config.ts",
      "test/fuzz/vitest.config.ts",
      "test/e2e/vitest.config.ts",
      "test/packaging/vitest.config.ts",
    ],
  },
});
