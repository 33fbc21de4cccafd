import { fileURLToPath } from "node:url";
import { defineProject } from "vitest/config";

// Shopper and merchant flows in a real Chromium against the whole demo store (Medusa with the
// plugin, the sandbox, the storefront). Each file boots one demo in beforeAll, which takes
// 20–60 s, so hooks get long timeouts. Files run beside other projects' (the root config's two
// workers): each demo takes ports nothing listens on and a database and folder of its own.
export default defineProject({
  test: {
    name: "e2e",
    root: fileURLToPath(new URL(".", import.meta.url)),
    environment: "node",
    include: ["**/*.test.ts"],
    pool: "forks",
    hookTimeout: 240_000,
    testTimeout: 120_000,
  },
});
