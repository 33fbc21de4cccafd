import { defineConfig } from "vitest/config";

// Each package owns its test environment (node, real Chromium, Medusa's runner);
// this file only names them so `vitest run` at the root runs them all.
export default defineConfig({
  test: {
    projects: [
      "packages/*/vitest.config.ts",
      "apps/*/vitest.config.ts",
      "test/vitest.config.ts",
      "test/fuzz/vitest.config.ts",
      "test/e2e/vitest.config.ts",
      "test/packaging/vitest.config.ts",
    ],
  },
});
