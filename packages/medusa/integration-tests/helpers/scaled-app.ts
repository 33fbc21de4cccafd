import type { ChildProcess } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { knex, type Knex } from "@medusajs/framework/mikro-orm/knex";

const PG = process.env.PIX_TEST_PG_URL ?? "postgres://postgres@localhost:5432";

/** Medusa's production topology in one medusa-config: Redis event bus, workflow engine, locking. */
function medusaConfig(env: { apiKey: string; baseUrl: string; redisUrl: string }): string {
  return `const { defineConfig } = require("@medusajs/framework/utils");
const redisUrl = ${JSON.stringify(env.redisUrl)};
module.exports = defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    redisUrl,
    workerMode: process.env.MEDUSA_WORKER_MODE,
    http: { storeCors: "*", adminCors: "*", authCors: "*", jwtSecret: "scale", cookieSecret: "scale" },
  },
  admin: { disable: true },
  plugins: [{ resolve: "@pix-checkout/medusa", options: {} }],
  modules: [
    {
      resolve: "@medusajs/medusa/payment",
      options: {
        providers: [
          {
            resolve: "@pix-checkout/medusa/providers/pix-checkout",
            id: "a",
            options: { apiKey: ${JSON.stringify(env.apiKey)}, baseUrl: ${JSON.stringify(env.baseUrl)}, variant: "a" },
          },
        ],
      },
    },
    { resolve: "@medusajs/medusa/event-bus-redis", options: { redisUrl } },
    { resolve: "@medusajs/medusa/workflow-engine-redis", options: { redis: { redisUrl } } },
    {
      resolve: "@medusajs/medusa/locking",
      options: {
        providers: [
          { resolve: "@medusajs/medusa/locking-redis", id: "locking-redis", is_default: true, options: { redisUrl } },
        ],
      },
    },
  ],
});
`;
}

// Runs inside the app (medusa exec): region, publishable key, one cart with a Pix session.
const SEED = `const core = require("@medusajs/medusa/core-flows");
const fs = require("node:fs");
exports.default = async function seed({ container }) {
  const { result: channels } = await core.createSalesChannelsWorkflow(container).run({ input: { salesChannelsData: [{ name: "Web" }] } });
  const { result: regions } = await core.createRegionsWorkflow(container).run({
    input: { regions: [{ name: "Brasil", currency_code: "brl", countries: ["br"], payment_providers: ["pp_pix_a"] }] },
  });
  const { result: keys } = await core.createApiKeysWorkflow(container).run({
    input: { api_keys: [{ title: "scale", type: "publishable", created_by: "" }] },
  });
  await core.linkSalesChannelsToApiKeyWorkflow(container).run({ input: { id: keys[0].id, add: [channels[0].id] } });
  const { result: cart } = await core.createCartWorkflow(container).run({
    input: { region_id: regions[0].id, sales_channel_id: channels[0].id, currency_code: "brl", email: "ana@example.com",
      items: [{ title: "Camiseta", quantity: 1, unit_price: 49.9, requires_shipping: false }] },
  });
  const { result: collection } = await core.createPaymentCollectionForCartWorkflow(container).run({ input: { cart_id: cart.id } });
  const { result: session } = await core.createPaymentSessionsWorkflow(container).run({
    input: { payment_collection_id: collection.id, provider_id: "pp_pix_a", data: {} },
  });
  fs.writeFileSync(process.env.SCALE_SEED_OUT, JSON.stringify({
    publishableKey: keys[0].token, cartId: cart.id, sessionId: session.id, chargeId: session.data.charge_id,
  }));
};
`;

/** What the seed created. */
export interface ScaledSeed {
  publishableKey: string;
  cartId: string;
  sessionId: string;
  chargeId: string;
}

/** A migrated, seeded Medusa app whose instances share one Postgres database and one Redis. */
export interface ScaledApp {
  seed: ScaledSeed;
  db: Knex;
  /** Starts `medusa start` in `mode` on `port`; resolves when /health answers. */
  start(mode: "server" | "worker", port: number): Promise<string>;
  close(): Promise<void>;
}

/** Creates the app directory (plain JS, under the ignored .medusa/), its database and seed. */
export async function createScaledApp(options: {
  apiKey: string;
  baseUrl: string;
  redisUrl: string;
}): Promise<ScaledApp> {
  // A CommonJS module reaches the ESM helper (shared with the benches) through import().
  const { createDatabase, dropDatabase, medusa, packageDir, startMedusa, stopProcess, writeApp } =
    await import("../../scripts/lib/built-app.mjs");
  const name = `pix_scale_${process.pid}`;
  const dir = path.join(packageDir, ".medusa", `scale-app-${process.pid}`);
  writeApp(dir, "pix-scale-app", {
    "medusa-config.js": medusaConfig(options),
    "src/scripts/seed.js": SEED,
  });
  await createDatabase(PG, name);

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: `${PG}/${name}`,
    MEDUSA_DISABLE_TELEMETRY: "true",
    LOG_LEVEL: "error",
    NODE_ENV: "production",
  };
  delete env.NODE_OPTIONS;
  delete env.VITEST;
  delete env.VITEST_POOL_ID;
  delete env.VITEST_WORKER_ID;
  await medusa(["db:migrate"], { cwd: dir, env });
  const seedOut = path.join(dir, "seed.json");
  await medusa(["exec", "./src/scripts/seed.js"], {
    cwd: dir,
    env: { ...env, SCALE_SEED_OUT: seedOut },
  });
  const seed = JSON.parse(readFileSync(seedOut, "utf8")) as ScaledSeed;
  const db = knex({ client: "pg", connection: env.DATABASE_URL! });

  const children: ChildProcess[] = [];
  return {
    seed,
    db,
    async start(mode, port) {
      const { url, child } = await startMedusa({
        cwd: dir,
        env: { ...env, MEDUSA_WORKER_MODE: mode },
        port,
        label: `medusa start (${mode})`,
      });
      children.push(child);
      return url;
    },
    async close() {
      await Promise.all(children.map(stopProcess));
      await db.destroy();
      await dropDatabase(PG, name);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
