import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "demo",
    environment: "node",
    include: ["lib/**/*.test.mjs", "src/**/*.test.ts", "storefront/src/**/*.test.ts"],
    // The start-up suite boots Medusa; files run one at a time so they do not fight for ports.
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 240_000,
  },
});
