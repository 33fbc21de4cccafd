import { defineConfig } from "vitest/config";

// Only what `npm run mutation` runs (stryker.config.mjs): the unit tests of the plugin's pure
// decisions, fast and without a Vendure server. Not a project of the root's `vitest run`.
export default defineConfig({
  test: {
    name: "vendure-mutation",
    environment: "node",
    include: [
      "src/settlement-verdict.test.ts",
      "src/order-codes.test.ts",
      "src/med-case.test.ts",
      "src/shopper-session.test.ts",
      "src/reminder-decision.test.ts",
    ],
  },
});
