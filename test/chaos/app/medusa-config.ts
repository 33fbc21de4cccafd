// The store `npm run chaos` runs as two server instances and a worker: the plugin as a
// merchant installs it (two provider registrations, both behind a webhook token: Variant A with Pix and boleto,
// Variant B with Pix only), and Medusa's Redis modules so that instances share
// events, workflows and locks. Every value comes from test/chaos/run.mjs through the environment.
import { defineConfig } from "@medusajs/framework/utils";

const env = process.env;
const redisUrl = env.REDIS_URL ?? "redis://127.0.0.1:6379";
// With REDIS_SENTINELS ("host:port,…") and REDIS_SENTINEL_MASTER, every Redis connection of
// Medusa asks the sentinels for the primary and follows it when they promote another: each
// module passes its ioredis options (`redisOptions`) to `new Redis(url, options)`, and with
// `sentinels` set ioredis ignores the URL's host and port (the modules still want a URL).
const sentinels = env.REDIS_SENTINELS?.split(",").map((hostPort) => {
  const [host, port] = hostPort.split(":");
  return { host, port: Number(port) };
});
const redisOptions = sentinels ? { sentinels, name: env.REDIS_SENTINEL_MASTER } : undefined;
// CHAOS_LOCKING=postgres: Medusa's Postgres locking provider (advisory locks, no Redis).
const locking =
  env.CHAOS_LOCKING === "postgres"
    ? { resolve: "@medusajs/medusa/locking-postgres", id: "locking-postgres", is_default: true }
    : {
        resolve: "@medusajs/medusa/locking-redis",
        id: "locking-redis",
        is_default: true,
        options: { redisUrl, redisOptions },
      };
const common = {
  apiKey: env.PIX_API_KEY ?? "sk_live_sandbox_default",
  reconcileIntervalMinutes: 1,
};

module.exports = defineConfig({
  projectConfig: {
    databaseUrl: env.DATABASE_URL,
    redisUrl,
    // The session store's ioredis client (Medusa's express loader).
    redisOptions,
    workerMode: (env.MEDUSA_WORKER_MODE as "shared" | "worker" | "server" | undefined) ?? "shared",
    http: {
      storeCors: "*",
      adminCors: "*",
      authCors: "*",
      jwtSecret: "chaos-only",
      cookieSecret: "chaos-only",
    },
  },
  admin: { disable: true },
  // Code messages on, so the run can count who the store mails (the local provider only logs).
  // The run's balancer reaches the instances from 127.0.0.1 and says who called it in
  // X-Forwarded-For, as a load balancer does: that one address is the trusted proxy.
  plugins: [
    {
      resolve: "@pix-checkout/medusa",
      options: {
        notifications: { enabled: true },
        // Its shoppers share one test CPF, and the attack's addresses place many unpaid
        // orders on purpose: the caps on unpaid orders are tested in many-charges, not here.
        fairness: { trustedProxies: ["127.0.0.1"], unpaidOrdersMax: 1000, unpaidUnitsMax: 100000 },
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
            id: "pix-checkout",
            options: {
              ...common,
              baseUrl: env.PIX_SANDBOX_A_URL,
              variant: "a",
              webhookSecret: env.PIX_WEBHOOK_SECRET,
            },
          },
          {
            resolve: "@pix-checkout/medusa/providers/pix-only",
            id: "b",
            // Production (NODE_ENV) refuses a registration without a webhook token.
            options: {
              ...common,
              baseUrl: env.PIX_SANDBOX_B_URL,
              variant: "b",
              webhookSecret: env.PIX_WEBHOOK_SECRET,
            },
          },
        ],
      },
    },
    { resolve: "@medusajs/medusa/event-bus-redis", options: { redisUrl, redisOptions } },
    {
      resolve: "@medusajs/medusa/workflow-engine-redis",
      options: { redis: { redisUrl, redisOptions } },
    },
    { resolve: "@medusajs/medusa/locking", options: { providers: [locking] } },
  ],
});
