// Stands up a BUILT Medusa store with the BUILT plugin for the benches: a throwaway app
// directory of plain JavaScript (no ts-node anywhere), its own database, a seed run through
// `medusa exec`, and `medusa start` processes sharing that database like a scaled-out store.
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import {
  createDatabase,
  databaseExists,
  dropDatabase,
  medusa,
  packageDir,
  pixAppConfig,
  pixSeedScript,
  startMedusa,
  stopProcess,
  withDatabaseLock,
  writeApp,
} from "../../scripts/lib/built-app.mjs";

const PG = process.env.BENCH_PG_URL ?? "postgres://postgres@localhost:5432";

/**
 * BENCH_DB_TEMPLATES (set by `npm run bench`): a prefix for migrated databases the benches of
 * one run share. The first bench of the run that needs one migrates it; every bench then copies
 * it instead of migrating a database of its own (half a minute each on a busy 2-core machine).
 * The run drops them when it ends. One per topology: the Redis modules have tables of their own.
 */
const templatePrefix = process.env.BENCH_DB_TEMPLATES;

// The no-op reference route: Medusa's store middleware (publishable key) and nothing else.
const NOOP_ROUTE = `exports.GET = (req, res) => { res.json({}); };\n`;

// Runs inside the app (medusa exec): carts, one Pix session per cart, and carts without one.
const SEED_BODY = `
  const sessions = [];
  for (let i = 0; i < Number(process.env.BENCH_SESSIONS || 1); i += 1) {
    const cart = await newCart("bench@example.com", "Camiseta", 49.9);
    const session = await pixSession(cart.id);
    sessions.push({ cart_id: cart.id, session_id: session.id, charge_id: session.data.charge_id });
  }
  // Carts with no payment yet, for benches that need charges created while they run.
  const freshCarts = [];
  for (let i = 0; i < Number(process.env.BENCH_FRESH_CARTS || 0); i += 1) {
    // Each its own shopper: the line's per-e-mail limits must not see one customer.
    freshCarts.push((await newCart("cliente" + i + "@example.com", "Camiseta", 49.9)).id);
  }
  fs.writeFileSync(process.env.BENCH_SEED_OUT, JSON.stringify({ publishableKey, sessions, freshCarts }));
`;

/**
 * Creates the app and its database, migrates, seeds `sessions` Pix sessions and `freshCarts`
 * carts without a payment. With `redisUrl`, the app runs Medusa's production topology (Redis
 * event bus, workflow engine and locking), and `start` takes each instance's `workerMode`.
 * `seedBody`: another seed (a pixSeedScript body that writes its JSON to BENCH_SEED_OUT).
 * Returns { dir, env, database, seed, start(port, mode?), stop(), close() }.
 */
export async function createBenchApp({
  apiKey,
  baseUrl,
  sessions = 1,
  freshCarts = 0,
  redisUrl,
  seedBody = SEED_BODY,
}) {
  const name = `pix_bench_${process.pid}`;
  const dir = path.join(packageDir, ".medusa", `bench-app-${process.pid}`);
  writeApp(dir, "pix-bench-app", {
    "medusa-config.js": pixAppConfig({
      apiKey,
      baseUrl,
      secret: "bench",
      redisUrl,
      // BENCH_PLUGIN_OPTIONS: the plugin entry's options as JSON, to measure another store's
      // configuration (the demo's `fairness`, say).
      pluginOptions: JSON.parse(process.env.BENCH_PLUGIN_OPTIONS ?? "{}"),
    }),
    "src/api/store/bench-noop/route.js": NOOP_ROUTE,
    "src/scripts/seed.js": pixSeedScript(seedBody),
  });
  const env = {
    ...process.env,
    DATABASE_URL: `${PG}/${name}`,
    NODE_ENV: "production",
    MEDUSA_DISABLE_TELEMETRY: "true",
    LOG_LEVEL: "error",
  };
  const template = templatePrefix ? `${templatePrefix}_${redisUrl ? "redis" : "local"}` : null;
  const seedOut = path.join(dir, "seed.json");
  let seed;
  try {
    // Under the template's lock: a bench running beside this one waits for the migration
    // instead of making the same template at the same time.
    if (template) {
      await withDatabaseLock(PG, template, async () => {
        if (await databaseExists(PG, template)) return;
        await createDatabase(PG, template);
        // A template left half-migrated would fail every bench after this one in a way that
        // hides why: it goes with the failure.
        await medusa(["db:migrate"], {
          cwd: dir,
          env: { ...env, DATABASE_URL: `${PG}/${template}` },
        }).catch(async (error) => {
          await dropDatabase(PG, template).catch(() => undefined);
          throw error;
        });
      });
    }
    await createDatabase(PG, name, template ?? undefined);
    if (!template) await medusa(["db:migrate"], { cwd: dir, env });
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
    /** The environment of the app's processes (DATABASE_URL names its database). */
    env,
    /** The name of its database (on BENCH_PG_URL's server). */
    database: name,
    seed,
    /**
     * Starts one `medusa start` instance on `port` (in `mode`: "server", "worker" or "shared",
     * the default); resolves with { url, pid } when /health answers.
     */
    async start(port, mode = "shared") {
      const { url, child } = await startMedusa({
        cwd: dir,
        env: { ...env, MEDUSA_WORKER_MODE: mode },
        port,
        label: `medusa start (${mode})`,
      });
      children.push(child);
      return { url, pid: child.pid };
    },
    /** Stops the instances started so far; the database and app directory stay. */
    async stop() {
      for (const child of children.splice(0)) await stopProcess(child);
    },
    async close() {
      for (const child of children) await stopProcess(child);
      await dropDatabase(PG, name).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
