// The mechanics shared by everything that stands a throwaway Medusa app up around the BUILT
// plugin (the benches, the scale tests, the admin screenshots): the app directory, the medusa
// CLI, a database of its own, its medusa-config and the start of its seed, `medusa start` until
// /health answers, and stopping it again. What each app adds (topology, seeded carts and
// orders) stays with its caller.
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** packages/medusa, whose node_modules the throwaway apps resolve Medusa and the plugin from. */
export const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const require = createRequire(path.join(packageDir, "package.json"));
const cli = require.resolve("@medusajs/cli/cli.js");
/** @type {typeof import("@medusajs/framework/mikro-orm/knex")} */
const { knex } = require("@medusajs/framework/mikro-orm/knex");

/**
 * Writes `files` (path relative to `dir` → content), creating their folders.
 * @param {string} dir
 * @param {Record<string, string>} files
 */
export function writeFiles(dir, files) {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
}

/**
 * Recreates `dir` as a Medusa project named `name` holding `files` (medusa-config, seed, …).
 * @param {string} dir
 * @param {string} name
 * @param {Record<string, string>} files
 */
export function writeApp(dir, name, files) {
  rmSync(dir, { recursive: true, force: true });
  writeFiles(dir, {
    // The CLI recognises a Medusa project by this dependency.
    "package.json": JSON.stringify({
      name,
      private: true,
      dependencies: { "@medusajs/medusa": "2.21.2", "@medusajs/framework": "2.21.2" },
    }),
    ...files,
  });
}

/** The webhook token of the apps these helpers build: `?token=` on every delivery URL. */
export const APP_WEBHOOK_SECRET = "pix-app-webhook-token-0123456789";

/**
 * medusa-config of an app with the plugin and one Variant A Pix provider, `pp_pix_a`.
 * `redisUrl` switches on Medusa's production topology (Redis event bus, workflow engine and
 * locking, the worker mode from MEDUSA_WORKER_MODE); `dashboard` keeps the admin, served over
 * plain http (so the session cookie is not Secure) from a TypeScript config `medusa build` reads;
 * `webhookSecret` is the provider's webhook token (`APP_WEBHOOK_SECRET` unless given: these apps
 * run with NODE_ENV=production, where the plugin refuses to start without one);
 * `pluginOptions` the plugin entry's options (`fairness`, `stream`...); `providerOptions` more
 * options of the provider (`cancelOrderOnExpiry`...).
 * @param {{ apiKey: string, baseUrl: string, secret: string, redisUrl?: string, dashboard?: boolean, webhookSecret?: string, pluginOptions?: Record<string, unknown>, providerOptions?: Record<string, unknown> }} options
 * @returns {string}
 */
export function pixAppConfig({
  apiKey,
  baseUrl,
  secret,
  redisUrl,
  dashboard = false,
  webhookSecret = APP_WEBHOOK_SECRET,
  pluginOptions = {},
  providerOptions = {},
}) {
  const redis = redisUrl !== undefined;
  return `${
    dashboard
      ? 'import { defineConfig } from "@medusajs/framework/utils";'
      : 'const { defineConfig } = require("@medusajs/framework/utils");'
  }
const redisUrl = ${JSON.stringify(redisUrl ?? null)};
module.exports = defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    ${redis ? "redisUrl, workerMode: process.env.MEDUSA_WORKER_MODE," : ""}
    http: { storeCors: "*", adminCors: "*", authCors: "*", jwtSecret: "${secret}", cookieSecret: "${secret}" },
    ${dashboard ? "cookieOptions: { secure: false }," : ""}
  },
  ${dashboard ? "" : "admin: { disable: true },"}
  plugins: [{ resolve: "@pix-checkout/medusa", options: ${JSON.stringify(pluginOptions)} }],
  modules: [
    {
      resolve: "@medusajs/medusa/payment",
      options: {
        providers: [
          {
            resolve: "@pix-checkout/medusa/providers/pix-checkout",
            id: "a",
            options: { apiKey: ${JSON.stringify(apiKey)}, baseUrl: ${JSON.stringify(baseUrl)}, variant: "a", webhookSecret: ${JSON.stringify(webhookSecret)}${Object.keys(providerOptions).length > 0 ? `, ...${JSON.stringify(providerOptions)}` : ""} },
          },
        ],
      },
    },${
      redis
        ? `
    { resolve: "@medusajs/medusa/event-bus-redis", options: { redisUrl } },
    { resolve: "@medusajs/medusa/workflow-engine-redis", options: { redis: { redisUrl } } },
    {
      resolve: "@medusajs/medusa/locking",
      options: {
        providers: [
          { resolve: "@medusajs/medusa/locking-redis", id: "locking-redis", is_default: true, options: { redisUrl } },
        ],
      },
    },`
        : ""
    }
  ],
});
`;
}

/**
 * A seed script for `medusa exec`. Before `body` runs, a sales channel, a Brazilian region that
 * pays with `pp_pix_a` and `pp_boleto_a` (both of the registration, as the health card expects)
 * and a publishable key of that channel exist; `body` has `container`,
 * `core` (Medusa's core flows), `fs`, `publishableKey`, `newCart(email, title, unitPrice)`
 * (a cart of one item) and `pixSession(cartId)` (its payment collection and Pix session) in scope.
 * @param {string} body
 * @returns {string}
 */
export function pixSeedScript(body) {
  return `const core = require("@medusajs/medusa/core-flows");
const fs = require("node:fs");
exports.default = async function seed({ container }) {
  const { result: channels } = await core.createSalesChannelsWorkflow(container).run({ input: { salesChannelsData: [{ name: "Web" }] } });
  const { result: regions } = await core.createRegionsWorkflow(container).run({
    input: { regions: [{ name: "Brasil", currency_code: "brl", countries: ["br"], payment_providers: ["pp_pix_a", "pp_boleto_a"] }] },
  });
  const { result: keys } = await core.createApiKeysWorkflow(container).run({
    input: { api_keys: [{ title: "seed", type: "publishable", created_by: "" }] },
  });
  await core.linkSalesChannelsToApiKeyWorkflow(container).run({ input: { id: keys[0].id, add: [channels[0].id] } });
  const publishableKey = keys[0].token;
  const newCart = async (email, title, unitPrice) => {
    const { result } = await core.createCartWorkflow(container).run({
      input: { region_id: regions[0].id, sales_channel_id: channels[0].id, currency_code: "brl", email,
        items: [{ title, quantity: 1, unit_price: unitPrice, requires_shipping: false }] },
    });
    return result;
  };
  const pixSession = async (cartId) => {
    const { result: collection } = await core.createPaymentCollectionForCartWorkflow(container).run({ input: { cart_id: cartId } });
    const { result: session } = await core.createPaymentSessionsWorkflow(container).run({
      input: { payment_collection_id: collection.id, provider_id: "pp_pix_a", data: {} },
    });
    // Past the service's 60 creates a minute the session comes back "preparing" and its charge
    // follows from the create line; seeds wait for it, as a shopper's stream would.
    if (session.data && session.data.status === "preparing") {
      const db = container.resolve("__pg_connection__");
      for (;;) {
        const row = await db("pix_checkout_charge").where({ session_id: session.id }).first();
        if (row) return { ...session, data: { ...session.data, ...row.display, charge_id: row.charge_id } };
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    return session;
  };
${body}
};
`;
}

/**
 * Runs `medusa <args>` to completion and resolves with its output; a failure rejects with the
 * tail of that output, which is all that says why. `cli` is the CLI of another Medusa install
 * (an app with its own node_modules, on another Medusa version); by default, packages/medusa's.
 * `node` is the Node.js binary to run it with (another major); by default, this process's.
 * @param {string[]} args
 * @param {{ cwd: string, env: NodeJS.ProcessEnv, cli?: string, node?: string }} options
 * @returns {Promise<string>}
 */
export function medusa(args, { cwd, env, cli: appCli = cli, node = process.execPath }) {
  return new Promise((resolve, reject) => {
    const child = spawn(node, [appCli, ...args], {
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
 * @param {string} pgUrl
 * @param {(admin: import("@medusajs/framework/mikro-orm/knex").Knex) => Promise<unknown>} work
 */
async function onMaintenanceDb(pgUrl, work) {
  const admin = knex({ client: "pg", connection: `${pgUrl}/postgres` });
  try {
    await work(admin);
  } finally {
    await admin.destroy();
  }
}

/**
 * Runs `work` while holding Postgres's advisory lock named `name` on the server at `pgUrl`:
 * benches run side by side (`npm run bench -- --smoke`) make a shared template once, not twice.
 * The lock is the session's: closing its one connection lets it go, even if `work` throws.
 * @template T
 * @param {string} pgUrl
 * @param {string} name
 * @param {() => Promise<T>} work
 * @returns {Promise<T>}
 */
export async function withDatabaseLock(pgUrl, name, work) {
  const session = knex({ client: "pg", connection: `${pgUrl}/postgres`, pool: { min: 1, max: 1 } });
  try {
    await session.raw("select pg_advisory_lock(hashtext(?))", [name]);
    return await work();
  } finally {
    await session.destroy();
  }
}

/**
 * Creates database `name` on the server at `pgUrl`, dropping a leftover of that name first;
 * a copy of database `template` when one is named (Postgres copies it file by file, far faster
 * than migrating anew).
 * @param {string} pgUrl
 * @param {string} name
 * @param {string} [template]
 */
export function createDatabase(pgUrl, name, template) {
  return onMaintenanceDb(pgUrl, async (admin) => {
    await admin.raw(`drop database if exists ${name}`);
    await admin.raw(`create database ${name}${template ? ` template ${template}` : ""}`);
  });
}

/**
 * Whether database `name` exists on the server at `pgUrl`.
 * @param {string} pgUrl
 * @param {string} name
 * @returns {Promise<boolean>}
 */
export async function databaseExists(pgUrl, name) {
  let found = false;
  await onMaintenanceDb(pgUrl, async (admin) => {
    const result = await admin.raw(`select 1 from pg_database where datname = ?`, [name]);
    found = result.rows.length > 0;
  });
  return found;
}

/**
 * Drops database `name`, closing the connections still open on it.
 * @param {string} pgUrl
 * @param {string} name
 */
export function dropDatabase(pgUrl, name) {
  return onMaintenanceDb(pgUrl, (admin) =>
    admin.raw(`drop database if exists ${name} with (force)`),
  );
}

/**
 * Starts `medusa start` in `cwd` on `port` and resolves once /health answers. If it exits or is
 * not healthy within 120 s, it is stopped and the start rejects with the tails of its stderr and
 * stdout (where Medusa logs why it stopped). `cli` and `node` as for {@link medusa}. `onStdout`
 * also receives what the process prints (Medusa's HTTP access log, in production, goes there).
 * @param {{ cwd: string, env: NodeJS.ProcessEnv, port: number, label?: string, cli?: string, node?: string, onStdout?: (text: string) => void }} options
 * @returns {Promise<{ url: string, child: import("node:child_process").ChildProcess }>}
 */
export async function startMedusa({
  cwd,
  env,
  port,
  label = "medusa start",
  cli: appCli = cli,
  node = process.execPath,
  onStdout,
}) {
  const child = spawn(node, [appCli, "start"], {
    cwd,
    env: { ...env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  // Medusa logs a failed start to stdout: its tail goes into the error, beside stderr's.
  let out = "";
  child.stdout?.on("data", (d) => {
    out = (out + d).slice(-3000);
    onStdout?.(String(d));
  });
  let err = "";
  child.stderr?.on("data", (d) => (err = (err + d).slice(-3000)));
  const url = `http://127.0.0.1:${port}`;
  // A start that fails exits, and is reported at once; this deadline only ends one that hangs.
  // Four instances booting together beside another bench and three browsers (the smoke benches
  // in `npm test`, on two cores) took more than two minutes, so it is five.
  const deadline = Date.now() + 300_000;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${label} exited:\n${err}\n${out}`);
      try {
        if ((await fetch(`${url}/health`)).ok) return { url, child };
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`${label} not healthy in 300 s`);
      await new Promise((r) => setTimeout(r, 250));
    }
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
}

/**
 * Stops `child` with SIGTERM, or SIGKILL if it is still running 10 s later.
 * @param {import("node:child_process").ChildProcess} child
 * @returns {Promise<void>}
 */
export function stopProcess(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const kill = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", () => (clearTimeout(kill), resolve()));
    child.kill("SIGTERM");
  });
}
