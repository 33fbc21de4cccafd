import { defineProject } from "vitest/config";

// The integration suites. Medusa's runner registers jest-style globals (describe/beforeAll)
// itself, boots a whole app per suite (~13 s) and owns one database per worker, hence forks, one
// file at a time and long hook timeouts. DB_HOST=localhost is what @medusajs/test-utils reads.
// The unit tests are their own project (vitest.unit.config.ts), so they run beside other
// packages' tests instead of one fork at a time behind these.
export default defineProject({
  test: {
    name: "medusa",
    environment: "node",
    globals: true,
    pool: "forks",
    fileParallelism: false,
    include: ["integration-tests/**/*.test.ts"],
    setupFiles: ["./vitest.setup.ts"],
    hookTimeout: 180_000,
    testTimeout: 60_000,
    env: { DB_HOST: process.env.DB_HOST ?? "localhost", DB_USERNAME: "postgres" },
  },
});
