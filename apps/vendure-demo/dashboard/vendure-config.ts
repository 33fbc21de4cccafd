// What Vendure's dashboard build reads to find the plugins' screens and the Admin API's schema:
// the demo's plugins, with placeholder settings (nothing here runs a server or holds a secret).
import { DashboardPlugin } from "@vendure/dashboard/plugin";
// The plugin's source, not its package: in this repository the package is a workspace link,
// which the dashboard's build follows only to a folder's index.ts; a shop's installed package
// is found by its name.
import { PixCheckoutPlugin } from "../../../packages/vendure/src/plugin";
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
