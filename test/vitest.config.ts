import { defineProject } from "vitest/config";

// Suites that cross packages. They import the packages' built `dist/` through their exports maps,
// so `npm test` builds before it runs them.
export default defineProject({
  test: {
    name: "cross-package",
    environment: "node",
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
