import { defineConfig } from "vitest/config";

// Only what `npm run mutation` runs (stryker.config.mjs): the unit tests of the money decisions
// Stryker mutates, pure and fast. Not a project of the root's `vitest run`, which names
// vitest.config.ts alone; the integration suites, which boot a whole Medusa, are never here.
export default defineConfig({
  test: {
    name: "medusa-mutation",
    environment: "node",
    include: [
      "src/internal/settlement/decide.test.ts",
      "src/internal/settlement/reminder-verdict.test.ts",
      "src/internal/settlement/session-answer.test.ts",
      "src/internal/settlement/paid-collection-guard.test.ts",
      "src/internal/settlement/snapshot.test.ts",
      "src/internal/storefront/earlier-payment.test.ts",
      "src/internal/storefront/mailbox-proof.test.ts",
      "src/internal/medusa/whole-cent-shares.test.ts",
      "src/internal/settlement/refund-portions.test.ts",
      "src/internal/medusa/order-payment.test.ts",
      "src/internal/storefront/store-view.test.ts",
      "src/internal/storefront/live-status/order-news.test.ts",
    ],
  },
});
