import { defineProject } from "vitest/config";

// The plugin as a Vendure store runs it: a real Vendure server (@vendure/testing) on
// PostgreSQL, the sandbox over real HTTP, the plugin as built (`npm run build`: Nest's
// injection reads the constructors' types, which only tsc's decorator metadata carries).
export default defineProject({
  test: {
    name: "vendure",
    environment: "node",
    include: ["test/**/*.test.mts", "src/**/*.test.ts"],
    pool: "forks",
    hookTimeout: 120_000,
    testTimeout: 60_000,
  },
});
