#!/usr/bin/env node
// `npm run chaos`: many checkouts against a scaled-out store while the payment service
// misbehaves, then checks that nothing was lost or doubled. Exits 1 on any violation.
//
// Topology: two `medusa start` server instances and one worker (MEDUSA_WORKER_MODE), all on
// one fresh Postgres database and the local Redis (event bus, workflow engine, locking), behind
// a round-robin loopback balancer that shoppers and webhooks both go through. Two sandboxes
// (Variant A: Pix + boleto; Variant B: Pix) inject faults the whole time. Instance 1 is
// restarted mid-run. The first wave is a Black Friday minute: 200 checkouts started within 60 s,
// far over the service's 60 creates a minute; past the budget a shopper waits in the create
// line ("preparing"), and a refusal for the limit is a violation.
// Carts mix products and quantities (many amounts), one in four carries the PIX10 promotion
// (a total with a fraction of a cent), and a burst of shoppers at one same price runs while
// Variant A loses create responses (before and after the charge is made).
// The infrastructure fails too, while the paced checkouts after the bursts run: the run's own
// PostgreSQL restarts twice, its own Redis is killed and started empty, the worker is killed
// with SIGKILL and started again, the payment service is unreachable for 60 s (every call
// hangs), and server-1 restarts under shoppers who follow their payment on the SSE stream.
// After them, besides the cart stories (a cart edited or switched after a code was shown):
// underpaid Pix collections (the bank credits less than the code asked; pay-first with the
// shopper completing the cart right after paying, or order-first; some get `charge.paid` twice),
// which no door may capture above what was credited, and collections whose two codes are paid
// at nearly the same moment, which must end as one capture and one refund due.
// Each shopper is a client of its own (its socket bound to its own loopback address; the
// balancer says who called in X-Forwarded-For, as a real one does, and the store trusts only the
// balancer), and beside the burst one client (127.0.0.250) floods CHAOS_FLOOD carts with a
// session each over the same minute, 10 at a time, never showing a code, each request with a
// made-up X-Forwarded-For of its own in front of the balancer's entry: each of its requests must be served or refused cleanly (429
// too_many_waiting_creates with Retry-After), the store must mail none of its addresses, the
// flood may have no more than its share (3) of creates sent in any minute, and no burst shopper
// may be sent later than the budget allows with that share ahead (+10 % and 5 s). The checker
// also counts burst shoppers whose code came later than that as they saw it, and code messages
// to addresses that placed no order.
// During the same minute an attacker with many addresses plants the ids of cheap charges it
// paid, spelled every way the service reads them, in the sessions of dearer carts and
// completes them: no such cart may become a paid order, and no answer may be a 5xx. A burst
// shopper whose own create the service failed in passing is allowed its retries (the line's
// documented pause) on top of the schedule.
// Options (environment): CHAOS_CHECKOUTS (400), CHAOS_BURST (200, started within a minute),
// CHAOS_FLOOD (150 carts beside the burst; 0 for none), CHAOS_FLOOD_ADDRESSES (1: the flood's
// addresses; with more, each holds its own share, and the checker bounds what they take from a
// burst shopper by one create per address per minute), CHAOS_PLANTED (30 attacked carts),
// CHAOS_CONCURRENCY (12), CHAOS_STORIES (24), CHAOS_UNDERPAID (12), CHAOS_PAID_TWICE (8),
// CHAOS_FAULTS (a comma list of pg-restart, redis-restart, worker-kill, api-outage,
// server-restart; default all; "none" for the application faults only), CHAOS_SHARED_INFRA=1
// (use CHAOS_PG_URL, default postgres://postgres@localhost:5432, and REDIS_URL instead of a
// cluster and a Redis of the run's own; the pg and redis faults are then skipped), CHAOS_KEEP=1
// keeps database and logs.
// CHAOS_REDIS=sentinel: the run's Redis is a primary, a replica and three sentinels, every Redis
// module of Medusa connects through the sentinels, and the Redis fault is `redis-failover`: the
// primary is killed (SIGKILL) 30 s into the Black Friday minute and again in the paced wave, and
// a sentinel promotes the replica; the merchant's health card is read all the while.
// CHAOS_LOCKING=postgres: Medusa's Postgres locking provider instead of locking-redis.
import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { createServer, request as httpRequest } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { once } from "node:events";
import { AsyncLocalStorage } from "node:async_hooks";
import { Agent as HttpAgent } from "node:http";
import { events } from "fetch-event-stream";
import {
  ensureDebianBinary,
  freePort,
  startBlackHole,
  startPostgres,
  startRedis,
  startRedisSentinel,
} from "./infra.mjs";
import { ledgerFigureDisagreements } from "../support/ledger-figures.mjs";
import { runOnNode24 } from "../../scripts/on-node-24.mjs";

// The store's processes are this one's binary (`medusa()` spawns `process.execPath`): Node.js
// 24, as in `npm test`, whatever the shell's is.
runOnNode24(import.meta.url, "npm run chaos");

const root = new URL("../..", import.meta.url).pathname;
const appDir = new URL("./app", import.meta.url).pathname;
const require = createRequire(join(root, "package.json"));
const medusaCli = require.resolve("@medusajs/cli/cli.js");
/** The built plugin the chaos app loads (resolved from the app, as Medusa resolves it). */
const pluginBuild = join(
  dirname(createRequire(join(appDir, "package.json")).resolve("@pix-checkout/medusa/package.json")),
  ".medusa/server",
);
/**
 * The build's files and their newest change. A rebuild during the run would have the processes
 * the run restarts (the worker, server-1) load other code than the rest, on a database migrated
 * for the first: the run's findings would then be about neither build.
 */
function buildStamp() {
  let files = 0;
  let newest = 0;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else {
        files += 1;
        newest = Math.max(newest, statSync(path).mtimeMs);
      }
    }
  };
  try {
    walk(pluginBuild);
  } catch (error) {
    // Missing, or being rebuilt right now.
    return { files: -1, newest: 0, error: error.message };
  }
  return { files, newest };
}
const pg = require("pg");
const { startSandbox } = await import("@pix-checkout/sandbox");

const CHECKOUTS = Number(process.env.CHAOS_CHECKOUTS ?? 400);
const CONCURRENCY = Number(process.env.CHAOS_CONCURRENCY ?? 12);
/** Black Friday: this many checkouts start within one minute, far over 60 creates a minute. */
const BURST = Math.min(CHECKOUTS, Number(process.env.CHAOS_BURST ?? 200));
const BURST_SPREAD_MS = 60_000;
const FLOOD = Number(process.env.CHAOS_FLOOD ?? 150);
const FLOOD_AT_ONCE = 10;
/**
 * How many addresses the flood comes from: 1 (127.0.0.250, with a made-up X-Forwarded-For on
 * each request), or up to 250 (127.4.0.1 onwards, its carts dealt round them), an attacker
 * with many real addresses, each a client of its own with its own share.
 */
const FLOOD_ADDRESSES = Math.min(250, Math.max(1, Number(process.env.CHAOS_FLOOD_ADDRESSES ?? 1)));
const floodAddressOf = (k) =>
  FLOOD_ADDRESSES === 1 ? "127.0.0.250" : `127.4.0.${1 + (k % FLOOD_ADDRESSES)}`;
/** The plugin's default `fairness.clientCreatesPerMinute`: what one address may take at once. */
const FLOOD_SHARE = 3;
/**
 * Carts an attacker completes during the Black Friday minute, each from an address of its own
 * (127.3.x.x), with a paid cheap charge's id planted in the session's `data` in a spelling the
 * payment service reads (upper case, cut short, its UUID, a leading space).
 */
const PLANTED = Number(process.env.CHAOS_PLANTED ?? 30);
/** Shopper i's own address: 127.1.0.1 onwards (stories: 127.2.0.1 onwards). */
const addressOf = (i, net = 1) => `127.${net}.${Math.floor(i / 250)}.${1 + (i % 250)}`;
/** The address the current shopper's requests leave from (see `call`). */
const shopperAddress = new AsyncLocalStorage();
const agents = new Map();
/**
 * `fetch` from `localAddress`, over node:http (the global fetch cannot bind a local address).
 * Answers what `call` reads: `status`, `headers.get`, `text()`.
 */
function fetchFrom(url, { method, headers, body, signal }, localAddress) {
  let agent = agents.get(localAddress);
  if (!agent) {
    agent = new HttpAgent({ keepAlive: true, localAddress });
    agents.set(localAddress, agent);
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, agent, signal }, (res) => {
      const chunks = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("end", () =>
        resolve({
          status: res.statusCode,
          headers: { get: (name) => res.headers[name.toLowerCase()] ?? null },
          text: async () => Buffer.concat(chunks).toString("utf8"),
        }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}
/** Runs `fn` as the client at `address`: every store call it makes leaves from there. */
const asClient = (address, fn) => shopperAddress.run(address, fn);
const SAME_PRICE = Number(process.env.CHAOS_SAME_PRICE ?? 30);
const STORIES = Number(process.env.CHAOS_STORIES ?? 24);
/** Pix collections the bank credits less than the code asked (the sandbox's amount route). */
const UNDERPAID = Number(process.env.CHAOS_UNDERPAID ?? 12);
/** Collections with two payable codes that the shopper pays at nearly the same moment. */
const PAID_TWICE = Number(process.env.CHAOS_PAID_TWICE ?? 8);
const OWN_INFRA = process.env.CHAOS_SHARED_INFRA !== "1";
/** "single" (one redis-server) or "sentinel" (a primary, a replica, three sentinels). */
const REDIS_MODE = process.env.CHAOS_REDIS ?? "single";
if (!["single", "sentinel"].includes(REDIS_MODE)) throw new Error(`CHAOS_REDIS=${REDIS_MODE}?`);
if (REDIS_MODE === "sentinel" && !OWN_INFRA)
  throw new Error("CHAOS_REDIS=sentinel needs own infra");
/** Medusa's locking provider: "redis" (locking-redis) or "postgres" (locking-postgres). */
const LOCKING = process.env.CHAOS_LOCKING ?? "redis";
if (!["redis", "postgres"].includes(LOCKING)) throw new Error(`CHAOS_LOCKING=${LOCKING}?`);
// Behind Sentinel, the Redis fault is a failover instead of a restart of the only node.
const REDIS_FAULT = REDIS_MODE === "sentinel" ? "redis-failover" : "redis-restart";
const ALL_FAULTS = ["pg-restart", REDIS_FAULT, "worker-kill", "api-outage", "server-restart"];
/** Into the Black Friday minute, the first failover (Sentinel mode). */
const BURST_FAILOVER_S = 30;
const FAULTS = new Set(
  (process.env.CHAOS_FAULTS ?? ALL_FAULTS.join(","))
    .split(",")
    .map((f) => f.trim())
    .filter((f) => f && f !== "none"),
);
for (const f of FAULTS) if (!ALL_FAULTS.includes(f)) throw new Error(`unknown fault "${f}"`);
if (!OWN_INFRA) {
  FAULTS.delete("pg-restart");
  FAULTS.delete(REDIS_FAULT);
}
/** Shoppers who stay wait this long for "paid" (a Pix lives for minutes). */
const FOLLOW_MS = 300_000;

/**
 * Medusa's own 409 `invalid_state_error` on its cart routes: a cart workflow could not take the
 * cart's lock. The plugin's routes answer their own codes and are not counted here.
 */
function isMedusaConflict(answer) {
  const code = answer.code ?? answer.type;
  return (
    answer.status === 409 &&
    !isPluginStep(answer) &&
    (code === "invalid_state_error" || code === "conflict")
  );
}

/** The payment step: the session create (Medusa's route, the plugin's middleware) and the plugin's routes. */
function isPluginStep(answer) {
  return (
    answer.path.includes("/payment-sessions") || answer.path.startsWith("/store/pix-checkout/")
  );
}
/** After a fault ends, answers within this long still count as inside its window. */
const FAULT_GRACE_MS = 20_000;
const API_KEY = "sk_live_chaos_5ecret_never_show_me";
const WEBHOOK_SECRET = `chaos-${process.pid}-0123456789abcdef`;
/** The merchant who reads the figures the checker holds against the ledger. */
const ADMIN = { email: "lojista@chaos.example.com", password: `chaos-${process.pid}-lojista` };
const RECONCILE_MS = 60_000;
const DB = `pix_chaos_${process.pid}`;
const logDir = join(tmpdir(), `pix-chaos-${process.pid}`);
mkdirSync(logDir, { recursive: true });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const started = Date.now();
const log = (line) => console.log(`[chaos ${((Date.now() - started) / 1000).toFixed(0)}s] ${line}`);

// ---------------------------------------------------------------- processes
const children = new Set();
/** Runs the Medusa CLI in the chaos app; resolves with the child once `ready` says so. */
function medusa(name, args, env) {
  const out = createWriteStream(join(logDir, `${name}.log`), { flags: "a" });
  const child = spawn(process.execPath, [medusaCli, ...args], {
    cwd: appDir,
    env: { ...process.env, ...baseEnv, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  child.stdout.pipe(out);
  child.stderr.pipe(out);
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}
async function runToEnd(name, args, env = {}) {
  const child = medusa(name, args, env);
  const [code] = await once(child, "exit");
  if (code !== 0) throw new Error(`${name} failed (exit ${code}); see ${logDir}/${name}.log`);
}
async function stop(child) {
  if (!child || child.exitCode !== null) return;
  stopping.add(child);
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid, "SIGKILL");
      lastKillAt = Date.now();
    } catch {
      // already gone
    }
  }, 10_000);
  await once(child, "exit");
  clearTimeout(timer);
}
async function waitHealthy(port, child, name) {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited; see ${logDir}/${name}.log`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health`);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${name} not healthy after 180 s`);
}
/** Processes the run stops or kills on purpose; any other exit is a crash, and a finding. */
const stopping = new Set();
const crashes = [];
async function startInstance(name, port, mode) {
  const child = medusa(name, ["start", "--host", "127.0.0.1", "--port", String(port)], {
    MEDUSA_WORKER_MODE: mode,
    PORT: String(port),
  });
  await waitHealthy(port, child, name);
  child.once("exit", (code, signal) => {
    if (stopping.has(child) || shuttingDown) return;
    crashes.push(`${name} exited by itself (${signal ?? code}) ${faultsSoFar()}`);
    // The run goes on, as an orchestrator would restart it.
    void startInstance(name, port, mode).then(
      (again) => (instances[keyOf[name]] = again),
      (error) => crashes.push(`${name} could not be started again: ${error.message}`),
    );
  });
  return child;
}
const keyOf = { worker: "worker", "server-1": "s1", "server-2": "s2" };
/** When the run last SIGKILLed a Medusa process (a capture it held waits for its lease). */
let lastKillAt = 0;
/** The plugin's capture claim lease (packages/medusa: a claim lapses after 2 minutes). */
const CLAIM_LEASE_MS = 120_000;
let shuttingDown = false;

// ---------------------------------------------------------------- balancer
/** Round-robin over the server instances that answer; a down one is skipped, not fatal. */
function startBalancer(ports) {
  let next = 0;
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = Buffer.concat(chunks);
    for (let attempt = 0; attempt < ports.length; attempt += 1) {
      const port = ports[next++ % ports.length];
      const ok = await new Promise((resolve) => {
        const upstream = httpRequest(
          {
            host: "127.0.0.1",
            port,
            method: req.method,
            path: req.url,
            // Who called, as a real load balancer says it (the plugin trusts one hop).
            headers: {
              ...req.headers,
              "x-forwarded-for": [req.headers["x-forwarded-for"], req.socket.remoteAddress]
                .filter(Boolean)
                .join(", "),
            },
          },
          (up) => {
            res.writeHead(up.statusCode ?? 502, up.headers);
            up.pipe(res);
            // An instance that dies mid-answer (a killed server under an open SSE stream)
            // closes the shopper's connection too, as a real load balancer does; otherwise
            // the shopper would wait on a stream nobody writes to.
            up.once("close", () => {
              if (!up.complete) res.destroy();
            });
            resolve(true);
          },
        );
        upstream.on("error", () => resolve(false));
        upstream.end(body);
      });
      if (ok) return;
    }
    res.writeHead(502, { "content-type": "application/json" });
    res.end(JSON.stringify({ code: "balancer_no_upstream", message: "no instance answered" }));
  });
  // A real balancer keeps idle client connections about a minute (Node's default is 5 s):
  // a shopper's keep-alive socket reused just as the balancer closes it is a hang-up of the
  // harness, not of the store.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

// ---------------------------------------------------------------- setup
const postgres = OWN_INFRA
  ? await startPostgres(join(logDir, "pg-data"), await freePort(), join(logDir, "postgres.log"))
  : undefined;
if (REDIS_MODE === "sentinel") ensureDebianBinary("redis-sentinel", "redis-sentinel");
const redis =
  REDIS_MODE === "sentinel"
    ? undefined
    : OWN_INFRA
      ? await startRedis(await freePort(), join(logDir, "redis.log"))
      : undefined;
const sentinel =
  REDIS_MODE === "sentinel"
    ? await startRedisSentinel(join(logDir, "redis-sentinel"), join(logDir, "redis.log"))
    : undefined;
const PG_URL = postgres?.url ?? process.env.CHAOS_PG_URL ?? "postgres://postgres@localhost:5432";
// Behind Sentinel the modules still want a URL; ioredis asks the sentinels instead of its host.
const REDIS_URL = sentinel
  ? `redis://127.0.0.1:${await sentinel.primary()}`
  : (redis?.url ?? process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
const admin = new pg.Pool({ connectionString: `${PG_URL}/postgres`, max: 1 });
admin.on("error", () => undefined);
await admin.query(`create database "${DB}"`);
const sandboxA = await startSandbox({ variant: "a", keys: [API_KEY] });
const sandboxB = await startSandbox({ variant: "b", keys: [API_KEY] });
// The store reaches each sandbox through a relay that can become a black hole (api-outage).
const holeA = await startBlackHole(Number(new URL(sandboxA.baseUrl).port));
const holeB = await startBlackHole(Number(new URL(sandboxB.baseUrl).port));
const throughHole = (sandbox, hole) => {
  const url = new URL(sandbox.baseUrl);
  url.port = String(hole.port);
  return url.toString().replace(/\/$/, "");
};
const baseEnv = {
  DATABASE_URL: `${PG_URL}/${DB}`,
  REDIS_URL,
  ...(sentinel
    ? {
        REDIS_SENTINELS: sentinel.sentinels.map((s) => `${s.host}:${s.port}`).join(","),
        REDIS_SENTINEL_MASTER: sentinel.master,
      }
    : {}),
  CHAOS_LOCKING: LOCKING,
  PIX_API_KEY: API_KEY,
  PIX_SANDBOX_A_URL: throughHole(sandboxA, holeA),
  PIX_SANDBOX_B_URL: throughHole(sandboxB, holeB),
  PIX_WEBHOOK_SECRET: WEBHOOK_SECRET,
  NODE_ENV: "production",
};
let db;
let balancer;
const instances = {};
const violations = [];
const figures = {};
/** Every fault injected: name, start and end (ms since the epoch). */
const faultLog = [];
const since = (at) => `${((at - started) / 1000).toFixed(0)}s`;
/** " [after: pg-restart@95s, …]": the faults that had started by now, for a finding's line. */
function faultsSoFar(from = 0) {
  const after = faultLog.filter((f) => f.start >= from).map((f) => `${f.name}@${since(f.start)}`);
  return after.length ? `[after: ${after.join(", ")}]` : "[before any infrastructure fault]";
}

async function teardown() {
  shuttingDown = true;
  await Promise.all([...children].map((child) => stop(child)));
  balancer?.closeAllConnections?.();
  balancer?.close();
  await sandboxA.close();
  await sandboxB.close();
  await holeA.close();
  await holeB.close();
  await db?.end().catch(() => undefined);
  // A failed run keeps its database and logs for the post-mortem.
  const keep = process.env.CHAOS_KEEP || violations.length > 0;
  if (!keep) {
    await admin.query(`drop database if exists "${DB}" with (force)`).catch(() => undefined);
  }
  await admin.end().catch(() => undefined);
  await redis?.stop();
  await sentinel?.stop();
  // Stopped before its data directory (inside the log directory) goes; pg_ctl needs it.
  postgres?.stop();
  if (!keep) {
    postgres?.remove();
    rmSync(logDir, { recursive: true, force: true });
  }
}
process.once("SIGINT", () => void teardown().then(() => process.exit(130)));

try {
  const builtAtStart = buildStamp();
  if (builtAtStart.error)
    throw new Error(`no plugin build (${builtAtStart.error}); build it first`);
  log(`Medusa processes run on Node.js ${process.version} (${process.execPath})`);
  log(
    `plugin build ${pluginBuild}: ${builtAtStart.files} files, newest ${new Date(builtAtStart.newest).toISOString()}`,
  );
  log(
    `Redis: ${sentinel ? `behind Sentinel (master "${sentinel.master}", sentinels ${sentinel.sentinels.map((x) => x.port).join(", ")})` : REDIS_URL}; locking: locking-${LOCKING}`,
  );
  log(`migrating ${DB} and seeding (logs in ${logDir})`);
  await runToEnd("migrate", ["db:migrate"]);
  const seedOut = join(logDir, "seed.json");
  await runToEnd("seed", ["exec", join(root, "apps/demo/src/scripts/seed.ts")], {
    PIX_DEMO_SEED_OUTPUT: seedOut,
  });
  const seed = JSON.parse(readFileSync(seedOut, "utf8"));
  await runToEnd("admin-user", ["user", "-e", ADMIN.email, "-p", ADMIN.password]);
  // A pool, not one client: the pg-restart fault drops every connection.
  db = new pg.Pool({ connectionString: baseEnv.DATABASE_URL, max: 4 });
  db.on("error", () => undefined);
  // The demo seed enables what it finds registered; make sure Variant B's Pix is on too.
  const providers = ["pp_pix_pix-checkout", "pp_boleto_pix-checkout", "pp_pix_b"];
  await db.query(`delete from region_payment_provider where region_id = $1`, [seed.regionId]);
  for (const id of providers) {
    await db.query(
      `insert into region_payment_provider (id, region_id, payment_provider_id) values ($1, $2, $3)`,
      [`regpp_chaos_${id}`, seed.regionId, id],
    );
  }

  log("starting worker and two server instances");
  const ports = [19101, 19102];
  [instances.worker, instances.s1, instances.s2] = await Promise.all([
    startInstance("worker", 19100, "worker"),
    startInstance("server-1", ports[0], "server"),
    startInstance("server-2", ports[1], "server"),
  ]);
  balancer = await startBalancer(ports);
  const store = `http://127.0.0.1:${balancer.address().port}`;
  await fetch(`${sandboxA.url}/__sandbox/webhook-urls`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      url: `${store}/hooks/pix-checkout/pix-checkout?token=${WEBHOOK_SECRET}`,
    }),
  });
  await fetch(`${sandboxB.url}/__sandbox/webhook-urls`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ url: `${store}/hooks/pix-checkout/b?token=${WEBHOOK_SECRET}` }),
  });
  const faults = {
    webhook_drop_rate: 0.2,
    webhook_duplicate_rate: 0.3,
    webhook_delay_ms: [0, 10_000],
    webhook_reorder: true,
    http_5xx_rate: 0.05,
    latency_ms: [5, 150],
  };
  async function setFaults(sandbox, config) {
    await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(config),
    });
  }
  for (const sandbox of [sandboxA, sandboxB]) await setFaults(sandbox, faults);

  // -------------------------------------------------------------- the merchant's health card
  /** The merchant's token, logged in once through the balancer (again after a 401). */
  let merchantToken;
  async function merchantGet(path) {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      if (!merchantToken) {
        const login = await fetch(`${store}/auth/user/emailpass`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(ADMIN),
          signal: AbortSignal.timeout(15_000),
        });
        if (login.status !== 200) return { status: login.status };
        merchantToken = (await login.json()).token;
      }
      const res = await fetch(`${store}${path}`, {
        headers: { authorization: `Bearer ${merchantToken}` },
        signal: AbortSignal.timeout(15_000),
      });
      if (res.status === 401) {
        merchantToken = undefined;
        continue;
      }
      const text = await res.text();
      let json;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: res.status, json };
    }
    return { status: 401 };
  }
  /** What the health card said while a Redis fault lasted, and up to 30 s after. */
  const healthReads = [];
  const healthWatches = [];
  async function watchHealth(entry) {
    while (entry.end === undefined || Date.now() < entry.end + 30_000) {
      const at = Date.now();
      try {
        const { status, json } = await merchantGet("/admin/pix-checkout/health");
        healthReads.push({
          entry,
          at,
          status,
          state: json?.state,
          notOk: (json?.lines ?? [])
            .filter((line) => line.state !== "ok")
            .map((line) =>
              [line.id, line.state, line.action, line.detail?.reason, line.detail?.code]
                .filter(Boolean)
                .join(" "),
            ),
        });
      } catch (error) {
        healthReads.push({ entry, at, status: 0, state: undefined, notOk: [String(error)] });
      }
      await sleep(Math.max(0, at + 3_000 - Date.now()));
    }
  }
  /**
   * One infrastructure fault: logged with its start and end (and what the act measured, when it
   * resolves `{ detail }`), the health card read while a Redis fault lasts, and a failure to
   * inject it a violation.
   */
  async function injectFault(name, act) {
    const entry = { name, start: Date.now(), end: undefined, detail: undefined };
    faultLog.push(entry);
    log(`fault: ${name}`);
    if (name.startsWith("redis-")) healthWatches.push(watchHealth(entry));
    try {
      entry.detail = (await act())?.detail;
    } catch (error) {
      violations.push(`fault ${name} could not be injected: ${error.message}`);
    }
    entry.end = Date.now();
    log(
      `fault over: ${name} (${((entry.end - entry.start) / 1000).toFixed(1)} s${entry.detail ? `; ${entry.detail}` : ""})`,
    );
  }
  /** Sentinel mode: the primary dies; what the sentinels did, in words for the table. */
  async function redisFailover() {
    const f = await sentinel.failover();
    const detail = `primary :${f.from} killed, :${f.to} promoted after ${(f.promotedMs / 1000).toFixed(1)} s, the old one its replica after ${(f.replicaBackMs / 1000).toFixed(1)} s`;
    return { detail };
  }

  // -------------------------------------------------------------- checkouts
  const key = { "x-publishable-api-key": seed.publishableKey, "content-type": "application/json" };
  const answers = [];
  /**
   * One store call, recorded. A shopper whose step fails with a 5xx or a dropped connection
   * tries again (up to 20 times); steps other than the session create must then succeed.
   */
  async function call(method, path, body, { mustSucceed = true, headers = {} } = {}) {
    for (let attempt = 0; ; attempt += 1) {
      let res;
      try {
        const from = shopperAddress.getStore();
        const init = {
          method,
          headers: { ...key, ...headers },
          ...(body ? { body: JSON.stringify(body) } : {}),
          signal: AbortSignal.timeout(120_000),
        };
        res = from
          ? await fetchFrom(`${store}${path}`, init, from)
          : await fetch(`${store}${path}`, init);
      } catch (error) {
        answers.push({
          method,
          path,
          status: 0,
          code: "network",
          text: String(error),
          at: Date.now(),
        });
        if (attempt < 20) {
          await sleep(1_500);
          continue;
        }
        throw error;
      }
      const text = await res.text();
      let json;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      // While server-1 restarts, the balancer may find no instance for a moment: not the
      // store's answer, so it is neither recorded nor held against the store.
      if (json?.code === "balancer_no_upstream" && attempt < 10) {
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        continue;
      }
      answers.push({
        method,
        path,
        status: res.status,
        code: json?.code ?? json?.type,
        text,
        at: Date.now(),
      });
      // The session create has its own "try again" loop below; other steps retry here: a 5xx,
      // and Medusa's own "conflicted with another request" (a cart workflow's lock still held
      // by an instance that was killed holding it, until the lock's 10 s lapse), which the
      // storefront shows as "try again". The checker holds either against the store outside
      // the fault windows.
      if (
        mustSucceed &&
        (res.status >= 500 || isMedusaConflict({ path, ...json, status: res.status })) &&
        attempt < 20
      ) {
        await sleep(1_500);
        continue;
      }
      if (mustSucceed && res.status >= 300) {
        throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 160)}`);
      }
      return { status: res.status, json, retryAfter: res.headers.get("retry-after") };
    }
  }
  const { json: productList } = await call(
    "GET",
    `/store/products?region_id=${seed.regionId}&limit=5`,
  );
  const variantIds = productList.products.flatMap((p) => p.variants.map((v) => v.id));
  const address = {
    first_name: "Ana",
    last_name: "Souza",
    address_1: "Rua das Flores, 100",
    city: "São Paulo",
    province: "SP",
    postal_code: "01310-100",
    country_code: "br",
    phone: "11987654321",
    metadata: { neighborhood: "Centro", number: "100" },
  };
  const kinds = [
    { method: "boleto", provider: "pp_boleto_pix-checkout", sandbox: sandboxA, orderFirst: true },
    { method: "pix", provider: "pp_pix_pix-checkout", sandbox: sandboxA, orderFirst: false },
    { method: "pix", provider: "pp_pix_b", sandbox: sandboxB, orderFirst: false },
  ];
  const outcomes = {
    created: 0,
    refused: 0,
    refusedForBudget: 0,
    queued: 0,
    paid: 0,
    expired: 0,
    errors: 0,
    redelivered: 0,
  };
  const sessions = [];

  /** A shopper told "try again" tries again, as the storefront lets them. */
  async function createSession(cartId, collectionId, provider, data = {}) {
    for (let attempt = 0; attempt < 8; attempt += 1) {
      const res = await call(
        "POST",
        `/store/payment-collections/${collectionId}/payment-sessions`,
        { provider_id: provider, data },
        { mustSucceed: false },
      );
      if (res.status === 200) {
        outcomes.created += 1;
        const session = res.json.payment_collection.payment_sessions.find(
          (s) => s.provider_id === provider,
        );
        return session.data.status === "preparing" ? codeOfQueued(session) : session;
      }
      if (res.status === 409 || res.status === 429 || res.status >= 500) {
        // Past the service's create limit a shopper must wait in the create line, never be
        // told to try again: such a refusal is a violation.
        if (/rate_limit|rate limit/i.test(JSON.stringify(res.json ?? ""))) {
          outcomes.refusedForBudget += 1;
        }
        // 409 is the plugin's "the payment service is busy, nothing was charged, try again"
        // (Medusa renders it with its generic retry text); a 5xx is retried too but is also
        // reported as a violation below.
        outcomes.refused += 1;
        // A full line says when to come back (Retry-After, 429); the element tells the
        // shopper "tente de novo em um minuto", and the shopper does.
        const retryAfterS = res.status === 429 ? Number(res.retryAfter) : NaN;
        await sleep(retryAfterS > 0 ? retryAfterS * 1000 : 2_000 * (attempt + 1));
      } else {
        throw new Error(`session refused ${res.status}: ${JSON.stringify(res.json).slice(0, 200)}`);
      }
    }
    throw new Error(`cart ${cartId}: no session after 8 tries`);
  }

  /**
   * A session answered "preparing" (the minute's creates are spent, its code waits in the
   * create line): the shopper waits on the session route, as the element does without a
   * stream, until the code is there. The charge id, which only the plugin's table holds, is
   * what the chaos needs to pay it at the sandbox.
   */
  async function codeOfQueued(session) {
    outcomes.queued += 1;
    const deadline = Date.now() + 5 * 60_000;
    while (Date.now() < deadline) {
      const { json } = await call("GET", `/store/pix-checkout/sessions/${session.id}`, undefined, {
        mustSucceed: false,
      });
      if (json?.pix || json?.boleto) {
        const { rows } = await db
          .query(
            `select charge_id from pix_checkout_charge where session_id = $1 and deleted_at is null`,
            [session.id],
          )
          .catch(() => ({ rows: [] }));
        if (rows[0]) return { ...session, data: { ...session.data, charge_id: rows[0].charge_id } };
      } else if (json?.status && json.status !== "preparing") {
        throw new Error(`queued session ${session.id} ended ${json.status}`);
      }
      await sleep(1_000);
    }
    throw new Error(`queued session ${session.id}: no code within 5 min`);
  }

  /**
   * A cart as the storefront builds it: a line item, optionally PIX10, an address and a
   * shipping method; then its payment collection.
   */
  async function readyCart(email, variantId, { quantity = 1, promo = false } = {}) {
    const { json: created } = await call("POST", "/store/carts", {
      region_id: seed.regionId,
      email,
    });
    const cartId = created.cart.id;
    await call("POST", `/store/carts/${cartId}/line-items`, { variant_id: variantId, quantity });
    if (promo) await call("POST", `/store/carts/${cartId}/promotions`, { promo_codes: ["PIX10"] });
    await call("POST", `/store/carts/${cartId}`, {
      shipping_address: address,
      billing_address: address,
    });
    const { json: options } = await call("GET", `/store/shipping-options?cart_id=${cartId}`);
    await call("POST", `/store/carts/${cartId}/shipping-methods`, {
      option_id: options.shipping_options[0].id,
    });
    const { json: collection } = await call("POST", "/store/payment-collections", {
      cart_id: cartId,
    });
    return { cartId, collectionId: collection.payment_collection.id };
  }

  /** The sandbox's control route; it is outside the fault injector, so repeat a transient failure. */
  async function settleAt(sandbox, chargeId, action) {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const res = await fetch(`${sandbox.url}/__sandbox/charges/${chargeId}/${action}`, {
        method: "POST",
      });
      if (res.ok || res.status === 409) return;
    }
  }

  /**
   * `POST /store/carts/:id/complete` as the storefront sends it. Medusa answers 409
   * invalid_state_error when another request holds the cart's lock and says to retry, and 500
   * when its database drops mid-completion; the shopper tries again, so the driver does too
   * (the checks then want exactly one order). Resolves with the last answer.
   */
  /** Order placements Medusa answered `type: "cart"` (not placed), retried by the shopper. */
  const failedPlacements = [];
  async function completeCart(cartId) {
    let completed = await call("POST", `/store/carts/${cartId}/complete`, undefined, {
      mustSucceed: false,
    });
    for (
      let retry = 0;
      (completed.status === 409 || completed.status >= 500) && retry < 8;
      retry += 1
    ) {
      await sleep(1_000 * (retry + 1));
      completed = await call("POST", `/store/carts/${cartId}/complete`, undefined, {
        mustSucceed: false,
      });
    }
    return completed;
  }
  /**
   * Order-first: the cart must become an order before the shopper pays. Medusa answers 200
   * `type: "cart"` with an error when the payment's authorization failed (its database dropped
   * mid-completion, or the provider said "try again"); the storefront shows that error and the
   * shopper places the order again, so the driver does too. Each such answer is kept: the
   * checker holds it against the store outside the fault windows and counts it inside them.
   */
  async function placeOrder(cartId) {
    let { json } = await completeCart(cartId);
    for (let retry = 0; json?.type === "cart" && retry < 5; retry += 1) {
      failedPlacements.push({
        method: "POST",
        path: `/store/carts/${cartId}/complete`,
        status: 200,
        text: JSON.stringify(json.error ?? json).slice(0, 300),
        at: Date.now(),
      });
      await sleep(2_000 * (retry + 1));
      ({ json } = await completeCart(cartId));
    }
    if (json?.type !== "order")
      throw new Error(`cart ${cartId} did not complete: ${JSON.stringify(json).slice(0, 160)}`);
  }

  const stories = [];
  /**
   * A cart's whole life: the shopper sees a code, then edits the cart (a new amount, a new code)
   * or switches Pix A → Pix B (same amount, a new code), pays one code, and every other story
   * also pays the other code. The old code stays payable at the bank (the API cannot cancel
   * it). Each cart must end as one paid order, and each paid charge captured or a refund due.
   */
  async function story(i) {
    const edit = i % 2 === 0;
    const payBoth = i % 4 >= 2;
    const { cartId, collectionId } = await readyCart(
      `story${i}@example.com`,
      variantIds[i % variantIds.length],
    );
    const first = await createSession(cartId, collectionId, "pp_pix_pix-checkout");
    let second;
    if (edit) {
      const { json } = await call("GET", `/store/carts/${cartId}`);
      await call("POST", `/store/carts/${cartId}/line-items/${json.cart.items[0].id}`, {
        quantity: 2,
      });
      second = await createSession(cartId, collectionId, "pp_pix_pix-checkout");
      await settleAt(sandboxA, second.data.charge_id, "pay");
      if (payBoth) await settleAt(sandboxA, first.data.charge_id, "pay");
    } else {
      second = await createSession(cartId, collectionId, "pp_pix_b");
      // The old code, from the e-mail: it becomes the order (same amount).
      await settleAt(sandboxA, first.data.charge_id, "pay");
      if (payBoth) await settleAt(sandboxB, second.data.charge_id, "pay");
    }
    stories.push({
      i,
      cartId,
      collectionId,
      story: `${edit ? "edit" : "switch"}${payBoth ? ", both paid" : ""}`,
      charges: [first.data.charge_id, second.data.charge_id],
      createdAt: Date.now(),
    });
  }

  /**
   * The bank credits less than the code asked: the sandbox records another amount for the
   * charge (its read, list, balance and `charge.paid` say so; the code keeps the first one).
   * Set before paying, so every door sees the short amount. The control route is outside the
   * fault injector; a transient failure is asked again.
   */
  async function creditLess(sandbox, chargeId, cents) {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const res = await fetch(`${sandbox.url}/__sandbox/transactions/${chargeId}/amount`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ amount: cents }),
      });
      if (res.ok) return;
      await sleep(500);
    }
    throw new Error(`the sandbox did not take amount ${cents} for charge ${chargeId}`);
  }

  /**
   * The service delivers `charge.paid` again: the sandbox's own delivery of it, from its log
   * (logged with its body even when the fault injector dropped it), POSTed to the same URL twice
   * at once, as a service does that retries a delivery it thinks timed out. Resolves with how
   * many extra deliveries were sent.
   */
  async function deliverAgain(sandbox, chargeId) {
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const entries = await fetch(`${sandbox.url}/__sandbox/webhooks`)
        .then((res) => res.json())
        .catch(() => []);
      const entry = entries.find(
        (e) =>
          e.event === "charge.paid" &&
          (e.body?.data?.uuid === chargeId || e.body?.data?.id === chargeId),
      );
      if (entry) {
        await Promise.all([0, 1].map(() => deliver(entry)));
        return 2;
      }
      await sleep(500);
    }
    return 0;
  }
  /** One webhook POST, recorded with the store's answers (the token stays out of the path). */
  async function deliver(entry) {
    const path = new URL(entry.url).pathname;
    try {
      const res = await fetch(entry.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(entry.body),
        signal: AbortSignal.timeout(30_000),
      });
      const text = await res.text();
      let code;
      try {
        code = JSON.parse(text).code;
      } catch {
        code = undefined;
      }
      answers.push({ method: "POST", path, status: res.status, code, text, at: Date.now() });
    } catch (error) {
      answers.push({
        method: "POST",
        path,
        status: 0,
        code: "network",
        text: String(error),
        at: Date.now(),
      });
    }
  }

  const underpaid = [];
  /**
   * An underpaid Pix: Variant A or B, a code shown, then the bank credits less (one cent less
   * for a third of them, about half for the rest) and the shopper pays. Half are pay-first, and
   * the shopper's storefront completes the cart right after paying, as it does when its page
   * says paid; half are order-first (the order is placed, then paid). Half of each also get
   * `charge.paid` delivered again. No door may capture more than the bank credited.
   */
  async function underpay(i) {
    const kind = kinds[1 + (i % 2)];
    const orderFirst = i % 4 >= 2;
    const again = Math.floor(i / 4) % 2 === 0;
    const { cartId, collectionId } = await readyCart(
      `underpaid${i}@example.com`,
      variantIds[i % variantIds.length],
      { quantity: 1 + (i % 2) },
    );
    const session = await createSession(cartId, collectionId, kind.provider);
    const chargeId = session.data.charge_id;
    const askedCents = Number(session.data.amount_cents ?? Math.round(session.amount * 100));
    const creditedCents = i % 3 === 0 ? askedCents - 1 : Math.floor(askedCents / 2);
    const entry = {
      i,
      cartId,
      collectionId,
      sessionId: session.id,
      chargeId,
      kind,
      orderFirst,
      askedCents,
      creditedCents,
      story: `${kind.provider} ${orderFirst ? "order-first" : "pay-first, cart completed after paying"}${again ? ", charge.paid delivered again" : ""}`,
      createdAt: Date.now(),
    };
    underpaid.push(entry);
    if (orderFirst) await placeOrder(cartId);
    await creditLess(kind.sandbox, chargeId, creditedCents);
    await settleAt(kind.sandbox, chargeId, "pay");
    const doors = [];
    if (!orderFirst) doors.push(completeCart(cartId).then((res) => (entry.completed = res.status)));
    if (again)
      doors.push(deliverAgain(kind.sandbox, chargeId).then((n) => (outcomes.redelivered += n)));
    await Promise.all(doors);
  }

  const paidTwice = [];
  /**
   * Two payable codes in one collection, paid at nearly the same moment: the shopper saw a code,
   * then edited the cart (a new amount, a new code) or switched Pix A → Pix B (a new code), and
   * pays the old code (from the e-mail) and the new one at once. Half also complete the cart
   * right after paying. Exactly one may be captured; the other is a refund due.
   */
  async function payTwice(i) {
    const edit = i % 2 === 0;
    const complete = i % 4 >= 2;
    const { cartId, collectionId } = await readyCart(
      `paidtwice${i}@example.com`,
      variantIds[i % variantIds.length],
    );
    const first = await createSession(cartId, collectionId, "pp_pix_pix-checkout");
    let second;
    if (edit) {
      const { json } = await call("GET", `/store/carts/${cartId}`);
      await call("POST", `/store/carts/${cartId}/line-items/${json.cart.items[0].id}`, {
        quantity: 2,
      });
      second = await createSession(cartId, collectionId, "pp_pix_pix-checkout");
    } else {
      second = await createSession(cartId, collectionId, "pp_pix_b");
    }
    paidTwice.push({
      i,
      cartId,
      collectionId,
      story: `${edit ? "edit" : "switch"}${complete ? ", cart completed after paying" : ""}`,
      charges: [first.data.charge_id, second.data.charge_id],
      createdAt: Date.now(),
    });
    await Promise.all([
      settleAt(sandboxA, first.data.charge_id, "pay"),
      settleAt(edit ? sandboxA : sandboxB, second.data.charge_id, "pay"),
    ]);
    if (complete) await completeCart(cartId);
  }

  /**
   * One shopper. `samePrice` shoppers all buy one unit of the first variant with no promotion,
   * so their charges have one amount; the others mix variants, quantities and PIX10.
   */
  const cartOf = (i, samePrice = false) =>
    readyCart(
      `shopper${i}@example.com`,
      samePrice ? variantIds[0] : variantIds[i % variantIds.length],
      { quantity: samePrice ? 1 : 1 + (i % 3), promo: !samePrice && i % 4 === 1 },
    );

  async function checkout(i, { samePrice = false, carts } = {}) {
    const kind = samePrice ? kinds[1] : kinds[i % kinds.length];
    const expire = i % 5 === 4; // one in five is left to expire
    const { cartId, collectionId } = carts?.get(i) ?? (await cartOf(i, samePrice));
    const data =
      kind.method === "boleto"
        ? {
            name: "Ana Souza",
            email: `shopper${i}@example.com`,
            document: "52998224725",
            phone: "11987654321",
            neighborhood: "Centro",
            number: "100",
            billing_address: address,
          }
        : {};
    const askedAt = Date.now();
    const session = await createSession(cartId, collectionId, kind.provider, data);
    const codeMs = Date.now() - askedAt;
    const chargeId = session.data.charge_id;
    const session_ = {
      askedAt,
      codeMs,
      burst: carts !== undefined,
      cartId,
      sessionId: session.id,
      collectionId,
      chargeId,
      kind,
      expire,
      createdAt: Date.now(),
    };
    sessions.push(session_);
    if (kind.orderFirst) await placeOrder(cartId);
    await settleAt(kind.sandbox, chargeId, expire ? "expire" : "pay");
    session_.settledAt = Date.now();
    outcomes[expire ? "expired" : "paid"] += 1;
    // Pay-first shoppers stay on the page, which follows the payment as <pix-checkout> does.
    if (!kind.orderFirst && !expire) {
      waits.push(follow(session_).then((via) => (session_.sawPaid = via)));
    }
  }

  const floodOutcome = { code: 0, waiting: 0, refused: 0, busy: 0, unclean: 0 };
  /**
   * One client's carts over the burst's minute, 10 at a time at most: a session each, never a
   * look at the code. Each answer must be a session or a clean refusal (429
   * too_many_waiting_creates with Retry-After); anything else is a violation.
   */
  async function flood(carts) {
    const t0 = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: FLOOD_AT_ONCE }, async () => {
        for (let k = next++; k < carts.length; k = next++) {
          await sleep(Math.max(0, t0 + (k * BURST_SPREAD_MS) / carts.length - Date.now()));
          // Each request names a made-up client of its own: the balancer appends the flood's
          // real address, and only that one counts.
          const res = await asClient(floodAddressOf(k), () =>
            call(
              "POST",
              `/store/payment-collections/${carts[k].collectionId}/payment-sessions`,
              { provider_id: "pp_pix_pix-checkout" },
              {
                mustSucceed: false,
                headers: {
                  "x-forwarded-for": `198.51.100.${k % 250}, 203.0.113.${(k * 7) % 250}`,
                },
              },
            ),
          ).catch((error) => ({ status: 0, json: { message: error.message } }));
          if (res.status === 200) {
            const sessions = res.json.payment_collection.payment_sessions;
            floodOutcome[sessions[sessions.length - 1].data.pix ? "code" : "waiting"] += 1;
          } else if (
            res.status === 429 &&
            res.json?.code === "too_many_waiting_creates" &&
            Number(res.retryAfter) >= 1
          ) {
            floodOutcome.refused += 1;
          } else if (res.status === 409 && res.json) {
            // The plugin's "the service is busy, nothing was charged, try again": clean too.
            floodOutcome.busy += 1;
          } else {
            floodOutcome.unclean += 1;
            violations.push(
              `flood cart ${k} answered ${res.status}: ${JSON.stringify(res.json ?? "").slice(0, 160)}`,
            );
          }
        }
      }),
    );
  }

  const plantedOutcome = { sessions: 0, refused: 0, orders: 0, unclean: 0 };
  /** The attacker's carts, each with what it planted (checked at the end). */
  const planted = [];
  /**
   * The attacker's cheap charges, paid before the minute: their ids are public in their own
   * carts' sessions. Each answers to several spellings at its payment service.
   */
  async function cheapCharges() {
    const found = [];
    for (const [provider, sandbox] of [
      ["pp_pix_pix-checkout", sandboxA],
      ["pp_pix_b", sandboxB],
    ]) {
      const cart = await readyCart("barato@example.com", variantIds[0]);
      const session = await createSession(cart.cartId, cart.collectionId, provider);
      const chargeId = session.data.charge_id;
      await settleAt(sandbox, chargeId, "pay");
      const read = await fetch(`${sandbox.baseUrl}/charges/${chargeId}`, {
        headers: { authorization: `Bearer ${API_KEY}` },
      }).then((r) => r.json());
      const uuid = read.uuid ?? chargeId;
      found.push({ provider, chargeId, ...cart, spellings: spellingsOf(chargeId, uuid) });
    }
    return found;
  }
  /** The spellings a payment service reads as the same charge (spec: partial ids, any case). */
  function spellingsOf(id, uuid) {
    return [id.toUpperCase(), ` ${id}`, uuid.toUpperCase(), id.slice(0, 14).toUpperCase()];
  }
  /**
   * The attack: each dear cart, from its own address, gets a session whose `data` names a paid
   * cheap charge (the line may make it wait, "preparing"), then is completed. A 5xx anywhere is
   * a violation; whether a cart became a paid order is checked at the end.
   */
  async function plantIds(carts, cheap) {
    const t0 = Date.now();
    await Promise.all(
      carts.map(async (cart, k) => {
        await sleep(Math.max(0, t0 + (k * BURST_SPREAD_MS) / carts.length - Date.now()));
        const victim = cheap[k % cheap.length];
        const spelled = victim.spellings[k % victim.spellings.length];
        await asClient(addressOf(k, 3), async () => {
          const res = await call(
            "POST",
            `/store/payment-collections/${cart.collectionId}/payment-sessions`,
            { provider_id: victim.provider, data: { charge_id: spelled, status: "paid" } },
            { mustSucceed: false },
          ).catch((error) => ({ status: 0, json: { message: error.message } }));
          if (res.status === 200) plantedOutcome.sessions += 1;
          else if (res.status >= 400 && res.status < 500) plantedOutcome.refused += 1;
          else {
            plantedOutcome.unclean += 1;
            violations.push(
              `planted session ${k} answered ${res.status}: ${JSON.stringify(res.json ?? "").slice(0, 160)}`,
            );
          }
          const completed = await completeCart(cart.cartId);
          if (completed.status >= 500 || completed.status === 0) {
            plantedOutcome.unclean += 1;
            violations.push(
              `completing planted cart ${k} answered ${completed.status}: ${JSON.stringify(completed.json ?? "").slice(0, 160)}`,
            );
          }
          planted.push({ ...cart, victim: victim.chargeId, spelled, askedAt: Date.now() });
        });
      }),
    );
  }

  const FINAL = new Set(["paid", "expired", "failed", "canceled"]);
  const waits = [];
  /**
   * What the element does: `…/shown`, the SSE stream, and when it ends or fails, one poll of
   * the session route, then `…/shown` and the stream again 2 s later. Resolves with how "paid" was seen
   * ("stream" or "poll"), another final status, or "gave up" after FOLLOW_MS.
   */
  async function follow(s) {
    const deadline = Date.now() + FOLLOW_MS;
    while (Date.now() < deadline) {
      // As the element does while the code is on screen: `…/shown` (a POST) is what pulls the
      // code's check within 30 s when its webhook is lost; reading the stream writes nothing.
      await call("POST", `/store/pix-checkout/sessions/${s.sessionId}/shown`, undefined, {
        mustSucceed: false,
      });
      try {
        const res = await fetch(`${store}/store/pix-checkout/sessions/${s.sessionId}/stream`, {
          headers: key,
          signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())),
        });
        const path = `/store/pix-checkout/sessions/${s.sessionId}/stream`;
        if (res.ok) {
          answers.push({ method: "GET", path, status: res.status, text: "", at: Date.now() });
          for await (const event of events(res)) {
            if (!event.data) continue;
            const view = JSON.parse(event.data);
            if (view.status === "paid") {
              s.sawPaidMs = Date.now() - s.settledAt;
              return "stream";
            }
            if (FINAL.has(view.status)) return view.status;
          }
        } else {
          const text = await res.text();
          let code;
          try {
            code = JSON.parse(text).code;
          } catch {
            code = undefined;
          }
          answers.push({ method: "GET", path, status: res.status, code, text, at: Date.now() });
        }
      } catch {
        // cut by a restart or the deadline: fall back as the element does
      }
      const { json } = await call("GET", `/store/pix-checkout/sessions/${s.sessionId}`, undefined, {
        mustSucceed: false,
      });
      if (json?.status === "paid") {
        s.sawPaidMs = Date.now() - s.settledAt;
        return "poll";
      }
      if (FINAL.has(json?.status)) return json.status;
      await sleep(2_000);
    }
    return "gave up";
  }

  /** Runs checkouts `width` at a time; with `paceMs`, the k-th starts no sooner than k·paceMs. */
  async function pool(indices, width, options = {}) {
    const queue = [...indices];
    const t0 = Date.now();
    let k = 0;
    await Promise.all(
      Array.from({ length: width }, async () => {
        for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
          if (options.paceMs) await sleep(Math.max(0, t0 + k++ * options.paceMs - Date.now()));
          await asClient(addressOf(i), () => checkout(i, options)).catch((error) => {
            outcomes.errors += 1;
            violations.push(`checkout ${i} broke: ${error.message} ${faultsSoFar()}`);
          });
        }
      }),
    );
  }

  // The shoppers filled their carts before the minute (two cores cannot build 200 carts in
  // a minute besides); within it, each goes to payment: the collection, then the session.
  const burstCarts = new Map();
  const toFill = Array.from({ length: BURST }, (_, i) => i);
  log(`burst: filling ${BURST} carts`);
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = toFill.shift(); i !== undefined; i = toFill.shift()) {
        burstCarts.set(i, await asClient(addressOf(i), () => cartOf(i)));
      }
    }),
  );
  // The flood's carts are ready before the minute too: an attacker prepares.
  const floodCarts = [];
  const floodFill = Array.from({ length: FLOOD }, (_, k) => k);
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let k = floodFill.shift(); k !== undefined; k = floodFill.shift()) {
        floodCarts[k] = await asClient(floodAddressOf(k), () =>
          readyCart(`flood${k}@example.com`, variantIds[k % variantIds.length]),
        );
      }
    }),
  );
  // The attacker's cheap charges are paid, and its dear carts filled, before the minute.
  const cheap = PLANTED > 0 ? await asClient("127.0.0.251", cheapCharges) : [];
  const plantCarts = [];
  for (let k = 0; k < PLANTED; k += 1) {
    plantCarts.push(
      await asClient(addressOf(k, 3), () =>
        readyCart(`alvo${k}@example.com`, variantIds[k % variantIds.length], { quantity: 4 }),
      ),
    );
  }
  log(
    `burst: ${BURST} checkouts started within a minute (over the 60/min create limit), beside ${FLOOD} flooding carts from ${FLOOD_ADDRESSES} address(es) and ${PLANTED} carts with planted charge ids`,
  );
  await Promise.all([
    pool(
      Array.from({ length: BURST }, (_, i) => i),
      BURST,
      { paceMs: BURST_SPREAD_MS / BURST, carts: burstCarts },
    ),
    flood(floodCarts),
    plantIds(plantCarts, cheap),
    // Behind Sentinel, the primary dies in the middle of the minute.
    sentinel && FAULTS.has("redis-failover")
      ? sleep(BURST_FAILOVER_S * 1000).then(() => injectFault("redis-failover", redisFailover))
      : undefined,
  ]);

  const samePrice = Math.min(SAME_PRICE, CHECKOUTS - BURST);
  log(`same-price burst: ${samePrice} Pix checkouts of one amount while Variant A loses creates`);
  await fetch(`${sandboxA.url}/__sandbox/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      ...faults,
      http_5xx_after_creates: Math.ceil(samePrice / 3),
      http_5xx_before_creates: Math.ceil(samePrice / 6),
    }),
  });
  await pool(
    Array.from({ length: samePrice }, (_, i) => i + BURST),
    samePrice,
    { samePrice: true },
  );
  await fetch(`${sandboxA.url}/__sandbox/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(faults),
  });
  const rest = Array.from(
    { length: CHECKOUTS - BURST - samePrice },
    (_, i) => i + BURST + samePrice,
  );
  // The infrastructure faults, one after another, while the rest of the shoppers arrive.
  const timeline = [
    [15, "pg-restart", async () => postgres.restart()],
    [45, REDIS_FAULT, async () => (sentinel ? redisFailover() : redis.restart())],
    [
      75,
      "worker-kill",
      async () => {
        stopping.add(instances.worker);
        process.kill(-instances.worker.pid, "SIGKILL");
        lastKillAt = Date.now();
        await once(instances.worker, "exit");
        await sleep(10_000);
        instances.worker = await startInstance("worker", 19100, "worker");
      },
    ],
    [
      105,
      "api-outage",
      async () => {
        holeA.down();
        holeB.down();
        // The service's own webhook sender is down with it.
        for (const sandbox of [sandboxA, sandboxB])
          await setFaults(sandbox, { ...faults, webhook_drop_rate: 1 });
        await sleep(60_000);
        for (const sandbox of [sandboxA, sandboxB]) await setFaults(sandbox, faults);
        holeA.up();
        holeB.up();
      },
    ],
    [
      175,
      "server-restart",
      async () => {
        await stop(instances.s1);
        instances.s1 = await startInstance("server-1", ports[0], "server");
      },
    ],
    [205, "pg-restart", async () => postgres.restart()],
  ].filter(([, name]) => FAULTS.has(name));
  const span = timeline.length ? Math.max(...timeline.map(([at]) => at)) + 15 : 0;
  const paceMs = rest.length && span ? Math.floor((span * 1000) / rest.length) : 0;
  log(
    `paced wave: ${rest.length} checkouts over ${span} s, ${CONCURRENCY} at most at a time; faults: ${
      timeline.map(([at, name]) => `${name}@+${at}s`).join(", ") || "none"
    }`,
  );
  const t0 = Date.now();
  const injected = (async () => {
    for (const [at, name, act] of timeline) {
      await sleep(Math.max(0, t0 + at * 1000 - Date.now()));
      await injectFault(name, act);
    }
  })();
  await Promise.all([pool(rest, CONCURRENCY, { paceMs }), injected]);
  log(
    `cart stories: ${STORIES} carts edited or switched after a code was shown, half paying both codes; ` +
      `${UNDERPAID} underpaid Pix; ${PAID_TWICE} collections paying two codes at once`,
  );
  /** Runs `run(i)` for each index, `width` at a time; a failure is a violation. */
  const each = (what, indices, width, run) => {
    const queue = [...indices];
    // Each story's shopper is a client of its own, on a network of its kind.
    const net = { story: 2, underpaid: 3, "paid twice": 4 }[what] ?? 5;
    return Array.from({ length: width }, async () => {
      for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
        await asClient(addressOf(i, net), () => run(i)).catch((error) => {
          outcomes.errors += 1;
          violations.push(`${what} ${i} broke: ${error.message} ${faultsSoFar()}`);
        });
      }
    });
  };
  const range = (length, from) => Array.from({ length }, (_, i) => i + from);
  await Promise.all([
    ...each("story", range(STORIES, CHECKOUTS), 6, story),
    ...each("underpaid", range(UNDERPAID, 0), 3, underpay),
    ...each("paid twice", range(PAID_TWICE, 0), 2, payTwice),
  ]);
  figures.lastFaultEnd = faultLog.length ? Math.max(...faultLog.map((f) => f.end)) : undefined;
  const lastAction = Date.now();
  log(`all ${CHECKOUTS} checkouts driven; waiting up to one reconciliation interval`);
  const waited = Promise.all(waits);

  // -------------------------------------------------------------- invariants
  const sandboxTruth = new Map();
  for (const sandbox of [sandboxA, sandboxB]) {
    const res = await fetch(`${sandbox.url}/__sandbox/charges`);
    for (const charge of await res.json()) {
      const id = charge.id ?? charge.uuid;
      sandboxTruth.set(id, charge.status);
      if (charge.uuid) sandboxTruth.set(charge.uuid, charge.status);
    }
  }
  // Each charge's description, from the API's own transaction list (as the merchant sees it).
  const descriptions = new Map();
  for (const sandbox of [sandboxA, sandboxB]) {
    let after;
    for (;;) {
      const query = new URLSearchParams({ type: "charge", limit: "100" });
      if (after) query.set("starting_after", after);
      let page = {};
      // The fault injector still answers some API calls 500: ask again.
      for (let attempt = 0; attempt < 10; attempt += 1) {
        const res = await fetch(`${sandbox.baseUrl}/transactions?${query}`, {
          headers: { authorization: `Bearer ${API_KEY}` },
        });
        if (res.ok) {
          page = await res.json();
          break;
        }
      }
      for (const tx of page.data ?? []) descriptions.set(tx.uuid ?? tx.id, tx.description);
      if (!page.has_more || !page.data?.length) break;
      const last = page.data[page.data.length - 1];
      after = last.uuid ?? last.id;
    }
  }
  // The create line's table, where the plugin has one (a session's create requests name its
  // collection, and outlive the session).
  const {
    rows: [{ createLine }],
  } = await db.query(
    `select to_regclass('pix_checkout_create_request') is not null as "createLine"`,
  );
  /**
   * Every payment collection the records give for a charge made for session `ref`: the
   * charge's own row, any charge row and create request of that session, and Medusa's session.
   */
  async function collectionsOf(chargeId, ref) {
    const { rows } = await db.query(
      `select payment_collection_id as id from pix_checkout_charge
        where charge_id = $1 or session_id = $2
       union select payment_collection_id from payment_session where id = $2
       ${createLine ? "union select payment_collection_id from pix_checkout_create_request where session_id = $2" : ""}`,
      [chargeId, ref],
    );
    return rows.map((row) => row.id).filter(Boolean);
  }
  // A refund due is money the ledger owes back once the plugin has one (`owed_cents`), the
  // `settlement` column before that, the flag code before both.
  const {
    rows: [{ ledger, settlement }],
  } = await db.query(
    `select exists (select 1 from information_schema.columns
      where table_name = 'pix_checkout_charge' and column_name = 'owed_cents') as ledger,
      exists (select 1 from information_schema.columns
      where table_name = 'pix_checkout_charge' and column_name = 'settlement') as settlement`,
  );
  const REFUND_DUE = ledger
    ? "coalesce(owed_cents, 0) > 0"
    : `coalesce(${settlement ? "settlement" : "flag_code"} = 'refund_due', false)`;
  /** What Medusa captured on a payment collection, in cents (its amounts are reais). */
  async function capturedCents(collectionId) {
    const {
      rows: [row],
    } = await db.query(
      `select count(*)::int as n, coalesce(sum(c.amount), 0)::text as reais from capture c
       join payment p on p.id = c.payment_id
       where p.payment_collection_id = $1 and c.deleted_at is null`,
      [collectionId],
    );
    return { n: row.n, cents: Number(row.reais) * 100 };
  }
  async function check() {
    const found = [];
    for (const s of sessions) {
      const truth = sandboxTruth.get(s.chargeId);
      const {
        rows: [row],
      } = await db.query(
        `select status, captured_at from pix_checkout_charge where charge_id = $1`,
        [s.chargeId],
      );
      const {
        rows: [{ n: captures }],
      } = await db.query(
        `select count(*)::int as n from capture c join payment p on p.id = c.payment_id
         where p.payment_session_id = $1 and c.deleted_at is null`,
        [s.sessionId],
      );
      const { rows: orders } = await db.query(
        `select o.id, o.status from order_cart oc join "order" o on o.id = oc.order_id
         where oc.cart_id = $1 and oc.deleted_at is null`,
        [s.cartId],
      );
      const tag = `${s.kind.provider} ${s.chargeId}`;
      const note = (text) => found.push(`${text} ${faultsSoFar(s.createdAt)}`);
      if (truth === "paid") {
        if (row?.status !== "paid") note(`paid charge ${tag} is ${row?.status} locally`);
        if (captures !== 1) note(`paid charge ${tag} has ${captures} captures`);
        if (orders.length !== 1) note(`paid charge ${tag} has ${orders.length} orders`);
        else if (orders[0].status === "canceled") note(`paid charge ${tag}: order canceled`);
        else {
          // The order must not be left awaiting payment: its collection is completed.
          const { rows: collections } = await db.query(
            `select pc.status from order_payment_collection opc
             join payment_collection pc on pc.id = opc.payment_collection_id
             where opc.order_id = $1 and opc.deleted_at is null`,
            [orders[0].id],
          );
          if (!collections.some((c) => c.status === "completed"))
            note(
              `paid charge ${tag}: order payment ${collections.map((c) => c.status).join(",") || "missing"}`,
            );
          // ...and the order's own summary (what the admin shows) has nothing outstanding.
          const {
            rows: [summary],
          } = await db.query(
            `select totals->'pending_difference' as pd from order_summary
             where order_id = $1 and deleted_at is null order by version desc limit 1`,
            [orders[0].id],
          );
          const pending = Number(summary?.pd?.value ?? summary?.pd ?? NaN);
          if (!(Math.abs(pending) < 0.005))
            note(
              `paid charge ${tag}: order shows ${summary?.pd?.value ?? summary?.pd} outstanding`,
            );
        }
      } else if (truth === "expired") {
        if (!["expired", "canceled"].includes(row?.status))
          note(`expired charge ${tag} is ${row?.status} locally`);
        if (captures !== 0) note(`expired charge ${tag} has ${captures} captures`);
        for (const order of orders) {
          // A boleto's order stays open through its grace period after the due date (banks
          // confirm a payment made on the due date days later); a Pix's is canceled.
          const want = s.kind.method === "boleto" ? "pending" : "canceled";
          if (order.status !== want) note(`expired charge ${tag}: order ${order.status}`);
        }
      } else {
        note(`charge ${tag} is ${truth} at the sandbox (expected paid or expired)`);
      }
    }
    // A cart's many charges: every charge the service says is paid is captured or a refund
    // due; no order with a capture is canceled; no collection is captured twice.
    // An underpaid charge is held for the merchant instead (checked below).
    const short = new Set(underpaid.map((u) => u.chargeId));
    const { rows: charges } = await db.query(
      `select charge_id, status, captured_at, ${REFUND_DUE} as refund_due
       from pix_checkout_charge where deleted_at is null`,
    );
    for (const row of charges) {
      if (sandboxTruth.get(row.charge_id) !== "paid" || short.has(row.charge_id)) continue;
      const done = row.status === "paid" && (row.captured_at || row.refund_due);
      if (!done) found.push(`paid charge ${row.charge_id} has neither a capture nor a refund due`);
    }
    const { rows: canceledPaid } = await db.query(
      `select distinct o.id from "order" o
       join order_payment_collection opc on opc.order_id = o.id and opc.deleted_at is null
       join payment p on p.payment_collection_id = opc.payment_collection_id
       join capture c on c.payment_id = p.id and c.deleted_at is null
       where o.status = 'canceled'`,
    );
    for (const o of canceledPaid) found.push(`paid order ${o.id} was canceled`);
    if (ledger) {
      // One ledger: each charge's parts are what its entries moved, and what Medusa captured
      // on a collection is what the ledger holds captured for it (and what a MED blocks of it,
      // still captured in Medusa), to the cent.
      const { rows: drift } = await db.query(
        `select c.charge_id from pix_checkout_charge c
         left join (select charge_id,
                      sum(case when to_part = 'captured' then amount_cents else 0 end)
                    - sum(case when from_part = 'captured' then amount_cents else 0 end) as captured,
                      sum(case when to_part = 'owed' then amount_cents else 0 end)
                    - sum(case when from_part = 'owed' then amount_cents else 0 end) as owed,
                      sum(case when from_part is null then amount_cents else 0 end) as arrived
                    from pix_checkout_ledger_entry group by charge_id) e on e.charge_id = c.charge_id
         where coalesce(e.captured, 0) <> coalesce(c.captured_cents, 0)
            or coalesce(e.owed, 0) <> coalesce(c.owed_cents, 0)
            or coalesce(e.arrived, 0) <> coalesce(c.received_cents, 0)`,
      );
      for (const d of drift)
        found.push(`charge ${d.charge_id}: its parts disagree with its entries`);
      const { rows: medusaVsLedger } = await db.query(
        `select l.collection_id, l.cents as ledger, coalesce(m.cents, 0) as medusa from
           (select payment_collection_id as collection_id,
                   sum(captured_cents + contested_cents)::bigint as cents
            from pix_checkout_charge where captured_cents + contested_cents > 0 group by 1) l
         left join (select p.payment_collection_id as collection_id,
                      round(sum(coalesce((select sum(c.amount) from capture c
                                           where c.payment_id = p.id and c.deleted_at is null), 0)
                              - coalesce((select sum(r.amount) from refund r
                                           where r.payment_id = p.id and r.deleted_at is null), 0))
                            * 100)::bigint as cents
                    from payment p
                    where p.provider_id like 'pp\\_pix\\_%' or p.provider_id like 'pp\\_boleto\\_%'
                    group by 1) m on m.collection_id = l.collection_id
         where l.cents <> coalesce(m.cents, 0)`,
      );
      for (const m of medusaVsLedger)
        found.push(
          `collection ${m.collection_id}: the ledger captured ${m.ledger} cents, Medusa ${m.medusa}`,
        );
      // Every figure the merchant sees (overview, balance cards, transactions lists, today's
      // books) agrees with the ledger, to the cent.
      const login = await fetch(`${store}/auth/user/emailpass`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(ADMIN),
      });
      const { token } = await login.json();
      const admin = async (path) => {
        const res = await fetch(`${store}${path}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`);
        return res.json();
      };
      const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo" }).format(
        new Date(),
      );
      found.push(
        ...(await ledgerFigureDisagreements({
          admin,
          sql: async (text, params) => (await db.query(text, params)).rows,
          registrations: ["pix-checkout", "b"],
          day: today,
        })),
      );
    }
    // Captured twice: more than one capture, whether of one payment or of two sessions' (two
    // charges of the collection).
    const { rows: twice } = await db.query(
      `select p.payment_collection_id as id, count(*)::int as n,
              count(distinct p.payment_session_id)::int as sessions from capture c
       join payment p on p.id = c.payment_id where c.deleted_at is null
       group by p.payment_collection_id having count(*) > 1`,
    );
    for (const t of twice)
      found.push(`collection ${t.id} was captured ${t.n} times, on ${t.sessions} session(s)`);
    // Underpaid: Medusa's captures on the collection never add up to more than the bank
    // credited, whichever door ran (webhook, a repeated delivery, reconciliation, the
    // shopper's own cart completion).
    for (const u of underpaid) {
      if (sandboxTruth.get(u.chargeId) !== "paid")
        found.push(
          `underpaid charge ${u.chargeId} is ${sandboxTruth.get(u.chargeId)} at the sandbox (expected paid)`,
        );
      const captured = await capturedCents(u.collectionId);
      if (captured.cents > u.creditedCents + 0.5)
        found.push(
          `underpaid collection ${u.collectionId} (${u.story}; charge ${u.chargeId} asked ${u.askedCents} cents, the bank credited ${u.creditedCents}) has ${captured.n} capture(s) of ${captured.cents.toFixed(1)} cents ${faultsSoFar(u.createdAt)}`,
        );
    }
    // Paid twice at once: both charges paid at the service, exactly one capture, and the
    // other charge a refund due; the cart one order.
    for (const d of paidTwice) {
      const tag = `collection ${d.collectionId} paid twice (${d.story}; charges ${d.charges.join(", ")})`;
      const note = (text) => found.push(`${tag}: ${text} ${faultsSoFar(d.createdAt)}`);
      for (const id of d.charges)
        if (sandboxTruth.get(id) !== "paid")
          note(`charge ${id} is ${sandboxTruth.get(id)} at the sandbox`);
      const captured = await capturedCents(d.collectionId);
      const { rows } = await db.query(
        `select count(*)::int as n from pix_checkout_charge
         where charge_id = any($1) and ${REFUND_DUE}`,
        [d.charges],
      );
      const refunds = rows[0].n;
      if (captured.n !== 1) note(`${captured.n} captures`);
      if (refunds === 0) note("the second paid charge is neither captured nor a refund due");
      else if (refunds > 1) note(`both paid charges are refunds due, and ${captured.n} captured`);
      const { rows: orders } = await db.query(
        `select o.status from order_cart oc join "order" o on o.id = oc.order_id
         where oc.cart_id = $1 and oc.deleted_at is null`,
        [d.cartId],
      );
      if (orders.length !== 1 || orders[0].status === "canceled")
        note(`${orders.length} orders ${orders.map((o) => o.status).join(",")}`);
    }
    for (const s of stories) {
      const { rows: orders } = await db.query(
        `select o.status from order_cart oc join "order" o on o.id = oc.order_id
         where oc.cart_id = $1 and oc.deleted_at is null`,
        [s.cartId],
      );
      if (orders.length !== 1 || orders[0].status === "canceled")
        found.push(
          `story ${s.i} (${s.story}): ${orders.length} orders ${orders.map((o) => o.status).join(",")} ${faultsSoFar(s.createdAt)}`,
        );
    }
    const { rows: doubled } = await db.query(
      `select session_id, count(*)::int as n from pix_checkout_charge group by session_id having count(*) > 1`,
    );
    for (const d of doubled) found.push(`session ${d.session_id} has ${d.n} charges`);
    // No session is bound to a charge created for another cart: the session named in the
    // charge's description (its reference) pays the same payment collection. That session may
    // be gone: a shopper told "try again" gets a new session of the same collection, which
    // reuses the code already made, and Medusa hard-deletes the first one. So its collection is
    // read from the records that outlive it: the plugin's charge row (the collection the charge
    // was made for) and its create requests, and Medusa's session while it still exists.
    for (const s of [...sessions, ...underpaid]) {
      const note = (text) => found.push(`${text} ${faultsSoFar(s.createdAt)}`);
      const ref = descriptions.get(s.chargeId)?.match(/\(ref (payses_\w+)\)/)?.[1];
      if (!ref) {
        note(`charge ${s.chargeId} has no session reference in its description`);
        continue;
      }
      if (ref === s.sessionId) continue;
      const origins = await collectionsOf(s.chargeId, ref);
      if (origins.length === 0)
        note(
          `session ${s.sessionId} is bound to charge ${s.chargeId} made for ${ref}, which no record places in a payment collection`,
        );
      else if (origins.some((id) => id !== s.collectionId))
        note(
          `session ${s.sessionId} of collection ${s.collectionId} is bound to charge ${s.chargeId} made for ${ref} of collection ${origins.join(", ")}`,
        );
    }
    return found;
  }
  let found = await check().catch((error) => [`check failed: ${error.message}`]);
  // One interval + the job's 1-min cron + slack; and a capture claimed by a process that was
  // killed is taken over only once its lease has lapsed, at the job's next run.
  const deadline = Math.max(
    lastAction + RECONCILE_MS + 75_000,
    lastKillAt + CLAIM_LEASE_MS + RECONCILE_MS + 15_000,
  );
  while (found.length > 0 && Date.now() < deadline) {
    await sleep(3_000);
    found = await check().catch((error) => [`check failed: ${error.message}`]);
  }
  const settledAt = Date.now();
  figures.settledAfterLastActionS = ((settledAt - lastAction) / 1000).toFixed(0);
  figures.settledAfterLastFaultS = figures.lastFaultEnd
    ? ((settledAt - figures.lastFaultEnd) / 1000).toFixed(0)
    : "—";
  violations.push(...found);
  violations.push(...crashes);
  const builtAtEnd = buildStamp();
  if (builtAtEnd.files !== builtAtStart.files || builtAtEnd.newest !== builtAtStart.newest)
    violations.push(
      `the plugin's build (${pluginBuild}) changed during the run: the processes started after that (a restarted server or worker) ran other code, on a database migrated for the first build, so this run's findings belong to neither; run again on a build that stays put`,
    );

  // Every shopper who stayed on a paid Pix saw "paid", from the stream or the poll fallback.
  await Promise.race([waited, sleep(Math.max(0, deadline - Date.now()))]);
  const followers = sessions.filter(
    (s) => !s.kind.orderFirst && !s.expire && sandboxTruth.get(s.chargeId) === "paid",
  );
  const sawBy = { stream: 0, poll: 0 };
  for (const s of followers) {
    if (s.sawPaid === "stream" || s.sawPaid === "poll") sawBy[s.sawPaid] += 1;
    else
      violations.push(
        `the shopper of paid charge ${s.chargeId} never saw "paid" (${s.sawPaid ?? "still waiting"}) ${faultsSoFar(s.createdAt)}`,
      );
  }

  // 5xx answers: none outside the fault windows; inside them the payment step may only say
  // "nothing was charged, try again" (a coded answer). Medusa's own routes (cart, order)
  // answer 500 while their database or Redis is down; those are counted, not held against
  // the plugin, and listed by route.
  const windows = faultLog.map((f) => [f.start, (f.end ?? Date.now()) + FAULT_GRACE_MS, f.name]);
  const windowOf = (at) => windows.find(([from, to]) => at >= from && at <= to)?.[2];
  const failures = [
    ...answers.filter((a) => a.status >= 500 || a.status === 0 || isMedusaConflict(a)),
    ...failedPlacements,
  ];
  const outside = failures.filter((a) => !windowOf(a.at));
  const insidePlugin = failures.filter((a) => windowOf(a.at) && isPluginStep(a) && !a.code);
  const insideMedusa = failures.filter((a) => windowOf(a.at) && !isPluginStep(a));
  for (const a of [...outside, ...insidePlugin].slice(0, 20)) {
    violations.push(
      `${a.method} ${a.path} answered ${a.status || a.code} at ${since(a.at)}${windowOf(a.at) ? ` during ${windowOf(a.at)}` : ", outside any fault"}: ${a.text.slice(0, 120)}`,
    );
  }
  const medusaByFault = {};
  for (const a of insideMedusa) {
    const name = windowOf(a.at);
    medusaByFault[name] = (medusaByFault[name] ?? 0) + 1;
  }
  const leaks = answers.filter((a) => a.text.includes(API_KEY) || a.text.includes(WEBHOOK_SECRET));
  for (const a of leaks.slice(0, 5)) violations.push(`${a.method} ${a.path} leaked a secret`);
  // Leak scan over everything every process wrote: the Medusa processes (errors included),
  // PostgreSQL and Redis.
  let logLeaks = 0;
  for (const name of readdirSync(logDir)) {
    const path = join(logDir, name);
    if (!statSync(path).isFile()) continue;
    const text = readFileSync(path, "utf8");
    for (const [what, secret] of [
      ["the API key", API_KEY],
      ["the webhook token", WEBHOOK_SECRET],
    ]) {
      if (text.includes(secret)) {
        logLeaks += 1;
        violations.push(`${name} contains ${what}`);
      }
    }
  }
  if (outcomes.refusedForBudget > 0) {
    violations.push(
      `${outcomes.refusedForBudget} session creates were refused for the service's create limit instead of waiting in the create line`,
    );
  }
  const tryAgain = answers.filter(
    (a) => a.status === 409 || a.status === 429 || (a.status >= 502 && a.code),
  );

  const { rows: deliveries } = await db.query(
    `select outcome, count(*)::int as n from pix_checkout_webhook_delivery group by outcome order by outcome`,
  );
  const {
    rows: [{ n: refundsDue }],
  } = await db.query(`select count(*)::int as n from pix_checkout_charge where ${REFUND_DUE}`);
  let overCaptured = 0;
  for (const u of underpaid)
    if ((await capturedCents(u.collectionId)).cents > u.creditedCents + 0.5) overCaptured += 1;
  // No planted cart became a paid order, and no cheap charge paid anything but its own cart.
  let plantedPaid = 0;
  for (const p of planted) {
    const captured = await capturedCents(p.collectionId);
    const {
      rows: [own],
    } = await db.query(
      `select count(*)::int as n from pix_checkout_charge
        where payment_collection_id = $1 and status = 'paid' and deleted_at is null`,
      [p.collectionId],
    );
    const {
      rows: [order],
    } = await db.query(
      `select pc.status from cart_payment_collection cpc
         join payment_collection pc on pc.id = cpc.payment_collection_id
         join order_cart oc on oc.cart_id = cpc.cart_id and oc.deleted_at is null
        where cpc.payment_collection_id = $1 and cpc.deleted_at is null`,
      [p.collectionId],
    );
    if ((captured.n > 0 || order?.status === "completed") && own.n === 0) {
      plantedPaid += 1;
      violations.push(
        `planted cart ${p.cartId} (charge ${p.victim} spelled "${p.spelled}") is paid: ${captured.n} capture(s), collection ${order?.status ?? "no order"}`,
      );
    }
  }
  for (const c of cheap) {
    const {
      rows: [row],
    } = await db.query(
      `select payment_collection_id from pix_checkout_charge where charge_id = $1 and deleted_at is null`,
      [c.chargeId],
    );
    if (row?.payment_collection_id !== c.collectionId)
      violations.push(`cheap charge ${c.chargeId} is recorded for another collection`);
    if ((await capturedCents(c.collectionId)).n > 1)
      violations.push(`cheap charge ${c.chargeId} was captured more than once`);
  }
  let settledTwice = 0;
  for (const d of paidTwice) {
    const {
      rows: [{ n }],
    } = await db.query(
      `select count(*)::int as n from pix_checkout_charge where charge_id = any($1) and ${REFUND_DUE}`,
      [d.charges],
    );
    if ((await capturedCents(d.collectionId)).n === 1 && n === 1) settledTwice += 1;
  }
  // Burst shoppers whose code came later than the budget allows: places in arrival order, each
  // sent no sooner than its arrival nor than a minute after the create 60 places ahead; allowed
  // that wait + 10 % + 5 s (a create's time, a fault's retry, the poll), with the flood's share
  // (`fairness.clientCreatesPerMinute`, 3) taken first. Judged twice. In the line (from joining
  // it to being sent, by the create line's own rows): that is the policy, and a late shopper
  // is a violation. And as the shopper saw it (from asking to holding the code): counted, since
  // it also holds the store's own time to take the request, which a flood's requests lengthen
  // on a machine this small (the README gives the figures with and without one).
  const burst = sessions.filter((s) => s.burst).sort((a, b) => a.askedAt - b.askedAt);
  const { rows: lineRows } = await db.query(
    `select session_id, extract(epoch from enqueued_at) * 1000 as joined,
            extract(epoch from sent_at) * 1000 as sent, attempts
       from pix_checkout_create_request
      where session_id = any($1) and error_code is distinct from 'resent'`,
    [burst.map((s) => s.sessionId)],
  );
  const inLine = new Map(
    lineRows.map((r) => [
      r.session_id,
      { joined: Number(r.joined), sent: Number(r.sent), attempts: Number(r.attempts) },
    ]),
  );
  /**
   * What a shopper's own failed sends add to its wait: the service failed its create in passing
   * (the run injects 5xx), and the line sends it again after its documented pause (2 s,
   * doubling), each failed send taking up to a create's time with its lookup (5 s). No
   * schedule of the budget can promise that time away.
   */
  const ownRetriesMs = (attempts) => 2_000 * (2 ** attempts - 1) + 5_000 * attempts;
  const budgetTimes = (arrivalTimes, ahead) => {
    const sendAt = [];
    const arrivals = [...Array(ahead).fill(arrivalTimes[0] ?? 0), ...arrivalTimes];
    for (const [place, at] of arrivals.entries()) {
      sendAt.push(Math.max(at, place >= 60 ? sendAt[place - 60] + 60_000 : 0));
    }
    return sendAt.slice(ahead);
  };
  // The attacker's planted carts joined the same line from addresses of their own: they are
  // shoppers to the line, and take their places in the schedule (never judged themselves).
  const { rows: plantedJoins } = await db.query(
    `select extract(epoch from enqueued_at) * 1000 as joined from pix_checkout_create_request
      where payment_collection_id = any($1) and error_code is distinct from 'resent'`,
    [planted.map((p) => p.collectionId)],
  );
  const plantedArrivals = plantedJoins.map((r) => ({ from: Number(r.joined), judged: false }));
  // So does a flood from many addresses: many clients, each with a share of its own. One
  // address's flood is one client, whose share may stand ahead of anyone.
  const { rows: floodJoins } =
    FLOOD_ADDRESSES > 1
      ? await db.query(
          `select extract(epoch from enqueued_at) * 1000 as joined from pix_checkout_create_request
            where payment_collection_id = any($1) and error_code is distinct from 'resent'`,
          [floodCarts.map((c) => c.collectionId)],
        )
      : { rows: [] };
  const othersArrivals = [
    ...plantedArrivals,
    ...floodJoins.map((r) => ({ from: Number(r.joined), judged: false })),
  ];
  const floodAhead = FLOOD > 0 && FLOOD_ADDRESSES === 1 ? FLOOD_SHARE : 0;
  const lateBy = (waits, others = []) => {
    const order = [...waits.map((w) => ({ ...w, judged: true })), ...others].sort(
      (a, b) => a.from - b.from,
    );
    const sendAt = budgetTimes(
      order.map((w) => w.from),
      floodAhead,
    );
    return order.filter(
      (w, place) =>
        w.judged && w.ms > (sendAt[place] - w.from) * 1.1 + 5_000 + ownRetriesMs(w.attempts ?? 0),
    ).length;
  };
  const delayedAsSeen = lateBy(
    burst.map((s) => ({ from: s.askedAt, ms: s.codeMs })),
    othersArrivals,
  );
  const lineWaits = burst
    .map((s) => inLine.get(s.sessionId))
    .filter((w) => w && Number.isFinite(w.sent))
    .map((w) => ({ from: w.joined, ms: w.sent - w.joined, attempts: w.attempts }));
  const delayedInLine = lateBy(lineWaits, othersArrivals);
  // A shopper told "try again" gets a new session, and the provider hands it the code its first
  // session already holds for the same cart and amount (a `reused` event): that session never
  // joins the line, and needs not. Any other burst session without a sent create is a loss.
  const { rows: reusedRows } = await db.query(
    `select detail->>'session_id' as session_id from pix_checkout_charge_event
      where kind = 'reused' and detail->>'session_id' = any($1)`,
    [burst.map((s) => s.sessionId)],
  );
  const reusedCode = new Set(reusedRows.map((r) => r.session_id));
  const withoutCreate = burst.filter(
    (s) => !Number.isFinite(inLine.get(s.sessionId)?.sent) && !reusedCode.has(s.sessionId),
  ).length;
  if (withoutCreate > 0) {
    violations.push(
      `${withoutCreate} burst sessions have neither a sent create in the create line nor a reused code`,
    );
  }
  if (delayedInLine > 0) {
    violations.push(
      `${delayedInLine} burst shoppers were sent later than the budget allows with ${floodAhead} of the flood's creates ahead`,
    );
  }
  const joinMs = burst
    .map((s) => (inLine.get(s.sessionId)?.joined ?? NaN) - s.askedAt)
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  const joinP95 = joinMs[Math.floor(joinMs.length * 0.95)] ?? 0;
  // What the flood itself took, from the create line's own rows, faults or not: its creates
  // sent, at most its share (`fairness.clientCreatesPerMinute`, 3) in any minute, and so at
  // most that share per started minute ahead of any burst shopper who waited. A send the
  // service failed in passing is not the client's (the line clears its client on that row, or
  // keeps the spent slot in a row with none), as the policy says.
  const { rows: floodSendRows } = await db.query(
    `select client_key, extract(epoch from sent_at) * 1000 as at from pix_checkout_create_request
      where payment_collection_id = any($1) and sent_at is not null and client_key is not null
      order by sent_at`,
    [floodCarts.map((c) => c.collectionId)],
  );
  const floodSends = floodSendRows.map((r) => Number(r.at));
  const mostInAMinute = (times) =>
    times.reduce(
      (most, at) => Math.max(most, times.filter((t) => t >= at && t < at + 60_000).length),
      0,
    );
  const floodClients = new Map();
  for (const r of floodSendRows) {
    floodClients.set(r.client_key, [...(floodClients.get(r.client_key) ?? []), r]);
  }
  const floodMostInAMinute = Math.max(
    0,
    ...[...floodClients.values()].map((rows) => mostInAMinute(rows.map((r) => Number(r.at)))),
  );
  if (floodMostInAMinute > FLOOD_SHARE) {
    violations.push(
      `a flooding client had ${floodMostInAMinute} creates sent within one minute (its share is ${FLOOD_SHARE})`,
    );
  }
  if (floodClients.size > FLOOD_ADDRESSES) {
    violations.push(
      `the flood's ${FLOOD_ADDRESSES} address(es) counted as ${floodClients.size} clients in the create line`,
    );
  }
  // How many of the flood's creates went ahead of one burst shopper. One address: at most its
  // share per started minute of the shopper's wait. Many: a burst shopper asks once, so it has
  // the first turn, and a flooding address goes before it only with its own first turn, which
  // it has again only once its last create has left the minute: at most one per address per
  // started minute of the shopper's wait in the line (sends in the same grant as the shopper's
  // are not ahead). A shopper whose own create failed in passing let others by in its pause and
  // is not judged here.
  const floodAheadOf = (s) =>
    FLOOD_ADDRESSES === 1
      ? floodSends.filter((t) => t > s.askedAt && t < s.askedAt + s.codeMs).length
      : floodSends.filter((t) => t > s.line.joined && t < s.line.sent).length;
  const floodAllows = (s) =>
    FLOOD_ADDRESSES === 1
      ? FLOOD_SHARE * Math.ceil(s.codeMs / 60_000)
      : FLOOD_ADDRESSES * Math.ceil((s.line.sent - s.line.joined) / 60_000);
  const judgedForFlood = burst
    .map((s) => ({ ...s, line: inLine.get(s.sessionId) }))
    .filter(
      (s) =>
        FLOOD_ADDRESSES === 1 || (s.line && Number.isFinite(s.line.sent) && s.line.attempts === 0),
    );
  const pushedByFlood = judgedForFlood.filter((s) => floodAheadOf(s) > floodAllows(s));
  if (pushedByFlood.length > 0) {
    violations.push(
      `${pushedByFlood.length} burst shoppers waited behind more of the flood's creates than ${FLOOD_ADDRESSES === 1 ? `its share of ${FLOOD_SHARE}` : "one per address"} a minute`,
    );
  }
  // Code messages (a code, or its expiry) to addresses that placed no order; the flood's must
  // be none, and no mailbox gets two within the plugin's window (30 min by default).
  const { rows: mails } = await db.query(
    `select n."to", n.template, n.created_at from notification n
      where n.template in ('pix-checkout-code', 'pix-checkout-expired')
        and not exists (select 1 from "order" o where lower(o.email) = lower(n."to"))`,
  );
  const floodMails = mails.filter((m) => /^flood\d+@/.test(m.to));
  if (floodMails.length > 0) {
    violations.push(
      `${floodMails.length} code messages went to addresses only the flooding client used (${floodMails[0].to}, ...)`,
    );
  }
  const { rows: twice } = await db.query(
    `select a."to" from notification a join notification b
       on lower(a."to") = lower(b."to") and a.id < b.id
      where a.template in ('pix-checkout-code', 'pix-checkout-expired')
        and b.template in ('pix-checkout-code', 'pix-checkout-expired')
        and abs(extract(epoch from (b.created_at - a.created_at))) < 30 * 60
      limit 5`,
  );
  for (const { to } of twice) violations.push(`${to} got two code messages within 30 minutes`);
  const paidCount = sessions.filter((s) => sandboxTruth.get(s.chargeId) === "paid").length;
  const expiredCount = sessions.filter((s) => sandboxTruth.get(s.chargeId) === "expired").length;
  // The longest waits, of everyone and of those whose wait overlapped a Redis fault's window.
  await Promise.all(healthWatches);
  const redisWindows = faultLog
    .filter((f) => f.name.startsWith("redis-"))
    .map((f) => [f.start, f.end + FAULT_GRACE_MS]);
  const overlapsRedis = (from, ms) =>
    redisWindows.some(([start, end]) => from <= end && from + ms >= start);
  const waitFigures = (list) => {
    const ms = list.map((w) => w.ms).sort((a, b) => a - b);
    const during = list.filter((w) => overlapsRedis(w.from, w.ms)).map((w) => w.ms);
    const sec = (v) => `${(v / 1000).toFixed(1)} s`;
    return (
      `${sec(ms.at(-1) ?? 0)} / ${sec(ms[Math.floor(ms.length * 0.95)] ?? 0)}` +
      (redisWindows.length ? ` / ${sec(Math.max(0, ...during))} (${during.length} waits)` : "")
    );
  };
  const codeWaits = sessions.map((s) => ({ from: s.askedAt, ms: s.codeMs }));
  const paidWaits = sessions
    .filter((s) => s.sawPaidMs !== undefined)
    .map((s) => ({ from: s.settledAt, ms: s.sawPaidMs }));
  const healthWords = faultLog
    .filter((f) => f.name.startsWith("redis-"))
    .map((f) => {
      const reads = healthReads.filter((r) => r.entry === f);
      const states = {};
      for (const r of reads) {
        const state = r.status === 200 ? r.state : `HTTP ${r.status}`;
        states[state] = (states[state] ?? 0) + 1;
      }
      const lines = [...new Set(reads.flatMap((r) => r.notOk))];
      return (
        `${f.name}@${since(f.start)}: ${reads.length} reads, ` +
        Object.entries(states)
          .map(([state, n]) => `${state} ${n}`)
          .join(", ") +
        (lines.length ? `; not ok: ${lines.join("; ")}` : "; every line ok")
      );
    })
    .join(" · ");
  const rows = [
    [
      "Redis; locking provider",
      `${sentinel ? "behind Sentinel (a primary, a replica, three sentinels)" : "one redis-server"}; locking-${LOCKING}`,
    ],
    ["Checkouts driven", CHECKOUTS],
    ["Sessions created", outcomes.created],
    ["Session creates answered 'try again' (then retried)", outcomes.refused],
    [
      "Of those, for the service's create limit (must be 0); sessions that waited in line",
      `${outcomes.refusedForBudget}; ${outcomes.queued}`,
    ],
    ["Paid at the service / expired", `${paidCount} / ${expiredCount}`],
    [
      "Cart stories (edited or switched after a code); refunds due at the end",
      `${stories.length}; ${refundsDue}`,
    ],
    [
      "Underpaid Pix (pay-first, cart completed after paying / order-first); charge.paid delivered again (extra POSTs); captured above what the bank credited (must be 0)",
      `${underpaid.length} (${underpaid.filter((u) => !u.orderFirst).length} / ${underpaid.filter((u) => u.orderFirst).length}); ${outcomes.redelivered}; ${overCaptured}`,
    ],
    [
      "Collections whose two codes were paid at once; settled as one capture and one refund due",
      `${paidTwice.length}; ${settledTwice}`,
    ],
    [
      `Flood's carts (${FLOOD_ADDRESSES} address${FLOOD_ADDRESSES === 1 ? ", a made-up X-Forwarded-For on each request" : "es"}): code / waiting / refused 429 with Retry-After / 'try again' 409 / unclean (must be 0)`,
      `${floodOutcome.code} / ${floodOutcome.waiting} / ${floodOutcome.refused} / ${floodOutcome.busy} / ${floodOutcome.unclean} of ${FLOOD}`,
    ],
    [
      `Burst shoppers later than the budget allows with ${floodAhead > 0 ? `the flood's share (${floodAhead})` : FLOOD > 0 ? "the flood's creates in their places" : "nothing"} ahead (+10 %, 5 s): in the line (must be 0) / as the shopper saw it`,
      `${delayedInLine} / ${delayedAsSeen} of ${burst.length}`,
    ],
    [
      "Burst sessions given their cart's earlier code (no create of their own); without a create or a code (must be 0)",
      `${reusedCode.size}; ${withoutCreate}`,
    ],
    [
      "Burst shoppers' time from asking to joining the line (the store taking the request), p95 / max",
      `${(joinP95 / 1000).toFixed(1)} s / ${((joinMs.at(-1) ?? 0) / 1000).toFixed(1)} s`,
    ],
    [
      `Flood's creates sent; its clients in the line (at most ${FLOOD_ADDRESSES}); most from one client within one minute (at most ${FLOOD_SHARE}); most ahead of one waiting burst shopper; shoppers behind more than ${FLOOD_ADDRESSES === 1 ? FLOOD_SHARE : "one per address"} a minute (must be 0)`,
      `${floodSends.length}; ${floodClients.size}; ${floodMostInAMinute}; ${Math.max(0, ...judgedForFlood.map(floodAheadOf))}; ${pushedByFlood.length}`,
    ],
    [
      "Carts with a paid cheap charge's id planted (many addresses): sessions / refused 4xx / unclean (must be 0) / paid by another's charge (must be 0)",
      `${plantedOutcome.sessions} / ${plantedOutcome.refused} / ${plantedOutcome.unclean} / ${plantedPaid} of ${PLANTED}`,
    ],
    [
      "Code messages to addresses that placed no order: in all / to the flood's (must be 0)",
      `${mails.length} / ${floodMails.length}`,
    ],
    [
      `Longest wait for a code (asking → holding it): max / p95${redisWindows.length ? " / max of waits overlapping a Redis fault (+20 s)" : ""}`,
      waitFigures(codeWaits),
    ],
    [
      `Longest wait for 'paid' on the page (paid at the bank → shown): max / p95${redisWindows.length ? " / max of waits overlapping a Redis fault (+20 s)" : ""}`,
      waitFigures(paidWaits),
    ],
    [
      "Merchant's health card during each Redis fault (read every 3 s until 30 s after it)",
      healthWords || "no Redis fault",
    ],
    ["Store answers, total", answers.length],
    ["Store answers 'try again' (409, 429 or coded 502/503)", tryAgain.length],
    [
      "Faults injected (start, length)",
      faultLog
        .map(
          (f) =>
            `${f.name} @${since(f.start)} ${((f.end - f.start) / 1000).toFixed(0)} s${f.detail ? ` (${f.detail})` : ""}`,
        )
        .join("; ") || "none",
    ],
    ["Store 5xx or dropped connections outside fault windows", outside.length],
    ["Payment-step 5xx inside fault windows without a 'try again' code", insidePlugin.length],
    [
      'Medusa\'s own 5xx, lock conflicts (409) or orders not placed (`type: "cart"`) inside fault windows (retried by the shopper)',
      Object.entries(medusaByFault)
        .map(([name, n]) => `${name} ${n}`)
        .join(", ") || "0",
    ],
    [
      "Shoppers who stayed and saw 'paid': stream / poll fallback / never",
      `${sawBy.stream} / ${sawBy.poll} / ${followers.length - sawBy.stream - sawBy.poll}`,
    ],
    ["Processes that died by themselves", crashes.length],
    ["Store answers or process logs with the API key or webhook token", leaks.length + logLeaks],
    [
      "Webhook deliveries stored, by outcome",
      deliveries.map((d) => `${d.outcome} ${d.n}`).join(", "),
    ],
    ["Settled after last action", `${figures.settledAfterLastActionS} s`],
    ["Settled after the last fault ended", `${figures.settledAfterLastFaultS} s`],
    ["Total run time", `${((Date.now() - started) / 1000).toFixed(0)} s`],
    ["Violations", violations.length],
  ];
  console.log("\n| Chaos run | Value |\n| --- | --- |");
  for (const [name, value] of rows) console.log(`| ${name} | ${value} |`);
  if (violations.length) {
    console.log("\nViolations:");
    for (const v of violations.slice(0, 50)) console.log(`  ✖ ${v}`);
    console.log(`\nKept for the post-mortem: database ${DB}, logs ${logDir}`);
  }
} catch (error) {
  violations.push(`run aborted: ${error.stack ?? error}`);
  console.error(error);
} finally {
  for (const agent of agents.values()) agent.destroy();
  await teardown();
}
process.exit(violations.length ? 1 : 0);
