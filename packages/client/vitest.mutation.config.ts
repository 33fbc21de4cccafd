import { defineConfig } from "vitest/config";

// Only what `npm run mutation` runs (stryker.config.mjs): the unit tests of the shared money
// rules Stryker mutates, pure and fast. Not a project of the root's `vitest run`.
export default defineConfig({
  test: {
    name: "client-mutation",
    environment: "node",
    include: [
      "src/settlement.test.ts",
      "src/med.test.ts",
      "src/check-schedule.test.ts",
      "src/reminders.test.ts",
    ],
  },
});
