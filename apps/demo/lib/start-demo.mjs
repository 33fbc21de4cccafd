// The whole demo in one call: database, sandbox, migrations, seed, store and storefront.
// `npm run demo` (bin/demo.mjs) is a thin command around it; end-to-end tests import it.
import { randomBytes } from "node:crypto";
import { planAdmin } from "./admin-build.mjs";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { resolveDatabase } from "./database.mjs";
import { migrate, remindAt, seed, startStore } from "./medusa.mjs";
import { dataDir as defaultDataDir } from "./paths.mjs";
import { choosePorts, defaultPorts } from "./ports.mjs";
import { claimRunFolder, runDatabaseName } from "./run-folder.mjs";
import { startMailbox } from "./mailbox.mjs";
import { startSandboxFor } from "./sandbox.mjs";
import { startStorefront } from "./storefront.mjs";

const host = "127.0.0.1";

/** How many runs' log folders a data folder keeps. */
const KEPT_RUN_LOGS = 10;

/**
 * A log folder of this run's own (`logs/2026-11-24T22-55-01-4242`) in the run folder's `logs/`;
 * the oldest beyond the last {@link KEPT_RUN_LOGS} are removed. No other running demo writes
 * there (lib/run-folder.mjs), so the pruning never takes a running demo's logs.
 * @param {string} logsDir
 * @returns {string}
 */
function runLogDir(logsDir) {
  mkdirSync(logsDir, { recursive: true });
  const stamp = new Date().toISOString().slice(0, 19).replace(/:/g, "-");
  const dir = join(logsDir, `${stamp}-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const runs = readdirSync(logsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  for (const old of runs.slice(0, Math.max(0, runs.length - KEPT_RUN_LOGS))) {
    rmSync(join(logsDir, old), { recursive: true, force: true });
  }
  return dir;
}

/**
 * Starts the demo store and resolves once every part answers. On any failure it stops what
 * it had started and rethrows, so nothing is left running.
 * @param {import("./index.mjs").StartDemoOptions} [options]
 * @returns {Promise<import("./index.mjs").Demo>}
 */
export async function startDemo(options = {}) {
  const startedAt = performance.now();
  const variant = options.variant ?? "a";
  const log = options.log ?? (() => {});
  // A folder of this run's own: a second demo from the same checkout gets `demo-2/`.
  const runFolder = claimRunFolder(options.dataDir ?? defaultDataDir);
  const dataDir = runFolder.dir;
  let logDir;
  try {
    logDir = runLogDir(join(dataDir, "logs"));
  } catch (error) {
    runFolder.release();
    throw error;
  }
  const admin = {
    email: options.admin?.email ?? "admin@pix-checkout.test",
    password: options.admin?.password ?? "pix-checkout-demo",
  };
  // Like a merchant's setup: the webhook URL carries a secret token the plugin checks. A
  // fresh one per start is enough, since the sandbox learns the URL at the same time.
  // What a storefront server (such as apps/next-storefront) signs each shopper's address with,
  // so the store tells its shoppers apart; new each run, like the webhook's.
  const storefrontSecret = randomBytes(32).toString("hex");
  const webhookSecret =
    options.webhookSecret === null
      ? undefined
      : (options.webhookSecret ?? randomBytes(18).toString("base64url"));
  /** @type {Record<string, number>} */
  const timings = {};
  // One-shot commands (migrate, seed) in flight; long-lived parts register a closer instead.
  /** @type {Set<import("./child-process.mjs").Child>} */
  const children = new Set();
  /** @param {import("./child-process.mjs").Child} child */
  const track = (child) => {
    children.add(child);
    void child.exited.then(() => children.delete(child));
  };

  /** @type {Array<() => Promise<void>>} */
  const closers = [async () => runFolder.release()];
  let stopping;
  const stop = () => {
    stopping ??= (async () => {
      await Promise.all([...children].map((child) => child.stop()));
      // Newest first: storefront and store before the sandbox they call, the database last.
      for (const close of closers.reverse()) await close().catch(() => {});
    })();
    return stopping;
  };

  /**
   * @template T
   * @param {string} name
   * @param {() => Promise<T>} work
   * @returns {Promise<T>}
   */
  const phase = async (name, work) => {
    const began = performance.now();
    const result = await work();
    timings[name] = Math.round(performance.now() - began);
    log(`${name} ready in ${(timings[name] / 1000).toFixed(1)} s`);
    return result;
  };

  try {
    // A port asked for must be free; a default that is taken (another demo's) gives way to a
    // free one. The embedded PostgreSQL is apart: a server on its port is this folder's own,
    // left running by a demo killed hard, and is reused (lib/database.mjs).
    const { embeddedPostgres: askedEmbeddedPort, ...asked } = options.ports ?? {};
    /** @type {Record<string, number>} */
    const served = {
      store: defaultPorts.store,
      storefront: defaultPorts.storefront,
      sandbox: defaultPorts.sandbox,
    };
    const chosen = await choosePorts(
      host,
      options.mailbox === false
        ? served
        : { ...served, mailSmtp: defaultPorts.mailSmtp, mailWeb: defaultPorts.mailWeb },
      asked,
    );
    const ports = /** @type {import("./index.mjs").Demo["ports"]} */ ({
      store: chosen.ports.store,
      storefront: chosen.ports.storefront,
      sandbox: chosen.ports.sandbox,
      mailSmtp: chosen.ports.mailSmtp,
      mailWeb: chosen.ports.mailWeb,
      embeddedPostgres: askedEmbeddedPort ?? defaultPorts.embeddedPostgres + runFolder.number - 1,
    });

    const database = await phase("database", () =>
      resolveDatabase({
        databaseUrl: options.embeddedPostgres
          ? undefined
          : runDatabaseUrl(options.databaseUrl ?? process.env.DATABASE_URL, runFolder.number),
        embedded: options.embeddedPostgres === true,
        databaseName: runDatabaseName(
          options.databaseName ?? "pix_checkout_demo",
          runFolder.number,
        ),
        embeddedPort: ports.embeddedPostgres,
        embeddedDataDir: join(dataDir, "postgres"),
        logDir,
        log,
      }),
    );
    closers.push(database.stop);

    const storeOrigin = `http://localhost:${ports.store}`;
    const sandbox = await phase("sandbox", () =>
      startSandboxFor({
        variant,
        host,
        port: ports.sandbox,
        storeOrigin: `http://${host}:${ports.store}`,
        webhookSecret,
        statePath:
          options.sandboxStatePath === null
            ? undefined
            : (options.sandboxStatePath ?? join(dataDir, `sandbox-state-${variant}.json`)),
      }),
    );
    closers.push(() => sandbox.close());

    // Every e-mail of the store, readable in a web inbox; kept across runs.
    const mailbox =
      options.mailbox === false
        ? null
        : await phase("mailbox", () =>
            startMailbox({
              host,
              smtpPort: /** @type {number} */ (ports.mailSmtp),
              webPort: /** @type {number} */ (ports.mailWeb),
              directory: join(dataDir, options.mailDirectory ?? "mail"),
              logDir,
            }),
          );
    if (mailbox) closers.push(() => mailbox.close());

    // Built once in the background, the admin is then served at once (lib/admin-build.mjs).
    // Medusa compiles it at the first visit only when NODE_ENV is exactly "development", and
    // treats every NODE_ENV starting with "dev" as development elsewhere (its request log, its
    // database options): "dev" is development with the admin served built.
    const adminPlan = options.adminBuild
      ? planAdmin({ storeOrigin })
      : /** @type {const} */ ({ serving: "compiled", why: "", build: null });
    if (adminPlan.serving === "built") closers.push(async () => adminPlan.release());
    const run = {
      logDir,
      track,
      env: {
        ...process.env,
        NODE_ENV: adminPlan.serving === "built" ? "dev" : "development",
        MEDUSA_DISABLE_TELEMETRY: "true",
        // The admin's development server opens a websocket port of its own; keep it on loopback.
        HMR_BIND_HOST: host,
        DATABASE_URL: database.url,
        // Two demos on one Redis would take each other's events and locks: each run its own
        // Redis database.
        ...(process.env.REDIS_URL
          ? { REDIS_URL: runRedisUrl(process.env.REDIS_URL, runFolder.number) }
          : {}),
        PORT: String(ports.store),
        MEDUSA_BACKEND_URL: storeOrigin,
        PIX_DEMO_STOREFRONT_PORT: String(ports.storefront),
        PIX_DEMO_EXTRA_STORE_ORIGINS: (options.extraStoreOrigins ?? []).join(","),
        PIX_DEMO_SANDBOX_PORT: String(sandbox.port),
        PIX_DEMO_ADMIN_EMAIL: admin.email,
        PIX_DEMO_ADMIN_PASSWORD: admin.password,
        PIX_CHECKOUT_API_KEY: sandbox.apiKey,
        PIX_CHECKOUT_BASE_URL: sandbox.baseUrl,
        PIX_CHECKOUT_VARIANT: variant,
        PIX_CHECKOUT_WEBHOOK_SECRET: webhookSecret ?? "",
        PIX_STOREFRONT_SECRET: storefrontSecret,
        ...(mailbox ? { PIX_DEMO_SMTP_PORT: String(mailbox.smtpPort) } : {}),
      },
    };

    await phase("migrate", () => migrate(run));

    // The store boots while the seed runs: both only need the migrated schema, and the
    // store reads the seeded rows per request. The storefront waits for the seed's key.
    // Each part registers its closer as soon as it runs, so a failure of the other stops it.
    const storeReady = phase("store", async () => {
      const child = await startStore(run, { host, port: ports.store });
      closers.push(() => child.stop());
    });
    const storefrontReady = phase("seed", () => seed(run, join(dataDir, "seed-output.json"))).then(
      async (seeded) => {
        if (options.storefront === false) return { seeded, storefront: null };
        const storefront = await phase("storefront", () =>
          startStorefront({
            host,
            port: ports.storefront,
            config: {
              backendUrl: storeOrigin,
              publishableKey: seeded.publishableKey,
              regionId: seeded.regionId,
              sandboxUrl: sandbox.url,
            },
          }),
        );
        closers.push(() => storefront.close());
        return { seeded, storefront };
      },
    );
    // Wait for both, even when one fails, so the stop below sees every started part.
    const [storeResult, storefrontResult] = await Promise.allSettled([storeReady, storefrontReady]);
    if (storeResult.status === "rejected") throw storeResult.reason;
    if (storefrontResult.status === "rejected") throw storefrontResult.reason;
    const { seeded, storefront } = storefrontResult.value;

    /**
     * The demo's clock: moves the sandbox's (its charges expire, its webhooks go), then runs
     * the plugin's reminders at that time, so the whole cadence shows in minutes.
     * @param {number} ms
     */
    const moveClock = async (ms) => {
      const moved = await fetch(`${sandbox.url}/__sandbox/clock`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ advance_ms: ms }),
      });
      if (!moved.ok) throw new Error(`the sandbox refused to move its clock (${moved.status})`);
      const { now } = /** @type {{ now: string }} */ (await moved.json());
      // The expiries the move caused reach the store as webhooks; give them a moment.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const at = new Date(now);
      const report = await remindAt(run, at, join(logDir, "remind-output.json"));
      return { at, report };
    };

    const readyInMs = Math.round(performance.now() - startedAt);
    // After readiness, at low priority: the shopper's first pages come first.
    const adminBuild =
      adminPlan.serving === "compiled" && adminPlan.build
        ? adminPlan.build(run.env, logDir, track)
        : null;
    return {
      urls: {
        store: storeOrigin,
        admin: `${storeOrigin}/app`,
        storefront: storefront?.url ?? null,
        sandbox: sandbox.url,
        webhook: sandbox.webhookUrlForDisplay,
        mail: mailbox?.url ?? null,
      },
      mailbox,
      admin,
      publishableKey: seeded.publishableKey,
      storefrontSecret,
      regionId: seeded.regionId,
      paymentProviders: seeded.paymentProviders,
      variant,
      database: { source: database.source, url: database.url },
      sandbox: sandbox.handle,
      ports,
      movedPorts: /** @type {(keyof import("./index.mjs").DemoPorts)[]} */ (chosen.moved),
      run: runFolder.number,
      dataDir,
      logDir,
      timings,
      readyInMs,
      adminBundle: {
        serving: adminPlan.serving,
        why: adminPlan.serving === "compiled" && adminPlan.why ? adminPlan.why : null,
        building: adminBuild,
      },
      moveClock,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * The database URL run `number` uses: its database name gets the run's suffix
 * ({@link runDatabaseName}), so a second demo beside the first never shares its database.
 * @param {string | undefined} url
 * @param {number} number
 */
function runDatabaseUrl(url, number) {
  if (!url || number === 1) return url;
  const parsed = new URL(url);
  const name = decodeURIComponent(parsed.pathname.slice(1));
  if (!name) return url;
  parsed.pathname = `/${encodeURIComponent(runDatabaseName(name, number))}`;
  return parsed.toString();
}

/**
 * The Redis URL run `number` uses: the same server, database index `number - 1` above the one
 * the URL names, so a second demo's event bus, workflows and locks stay apart from the first's.
 * @param {string} url
 * @param {number} number
 */
export function runRedisUrl(url, number) {
  if (number === 1) return url;
  const parsed = new URL(url);
  const base = Number(parsed.pathname.slice(1) || "0");
  parsed.pathname = `/${(Number.isInteger(base) ? base : 0) + number - 1}`;
  return parsed.toString();
}
