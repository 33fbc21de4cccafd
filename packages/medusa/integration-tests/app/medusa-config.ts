// A minimal Medusa store wired the way a merchant wires the plugin: the plugin itself under
// `plugins`, and its payment providers under the payment module. It loads the BUILT plugin
// (`.medusa/server`, via the workspace link), exactly what a merchant installs from npm.
import { defineConfig } from "@medusajs/framework/utils";

const sandboxA = process.env.PIX_SANDBOX_A_URL ?? "http://127.0.0.1:9/v1";
const sandboxB = process.env.PIX_SANDBOX_B_URL ?? "http://127.0.0.1:9/v1";
const apiKey = process.env.PIX_API_KEY ?? "sk_live_sandbox_default";

module.exports = defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    http: {
      storeCors: "*",
      adminCors: "*",
      authCors: "*",
      jwtSecret: "test",
      cookieSecret: "test",
    },
  },
  plugins: [
    {
      resolve: "@pix-checkout/medusa",
      options: {
        notifications: {
          enabled: process.env.PIX_NOTIFY === "1",
          paymentPageUrl: "https://loja.example.com/pagar/{session_id}",
        },
      },
    },
  ],
  modules: [
    {
      resolve: "@medusajs/medusa/notification",
      options: {
        providers: [
          {
            resolve: "@medusajs/medusa/notification-local",
            id: "local",
            options: { channels: ["email"] },
          },
        ],
      },
    },
    {
      resolve: "@medusajs/medusa/payment",
      options: {
        providers: [
          {
            resolve: "@pix-checkout/medusa/providers/pix-checkout",
            id: "a",
            options: {
              apiKey,
              baseUrl: sandboxA,
              variant: "a",
              webhookSecret: "whsec-test-a-0123456789",
            },
          },
          {
            resolve: "@pix-checkout/medusa/providers/pix-only",
            id: "b",
            options: { apiKey, baseUrl: sandboxB, variant: "b" },
          },
        ],
      },
    },
  ],
});
