import { fileURLToPath } from "node:url";
import { defineProject } from "vitest/config";

// Hostile-input suites boot a real Medusa app with the plugin through @medusajs/test-utils'
// medusaIntegrationTestRunner, which needs what packages/medusa/vitest.config.ts needs:
// jest-style globals, forked workers, long hook timeouts, ts-node for medusa-config.ts, and
// DB_HOST for the runner's database. Its file runs beside other projects' (its own database,
// sandboxes and ports).
export default defineProject({
  test: {
    name: "fuzz",
    root: fileURLToPath(new URL(".", import.meta.url)),
    environment: "node",
    globals: true,
    pool: "forks",
    include: ["**/*.test.ts"],
    setupFiles: ["./vitest.setup.ts"],
    hookTimeout: 180_000,
    testTimeout: 300_000,
    env: { DB_HOST: process.env.DB_HOST ?? "localhost", DB_USERNAME: "postgres" },
  },
});
