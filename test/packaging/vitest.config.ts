import { defineProject } from "vitest/config";

// Packs the four packages and installs only the tarballs into a scratch Medusa app: minutes of
// packing, migrating and booting, hence the long timeouts. Runs after `npm run build`.
export default defineProject({
  test: {
    name: "packaging",
    environment: "node",
    include: ["**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 400_000,
  },
});
