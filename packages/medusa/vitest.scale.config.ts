import { defineProject } from "vitest/config";

// The scale suites: each stands up several Medusa instances (server, worker, shared) over one
// database and the one Redis they find, so they run one file at a time, after the rest.
export default defineProject({
  test: {
    name: "medusa-scale",
    environment: "node",
    globals: true,
    pool: "forks",
    fileParallelism: false,
    include: ["integration-tests/scale/**/*.test.ts"],
    setupFiles: ["./vitest.setup.ts"],
    hookTimeout: 180_000,
    testTimeout: 60_000,
    env: { DB_HOST: process.env.DB_HOST ?? "localhost", DB_USERNAME: "postgres" },
  },
});
