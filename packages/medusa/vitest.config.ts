import { defineProject } from "vitest/config";

// The integration suites. Medusa's runner registers jest-style globals (describe/beforeAll)
// itself, boots a whole app per suite and owns one database per file, hence forks and long hook
// timeouts. DB_HOST=localhost is what @medusajs/test-utils reads.
// Two files run at a time: each spends most of its wall time waiting on its sandbox's webhooks,
// its clock and Medusa's workflows, so a second store on the other core roughly halves the
// project's time. The scale suites, which stand up several instances and share one Redis, run
// one at a time in their own project (vitest.scale.config.ts). The unit tests are their own
// project too (vitest.unit.config.ts), so they run beside other packages' tests.
export default defineProject({
  test: {
    name: "medusa",
    environment: "node",
    globals: true,
    pool: "forks",
    include: ["integration-tests/http/**/*.test.ts"],
    setupFiles: ["./vitest.setup.ts"],
    hookTimeout: 180_000,
    testTimeout: 60_000,
    env: { DB_HOST: process.env.DB_HOST ?? "localhost", DB_USERNAME: "postgres" },
  },
});
