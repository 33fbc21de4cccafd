// The demo store's configuration, written the way a merchant would write theirs: the plugin
// appears only as medusa-config entries. Every value comes from the environment so that
// `npm run demo` (scripts/start-demo.mjs) and the end-to-end tests can move ports and databases.
import { createRequire } from "node:module";
import { defineConfig, loadEnv } from "@medusajs/framework/utils";
import { adminLanguageFromBrowser } from "./src/admin-language";

loadEnv(process.env.NODE_ENV || "development", process.cwd());

const env = process.env;
const storePort = env.PORT ?? "9000";
const storefrontPort = env.PIX_DEMO_STOREFRONT_PORT ?? "5173";
const sandboxPort = env.PIX_DEMO_SANDBOX_PORT ?? "4010";

/** Both spellings of loopback, since a browser treats them as different origins. */
const loopbackOrigins = (port: string) => [`http://localhost:${port}`, `http://127.0.0.1:${port}`];
// More storefronts beside the demo's own (the Next.js storefront of the end-to-end suite).
const extraStoreOrigins = (env.PIX_DEMO_EXTRA_STORE_ORIGINS ?? "").split(",").filter(Boolean);
const storeCors =
  env.STORE_CORS ?? [...loopbackOrigins(storefrontPort), ...extraStoreOrigins].join(",");
const adminCors = env.ADMIN_CORS ?? loopbackOrigins(storePort).join(",");
const authCors = env.AUTH_CORS ?? [adminCors, storeCors].join(",");

/** What the plugin needs to reach the payment service; the sandbox answers by default. */
const pixCheckoutOptions = {
  apiKey: env.PIX_CHECKOUT_API_KEY ?? "sk_live_sandbox_default",
  baseUrl: env.PIX_CHECKOUT_BASE_URL ?? `http://127.0.0.1:${sandboxPort}/v1`,
  variant: env.PIX_CHECKOUT_VARIANT ?? "a",
  webhookSecret: env.PIX_CHECKOUT_WEBHOOK_SECRET || undefined,
  // "every_order" asks the buyer's CPF or CNPJ on a Pix too (a store that issues notas fiscais);
  // unset, only a boleto asks it, the plugin's default.
  buyerDocument: (env.PIX_CHECKOUT_BUYER_DOCUMENT || undefined) as
    "boleto" | "every_order" | undefined,
};

// Variant A accounts get Pix and boleto; Variant B has no boleto, and the plugin refuses to
// start a boleto provider against it, so a Variant B store registers the Pix-only entry.
const providerModule =
  pixCheckoutOptions.variant === "b"
    ? "@pix-checkout/medusa/providers/pix-only"
    : "@pix-checkout/medusa/providers/pix-checkout";

// The plugin is a workspace package that may not be built yet (a fresh clone before
// `npm install` finished, or mid-development). Resolving its public entry point is the
// same check Node makes when Medusa loads it; without it the store still starts, with
// Medusa's system payment provider only, and says so.
const pluginIsInstalled = (() => {
  try {
    createRequire(__filename).resolve(providerModule);
    return true;
  } catch {
    // Medusa loads this file several times per command; say it once.
    const noted = globalThis as { pixCheckoutDemoNoted?: boolean };
    if (noted.pixCheckoutDemoNoted) return false;
    noted.pixCheckoutDemoNoted = true;
    process.stderr.write(
      `[pix-checkout demo] ${providerModule} cannot be loaded (is @pix-checkout/medusa built?): ` +
        "starting without the Pix Checkout providers. Run `npm run build -w @pix-checkout/medusa`, " +
        "then restart.\n",
    );
    return false;
  }
})();

const redisUrl = env.REDIS_URL || undefined;

module.exports = defineConfig({
  projectConfig: {
    databaseUrl: env.DATABASE_URL,
    redisUrl,
    http: {
      storeCors,
      adminCors,
      authCors,
      jwtSecret: env.JWT_SECRET || "pix-checkout-demo-only",
      cookieSecret: env.COOKIE_SECRET || "pix-checkout-demo-only",
    },
  },
  admin: {
    backendUrl: env.MEDUSA_BACKEND_URL ?? `http://localhost:${storePort}`,
    // Medusa's "Copy payment link" on an order (an edit's, exchange's or claim's difference,
    // a draft order's total) copies `${storefrontUrl}/payment-collection/<id>?order_id=…`: with
    // the store's own /pix-checkout, the plugin's payment page opens. A store whose storefront
    // has that page (or redirects to this one, as the demo storefront does) names it instead.
    storefrontUrl: `${env.MEDUSA_BACKEND_URL ?? `http://localhost:${storePort}`}/pix-checkout`,
    // A Brazilian merchant's first visit opens the admin, Medusa's own screens too, in
    // Portuguese rather than Medusa's English fallback (src/admin-language).
    vite: () => ({ plugins: [adminLanguageFromBrowser()] }),
  },
  plugins: pluginIsInstalled
    ? [
        {
          resolve: "@pix-checkout/medusa",
          options: {
            // The shopper who closes the tab gets the code by e-mail: the demo's mailbox shows
            // every message (src/modules/smtp-email renders them).
            notifications: {
              enabled: true,
              paymentPageUrl: `http://localhost:${storefrontPort}/pagar/{session_id}`,
              // The plugin's templates, and "Recebemos seu pedido" (order_received), which is
              // sent only when named: naming templates replaces the default set, so all are here.
              templates: {
                created: "pix-checkout-code",
                paid: "pix-checkout-paid",
                expired: "pix-checkout-expired",
                refund_due: "pix-checkout-refund-due",
                refunded: "pix-checkout-refunded",
                order_received: "pix-checkout-order-received",
              },
            },
            // Every shopper of a demo is you, at 127.0.0.1: a store's default (3 creates a
            // minute per address) would hold your fourth code of a minute back. A storefront
            // that calls the store from its server signs each shopper's address with the
            // secret (apps/next-storefront); the demo makes one each run.
            fairness: {
              clientCreatesPerMinute: 30,
              // and its boletos are all one test CPF: the store's default (3 unpaid orders per
              // address, mailbox and CPF) would refuse your fourth order-first boleto.
              unpaidOrdersMax: 1000,
              unpaidUnitsMax: 10000,
              storefrontSecret: env.PIX_STOREFRONT_SECRET || undefined,
            },
            // The "régua de recuperação": reminders before a code expires or a boleto falls
            // due, and a new code after. Type +25m into `npm run demo` to see them go.
            recovery: {
              enabled: true,
              backendUrl: env.MEDUSA_BACKEND_URL ?? `http://localhost:${storePort}`,
              checkoutUrl: `http://localhost:${storefrontPort}/`,
            },
          },
        },
      ]
    : [],
  modules: [
    {
      resolve: "@medusajs/medusa/notification",
      options: {
        providers: [
          // `npm run demo` starts a mailbox (MailDev): every message is an e-mail in its web
          // inbox. Without one (PIX_DEMO_SMTP_PORT unset), Medusa's local provider logs them.
          env.PIX_DEMO_SMTP_PORT
            ? {
                resolve: "./src/modules/smtp-email",
                id: "demo-email",
                options: {
                  channels: ["email"],
                  host: "127.0.0.1",
                  port: Number(env.PIX_DEMO_SMTP_PORT),
                  from: "Loja Pix Checkout <loja@pix-checkout.test>",
                  store: "Loja Pix Checkout",
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
    ...(pluginIsInstalled
      ? [
          {
            resolve: "@medusajs/medusa/payment",
            options: {
              providers: [
                {
                  resolve: providerModule,
                  id: "pix-checkout",
                  options: pixCheckoutOptions,
                },
              ],
            },
          },
        ]
      : []),
    // One Redis serves every instance in production; the demo runs one process and
    // keeps Medusa's in-memory defaults unless REDIS_URL asks otherwise.
    ...(redisUrl
      ? [
          { resolve: "@medusajs/medusa/event-bus-redis", options: { redisUrl } },
          { resolve: "@medusajs/medusa/workflow-engine-redis", options: { redis: { redisUrl } } },
          {
            resolve: "@medusajs/medusa/locking",
            options: {
              providers: [
                {
                  resolve: "@medusajs/medusa/locking-redis",
                  id: "locking-redis",
                  is_default: true,
                  options: { redisUrl },
                },
              ],
            },
          },
        ]
      : []),
  ],
});
