import { defineProject } from "vitest/config";

// The plugin's unit tests: no Medusa boot and no database of their own, so they may run in
// parallel with each other and with other packages' tests. Forks and ts-node as the integration
// project (vitest.config.ts), for the few that load Medusa's CommonJS modules. One fork runs
// many files (isolate: false): a fork and ts-node per file cost about a second each, 48 s for
// the project against 10 s.
export default defineProject({
  test: {
    name: "medusa-unit",
    environment: "node",
    globals: true,
    pool: "forks",
    isolate: false,
    include: ["src/**/*.test.ts"],
    setupFiles: ["./vitest.setup.ts"],
    testTimeout: 60_000,
  },
});
