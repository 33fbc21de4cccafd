import { defineProject } from "vitest/config";

// The plugin as a Vendure store runs it: a real Vendure server (@vendure/testing) on
// PostgreSQL, the sandbox over real HTTP, the plugin as built (`npm run build`: Nest's
// injection reads the constructors' types, which only tsc's decorator metadata carries).
export default defineProject({
  test: {
    name: "vendure",
    environment: "node",
    include: ["test/**/*.test.mts", "src/**/*.test.ts", "dashboard/**/*.test.ts"],
    pool: "forks",
    // Vendure sends usage data to its own server at start unless told not to (and writes an
    // installation id into the working folder): a test posts nowhere but loopback.
    env: { VENDURE_DISABLE_TELEMETRY: "true" },
    hookTimeout: 120_000,
    testTimeout: 60_000,
  },
});
