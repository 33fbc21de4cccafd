// What Vendure's dashboard build reads to find the plugins' screens and the Admin API's schema:
// the demo's plugins, with placeholder settings (nothing here runs a server or holds a secret).
import { DashboardPlugin } from "@vendure/dashboard/plugin";
// By its name, as in a shop: the build stages the package as npm installs it
// (lib/dashboard-build.mjs `stagePlugin`) and points the dashboard's scanner there.
import { PixCheckoutPlugin } from "@pix-checkout/vendure";
import type { VendureConfig } from "@vendure/core";

export const config: VendureConfig = {
  apiOptions: { port: 3100 },
  authOptions: { tokenMethod: "bearer" },
  dbConnectionOptions: { type: "postgres" },
  paymentOptions: { paymentMethodHandlers: [] },
  plugins: [
    PixCheckoutPlugin.init({
      apiKey: "build-time-placeholder",
      baseUrl: "http://127.0.0.1:1",
      variant: "a",
      webhookSecret: "build-time-placeholder-secret-32-characters",
    }),
    DashboardPlugin,
  ],
};
