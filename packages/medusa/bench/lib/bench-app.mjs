// Stands up a BUILT Medusa store with the BUILT plugin for the benches: a throwaway app
// directory of plain JavaScript (no ts-node anywhere), its own database, a seed run through
// `medusa exec`, and `medusa start` processes sharing that database like a scaled-out store.
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const packageDir = path.resolve(here, "..", "..");
const require = createRequire(path.join(packageDir, "package.json"));
const cli = require.resolve("@medusajs/cli/cli.js");
const { knex } = require("@medusajs/framework/mikro-orm/knex");

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
  fs.writeFileSync(process.env.BENCH_SEED_OUT, JSON.stringify({ publishableKey: keys[0].token, sessions }));
};
`;

function run(args, env, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("exit", (code) =>
      code === 0
        ? resolve(out)
        : reject(new Error(`medusa ${args[0]} failed:\n${out.slice(-3000)}`)),
    );
  });
}

/**
 * Creates the app and its database, migrates, seeds `sessions` Pix sessions.
 * Returns { dir, env, seed, start(port), close() }.
 */
export async function createBenchApp({ apiKey, baseUrl, sessions = 1 }) {
  const name = `pix_bench_${process.pid}`;
  const dir = path.join(packageDir, ".medusa", `bench-app-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, "src", "api", "store", "bench-noop"), { recursive: true });
  mkdirSync(path.join(dir, "src", "scripts"), { recursive: true });
  writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({
      name: "pix-bench-app",
      private: true,
      dependencies: { "@medusajs/medusa": "2.21.2", "@medusajs/framework": "2.21.2" },
    }),
  );
  writeFileSync(path.join(dir, "medusa-config.js"), config({ apiKey, baseUrl }));
  writeFileSync(path.join(dir, "src", "api", "store", "bench-noop", "route.js"), NOOP_ROUTE);
  writeFileSync(path.join(dir, "src", "scripts", "seed.js"), SEED);

  const dropDatabase = async () => {
    const admin = knex({ client: "pg", connection: `${PG}/postgres` });
    await admin.raw(`drop database if exists ${name} with (force)`).catch(() => undefined);
    await admin.destroy();
  };
  const admin = knex({ client: "pg", connection: `${PG}/postgres` });
  await admin.raw(`drop database if exists ${name}`);
  await admin.raw(`create database ${name}`);
  await admin.destroy();

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
    await run(["db:migrate"], env, dir);
    await run(
      ["exec", "./src/scripts/seed.js"],
      { ...env, BENCH_SESSIONS: String(sessions), BENCH_SEED_OUT: seedOut },
      dir,
    );
    seed = JSON.parse(readFileSync(seedOut, "utf8"));
  } catch (error) {
    // A failed setup leaves neither a database nor an app directory behind.
    await dropDatabase();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }

  const children = [];
  return {
    dir,
    seed,
    /** Starts one `medusa start` instance on `port`; resolves with { url, pid } when /health answers. */
    async start(port) {
      const child = spawn(process.execPath, [cli, "start"], {
        cwd: dir,
        env: { ...env, PORT: String(port) },
        stdio: ["ignore", "ignore", "pipe"],
      });
      let err = "";
      child.stderr.on("data", (d) => (err += d));
      children.push(child);
      const url = `http://127.0.0.1:${port}`;
      const deadline = Date.now() + 120_000;
      for (;;) {
        if (child.exitCode !== null) throw new Error(`medusa start exited:\n${err.slice(-3000)}`);
        try {
          if ((await fetch(`${url}/health`)).ok) return { url, pid: child.pid };
        } catch {
          // not listening yet
        }
        if (Date.now() > deadline) throw new Error("medusa start did not become healthy in 120 s");
        await new Promise((r) => setTimeout(r, 250));
      }
    },
    async close() {
      for (const child of children) {
        if (child.exitCode === null) {
          child.kill("SIGTERM");
          await new Promise((r) => {
            const t = setTimeout(() => (child.kill("SIGKILL"), r()), 10_000);
            child.on("exit", () => (clearTimeout(t), r()));
          });
        }
      }
      await dropDatabase();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
