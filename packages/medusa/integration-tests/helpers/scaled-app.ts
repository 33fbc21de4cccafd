import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { knex, type Knex } from "@medusajs/framework/mikro-orm/knex";

const CLI = require.resolve("@medusajs/cli/cli.js");
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

function run(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`medusa ${args[0]} failed:\n${out.slice(-3000)}`)),
    );
  });
}

/** Creates the app directory (plain JS, under the ignored .medusa/), its database and seed. */
export async function createScaledApp(options: {
  apiKey: string;
  baseUrl: string;
  redisUrl: string;
}): Promise<ScaledApp> {
  const name = `pix_scale_${process.pid}`;
  const dir = path.join(__dirname, "..", "..", ".medusa", `scale-app-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, "src", "scripts"), { recursive: true });
  writeFileSync(
    path.join(dir, "package.json"),
    // The CLI recognises a Medusa project by this dependency.
    JSON.stringify({
      name: "pix-scale-app",
      private: true,
      dependencies: { "@medusajs/medusa": "2.21.2", "@medusajs/framework": "2.21.2" },
    }),
  );
  writeFileSync(path.join(dir, "medusa-config.js"), medusaConfig(options));
  writeFileSync(path.join(dir, "src", "scripts", "seed.js"), SEED);

  const admin = knex({ client: "pg", connection: `${PG}/postgres` });
  await admin.raw(`drop database if exists ${name}`);
  await admin.raw(`create database ${name}`);
  await admin.destroy();

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
  await run(["db:migrate"], env, dir);
  const seedOut = path.join(dir, "seed.json");
  await run(["exec", "./src/scripts/seed.js"], { ...env, SCALE_SEED_OUT: seedOut }, dir);
  const seed = JSON.parse(readFileSync(seedOut, "utf8")) as ScaledSeed;
  const db = knex({ client: "pg", connection: env.DATABASE_URL! });

  const children: ChildProcess[] = [];
  return {
    seed,
    db,
    async start(mode, port) {
      const child = spawn(process.execPath, [CLI, "start"], {
        cwd: dir,
        env: { ...env, PORT: String(port), MEDUSA_WORKER_MODE: mode },
        stdio: ["ignore", "ignore", "pipe"],
      });
      let err = "";
      child.stderr!.on("data", (d) => (err += d));
      children.push(child);
      const url = `http://127.0.0.1:${port}`;
      const deadline = Date.now() + 120_000;
      for (;;) {
        if (child.exitCode !== null)
          throw new Error(`medusa start (${mode}) exited:\n${err.slice(-3000)}`);
        try {
          if ((await fetch(`${url}/health`)).ok) return url;
        } catch {
          // not listening yet
        }
        if (Date.now() > deadline) throw new Error(`medusa start (${mode}) not healthy in 120 s`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    },
    async close() {
      await Promise.all(
        children.map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null) return resolve();
              child.once("exit", () => resolve());
              child.kill("SIGTERM");
              setTimeout(() => child.kill("SIGKILL"), 10_000).unref();
            }),
        ),
      );
      await db.destroy();
      const admin = knex({ client: "pg", connection: `${PG}/postgres` });
      await admin.raw(`drop database if exists ${name} with (force)`);
      await admin.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
