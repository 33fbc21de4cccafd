// Stands up a BUILT Medusa store with the BUILT plugin for the benches: a throwaway app
// directory of plain JavaScript (no ts-node anywhere), its own database, a seed run through
// `medusa exec`, and `medusa start` processes sharing that database like a scaled-out store.
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import {
  createDatabase,
  dropDatabase,
  medusa,
  packageDir,
  startMedusa,
  stopProcess,
  writeApp,
} from "../../scripts/lib/built-app.mjs";

const PG = process.env.BENCH_PG_URL ?? "postgres://postgres@localhost:5432";

const config = (env) => `const { defineConfig } = require("@medusajs/framework/utils");
module.exports = defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    http: { storeCors: "*", adminCors: "*", authCors: "*", jwtSecret: "bench", cookieSecret: "bench" },
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
  ],
});
`;

// The no-op reference route: Medusa's store middleware (publishable key) and nothing else.
const NOOP_ROUTE = `exports.GET = (req, res) => { res.json({}); };\n`;

// Runs inside the app (medusa exec): region, key, carts and one Pix session per cart.
const SEED = `const core = require("@medusajs/medusa/core-flows");
const fs = require("node:fs");
exports.default = async function seed({ container }) {
  const count = Number(process.env.BENCH_SESSIONS || 1);
  const { result: channels } = await core.createSalesChannelsWorkflow(container).run({ input: { salesChannelsData: [{ name: "Web" }] } });
  const { result: regions } = await core.createRegionsWorkflow(container).run({
    input: { regions: [{ name: "Brasil", currency_code: "brl", countries: ["br"], payment_providers: ["pp_pix_a"] }] },
  });
  const { result: keys } = await core.createApiKeysWorkflow(container).run({
    input: { api_keys: [{ title: "bench", type: "publishable", created_by: "" }] },
  });
  await core.linkSalesChannelsToApiKeyWorkflow(container).run({ input: { id: keys[0].id, add: [channels[0].id] } });
  const sessions = [];
  for (let i = 0; i < count; i += 1) {
    const { result: cart } = await core.createCartWorkflow(container).run({
      input: { region_id: regions[0].id, sales_channel_id: channels[0].id, currency_code: "brl", email: "bench@example.com",
        items: [{ title: "Camiseta", quantity: 1, unit_price: 49.9, requires_shipping: false }] },
    });
    const { result: collection } = await core.createPaymentCollectionForCartWorkflow(container).run({ input: { cart_id: cart.id } });
    const { result: session } = await core.createPaymentSessionsWorkflow(container).run({
      input: { payment_collection_id: collection.id, provider_id: "pp_pix_a", data: {} },
    });
    sessions.push({ cart_id: cart.id, session_id: session.id, charge_id: session.data.charge_id });
  }
  // Carts with no payment yet, for benches that need charges created while they run.
  const freshCarts = [];
  for (let i = 0; i < Number(process.env.BENCH_FRESH_CARTS || 0); i += 1) {
    const { result: cart } = await core.createCartWorkflow(container).run({
      input: { region_id: regions[0].id, sales_channel_id: channels[0].id, currency_code: "brl", email: "bench@example.com",
        items: [{ title: "Camiseta", quantity: 1, unit_price: 49.9, requires_shipping: false }] },
    });
    freshCarts.push(cart.id);
  }
  fs.writeFileSync(process.env.BENCH_SEED_OUT, JSON.stringify({ publishableKey: keys[0].token, sessions, freshCarts }));
};
`;

/**
 * Creates the app and its database, migrates, seeds `sessions` Pix sessions and `freshCarts`
 * carts without a payment. Returns { dir, env, seed, start(port), close() }.
 */
export async function createBenchApp({ apiKey, baseUrl, sessions = 1, freshCarts = 0 }) {
  const name = `pix_bench_${process.pid}`;
  const dir = path.join(packageDir, ".medusa", `bench-app-${process.pid}`);
  writeApp(dir, "pix-bench-app", {
    "medusa-config.js": config({ apiKey, baseUrl }),
    "src/api/store/bench-noop/route.js": NOOP_ROUTE,
    "src/scripts/seed.js": SEED,
  });
  await createDatabase(PG, name);

  const env = {
    ...process.env,
    DATABASE_URL: `${PG}/${name}`,
    NODE_ENV: "production",
    MEDUSA_DISABLE_TELEMETRY: "true",
    LOG_LEVEL: "error",
  };
  const seedOut = path.join(dir, "seed.json");
  let seed;
  try {
    await medusa(["db:migrate"], { cwd: dir, env });
    await medusa(["exec", "./src/scripts/seed.js"], {
      cwd: dir,
      env: {
        ...env,
        BENCH_SESSIONS: String(sessions),
        BENCH_FRESH_CARTS: String(freshCarts),
        BENCH_SEED_OUT: seedOut,
      },
    });
    seed = JSON.parse(readFileSync(seedOut, "utf8"));
  } catch (error) {
    // A failed setup leaves neither a database nor an app directory behind.
    await dropDatabase(PG, name).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }

  const children = [];
  return {
    dir,
    seed,
    /** Starts one `medusa start` instance on `port`; resolves with { url, pid } when /health answers. */
    async start(port) {
      const { url, child } = await startMedusa({ cwd: dir, env, port });
      children.push(child);
      return { url, pid: child.pid };
    },
    async close() {
      for (const child of children) await stopProcess(child);
      await dropDatabase(PG, name).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
