import { defineProject } from "vitest/config";

// The plugin's unit tests: no Medusa boot and no database of their own, so they may run in
// parallel with each other and with other packages' tests. Forks and ts-node as the integration
// project (vitest.config.ts), for the few that load Medusa's CommonJS modules.
export default defineProject({
  test: {
    name: "medusa-unit",
    environment: "node",
    globals: true,
    pool: "forks",
    include: ["src/**/*.test.ts"],
    setupFiles: ["./vitest.setup.ts"],
    testTimeout: 60_000,
  },
});
