import { defineProject } from "vitest/config";

// Medusa's integration runner registers jest-style globals (describe/beforeAll) itself, boots a
// whole app per suite (~13 s) and owns one database per worker, hence forks, no file
// parallelism and long hook timeouts. DB_HOST=localhost is what @medusajs/test-utils reads.
export default defineProject({
  test: {
    name: "medusa",
    environment: "node",
    globals: true,
    pool: "forks",
    fileParallelism: false,
    include: ["src/**/*.test.ts", "integration-tests/**/*.test.ts"],
    setupFiles: ["./vitest.setup.ts"],
    hookTimeout: 180_000,
    testTimeout: 60_000,
    env: { DB_HOST: process.env.DB_HOST ?? "localhost", DB_USERNAME: "postgres" },
  },
});
