// A minimal Medusa store wired the way a merchant wires the plugin: the plugin itself under
// `plugins`, and its payment providers under the payment module. It loads the BUILT plugin
// (`.medusa/server`, via the workspace link), exactly what a merchant installs from npm.
import path from "node:path";
import { defineConfig } from "@medusajs/framework/utils";

const sandboxA = process.env.PIX_SANDBOX_A_URL ?? "http://127.0.0.1:9/v1";
const sandboxB = process.env.PIX_SANDBOX_B_URL ?? "http://127.0.0.1:9/v1";
const apiKey = process.env.PIX_API_KEY ?? "sk_live_sandbox_default";
// A suite that starts an SMTP server sends e-mail through it (and turns the health alerts on);
// every other suite keeps Medusa's local provider on the same channel.
const smtpPort = process.env.PIX_SMTP_PORT;
const alertsTo = process.env.PIX_ALERTS_TO;
// The checkout suite adds a Pix registration of a store that asks the buyer's CPF/CNPJ on every
// order (`buyerDocument: "every_order"`), on Variant A's sandbox, beside `a` (the default).
const buyerDocumentProvider = process.env.PIX_BUYER_DOCUMENT_PROVIDER === "1";
// The permissions suite (admin-permissions.test.ts) turns Medusa's `rbac` and `caching` flags on
// and names their modules, as a merchant's config does: Medusa 2.21's defineConfig reads its
// `rbac` flag before the flag is registered, so the flag alone does not load the RBAC module.
const flagModules = [
  ...(process.env.MEDUSA_FF_RBAC === "true" ? [{ resolve: "@medusajs/medusa/rbac" }] : []),
  ...(process.env.MEDUSA_FF_CACHING === "true"
    ? [{ resolve: "@medusajs/medusa/caching", options: { in_memory: { enable: true } } }]
    : []),
];

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
  // Medusa's "Copy payment link" copies `${storefrontUrl}/payment-collection/<id>?order_id=…`:
  // the plugin's own page on this server. Suites replace this host with the test server's.
  admin: { storefrontUrl: "https://api.loja.example.com/pix-checkout" },
  plugins: [
    {
      resolve: "@pix-checkout/medusa",
      options: {
        notifications: {
          enabled: process.env.PIX_NOTIFY === "1",
          paymentPageUrl: "https://loja.example.com/pagar/{session_id}",
          // "Recebemos seu pedido" is sent only when named; naming templates replaces the set.
          ...(process.env.PIX_NOTIFY_ORDER_RECEIVED === "1"
            ? {
                templates: {
                  created: "pix-checkout-code",
                  paid: "pix-checkout-paid",
                  expired: "pix-checkout-expired",
                  refund_due: "pix-checkout-refund-due",
                  refunded: "pix-checkout-refunded",
                  order_received: "pix-checkout-order-received",
                },
              }
            : {}),
        },
        // The reminders' suite (recovery.test.ts) turns them on; their links name this host,
        // which the suite replaces with the test server's own address.
        recovery: {
          enabled: process.env.PIX_RECOVERY === "1",
          backendUrl: "https://api.loja.example.com",
          checkoutUrl: "https://loja.example.com/checkout",
        },
        ...(alertsTo
          ? {
              alerts: {
                enabled: true,
                to: alertsTo.split(","),
                holdSeconds: Number(process.env.PIX_ALERTS_HOLD_SECONDS ?? 2),
                locale: "pt-BR",
                adminUrl: "https://loja.example.com/app/pix-checkout",
                ignoreLines: (process.env.PIX_ALERTS_IGNORE ?? "").split(",").filter(Boolean),
              },
            }
          : {}),
        // Every suite's shoppers come from 127.0.0.1 with one test CPF: one client, many carts
        // a minute and many unpaid order-first orders, its codes sent as fast as the budget
        // allows (no pace, no reserve for first codes nor for the vouched). The fairness tests
        // (many-charges) set the merchant's defaults, or tighten these, at run time for their
        // own addresses.
        fairness: {
          clientCreatesPerMinute: 60,
          burstCreates: 60,
          firstCodeReserve: 0,
          vouchedReserve: 0,
          clientWaitingMax: 1000,
          emailWaitingMax: 100,
          unpaidOrdersMax: 1000,
          unpaidUnitsMax: 100000,
        },
      },
    },
  ],
  modules: [
    ...flagModules,
    {
      resolve: "@medusajs/medusa/notification",
      options: {
        providers: [
          smtpPort
            ? {
                resolve: path.join(__dirname, "smtp-notification"),
                id: "smtp",
                options: {
                  channels: ["email"],
                  host: "127.0.0.1",
                  port: Number(smtpPort),
                  from: "Pix Checkout <alertas@loja.example.com>",
                },
              }
            : {
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
          ...(buyerDocumentProvider
            ? [
                {
                  resolve: "@pix-checkout/medusa/providers/pix-only",
                  id: "nf",
                  options: {
                    apiKey,
                    baseUrl: sandboxA,
                    variant: "a",
                    webhookSecret: "whsec-test-a-0123456789",
                    buyerDocument: "every_order",
                  },
                },
              ]
            : []),
        ],
      },
    },
  ],
});
