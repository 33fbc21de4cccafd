import { fileURLToPath } from "node:url";
import { defineProject } from "vitest/config";

// Hostile-input suites boot a real Medusa app with the plugin through @medusajs/test-utils'
// medusaIntegrationTestRunner, which needs what packages/medusa/vitest.config.ts needs:
// jest-style globals, forked workers, one file at a time (one database per worker), long hook
// timeouts, ts-node for medusa-config.ts, and DB_HOST for the runner's database.
export default defineProject({
  test: {
    name: "fuzz",
    root: fileURLToPath(new URL(".", import.meta.url)),
    environment: "node",
    globals: true,
    pool: "forks",
    fileParallelism: false,
    include: ["**/*.test.ts"],
    setupFiles: ["./vitest.setup.ts"],
    hookTimeout: 180_000,
    testTimeout: 300_000,
    env: { DB_HOST: process.env.DB_HOST ?? "localhost", DB_USERNAME: "postgres" },
  },
});
