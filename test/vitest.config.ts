import { defineProject } from "vitest/config";

// Suites that cross packages. They import the packages' built `dist/` through their exports
// maps, so `npm test` builds before it runs them. Paths below are relative to test/.
export default defineProject({
  test: {
    name: "cross-package",
    environment: "node",
    include: ["**/*.test.ts"],
    // test/fuzz, test/e2e and test/packaging boot Medusa and have their own projects (their
    // vitest.config.ts).
    exclude: ["fuzz/**", "e2e/**", "packaging/**", "**/node_modules/**"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
