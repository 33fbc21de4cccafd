// For running the storefront on its own (`npx vite apps/demo/storefront`) against a store
// that is already up; `npm run demo` configures Vite itself, with the seed's values.
import { defineConfig } from "vite";
import { storefrontConfig } from "./demo-config-plugin.mjs";

export default defineConfig(
  storefrontConfig({
    backendUrl: process.env.MEDUSA_BACKEND_URL ?? "http://localhost:9000",
    publishableKey: process.env.MEDUSA_PUBLISHABLE_KEY ?? "",
    regionId: process.env.MEDUSA_REGION_ID,
    sandboxUrl: process.env.PIX_SANDBOX_URL ?? "http://127.0.0.1:4010",
  }),
);
