import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "demo",
    environment: "node",
    include: ["lib/**/*.test.mjs", "src/**/*.test.ts", "storefront/src/**/*.test.ts"],
    // Files run beside the other projects' (the root's workers): the start-up suite boots
    // Medusa on the demo's default ports when they are free, else on free ones, as a second
    // `npm run demo` does, and every file has its own database and folders.
    testTimeout: 30_000,
    hookTimeout: 240_000,
  },
});
