import { defineProject } from "vitest/config";

// The integration suites. Medusa's runner registers jest-style globals (describe/beforeAll)
// itself, boots a whole app per suite and owns one database per file, hence forks and long hook
// timeouts. DB_HOST=localhost is what @medusajs/test-utils reads.
// Files run beside the other projects' (the root config's two workers): each
// spends most of its wall time waiting on its sandbox's webhooks, its clock and Medusa's
// workflows, so stores side by side share the two cores well. Every file
// has its own database, sandboxes and ports; the scale suites' Redis instances each use a
// database number of their own (7, 8). The unit tests are their own project
// (vitest.unit.config.ts).
export default defineProject({
  test: {
    name: "medusa",
    environment: "node",
    globals: true,
    pool: "forks",
    include: ["integration-tests/**/*.test.ts"],
    setupFiles: ["./vitest.setup.ts"],
    hookTimeout: 180_000,
    testTimeout: 60_000,
    env: { DB_HOST: process.env.DB_HOST ?? "localhost", DB_USERNAME: "postgres" },
  },
});
