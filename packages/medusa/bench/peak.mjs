#!/usr/bin/env node
// A Black Friday minute, on the BUILT server (run `npm run build` first), in Medusa's production
// topology: two `medusa start` servers and a worker on one database and one Redis. 200 shoppers
// start a Pix checkout within 60 s (one every 300 ms, alternating servers): each creates the
// cart's payment collection and a Pix session, then follows the session's stream until the code
// is there. The payment API (the sandbox, behind a counting proxy) accepts 60 creates a minute.
// Printed:
// - the API's 429s, and the answers a shopper sees as an error (target 0 and 0);
// - how long creating the session takes (p50/p95/max; target: all within 2 s);
// - each shopper's time until the code is ready, against the earliest the API's limit allows
//   for that place in line: with a fresh minute the first 60 at once, then each the moment the
//   create 60 places ahead is a minute old (ideal = that wait + one unqueued create's time).
//   `late_p95` is the p95 of (actual - ideal) / ideal over the shoppers who had to wait at all
//   (target ≤ 10 %), and `excess_p95_ms` the p95 of actual - ideal over everyone.
// Each shopper is a client of its own (its socket bound to its own loopback address), as
// shoppers are: the line serves clients in turn and caps what one address may take.
// Then the attack: once the minute is fresh again, 20 real shoppers from 127.0.0.2-21 start
// within a minute with no one else (the reference); then, each in a fresh minute, 20 more start
// while a flood makes 150 carts with a Pix session each over that minute, 10 at a time at most,
// in three shapes: one address (127.0.0.250); that address writing a made-up X-Forwarded-For on
// every request (the store is reached directly, so it must count as one client); and 50
// addresses (127.0.2.10-59), three carts each. Printed per shape: the real shoppers' time to the
// code at p50 and p95, the longest any of them waited on "preparing", their 429s and other
// errors, and what the flood got (codes / waiting / refused 429 / anything else), with the most
// creates the service saw in any 60 s of the whole run (target ≤ 60).
// Usage: node bench/peak.mjs   (BENCH_OUT=file.json also writes the figures)
// Env: BENCH_PEAK_SHOPPERS (default 200), BENCH_PEAK_SPREAD_MS (default 60000),
// BENCH_PEAK_PARTS (`minute,attack`, the default; either alone runs only that part),
// BENCH_PEAK_FLOODS (`one,xff,many`, the default; any subset).
import { writeFileSync } from "node:fs";
import { createBenchApp } from "./lib/bench-app.mjs";
import {
  closeClients,
  countingProxy,
  maxInWindow,
  percentile,
  postFrom,
} from "./lib/http-tools.mjs";
import { checkout as shopperCheckout } from "./lib/shopper.mjs";
import { leaseRedisDatabase } from "./lib/redis-database.mjs";

// BENCH_SMOKE (`npm run bench -- --smoke`, run by `npm test`): 10 shoppers in 3 s, then 3 real
// shoppers beside a one-address flood of 12 carts, with no fresh minutes waited for: to prove
// it runs.
const smoke = Boolean(process.env.BENCH_SMOKE);
const parts = (process.env.BENCH_PEAK_PARTS ?? "minute,attack").split(",");
const shoppers = parts.includes("minute")
  ? Number(process.env.BENCH_PEAK_SHOPPERS ?? (smoke ? 10 : 200))
  : 0;
const REAL = smoke ? 3 : 20;
const FLOOD = smoke ? 12 : 150;
const FLOOD_AT_ONCE = smoke ? 4 : 10;
const FLOOD_ADDRESS = "127.0.0.250";
const realAddress = (i) => `127.0.0.${2 + i}`;
/** The minute's shoppers: 127.0.1.10 onwards, one address each. */
const minuteAddress = (i) => `127.0.${1 + Math.floor(i / 200)}.${10 + (i % 200)}`;
const spreadMs = Number(process.env.BENCH_PEAK_SPREAD_MS ?? (smoke ? 3_000 : 60_000));
const LIMIT = 60;
const WINDOW_MS = 60_000;
/** A shopper whose code is not there after this long counts as an error. */
const GIVE_UP_MS = 6 * 60_000;

// A Redis database of its own, emptied (lib/redis-database.mjs): another bench beside this one
// runs Medusa on Redis too.
const redisDatabase = await leaseRedisDatabase();
const redisUrl = redisDatabase.url;
const { startSandbox } = await import("@pix-checkout/sandbox");
const sandbox = await startSandbox({ variant: "a" });
const proxy = await countingProxy(sandbox.url);
const app = await createBenchApp({
  apiKey: sandbox.defaultKey,
  baseUrl: `${proxy.url}/v1`,
  sessions: 0,
  freshCarts: shoppers + (parts.includes("attack") ? REAL + 3 * (REAL + FLOOD) : 0),
  redisUrl,
});

/** One shopper: session, then the stream until the code. Times from the shopper's start. */
const checkout = (base, key, cartId, from) => shopperCheckout(base, key, cartId, from, GIVE_UP_MS);

/** The Black Friday minute: `shoppers` checkouts, each from its own address. */
async function runMinute(servers, key, carts) {
  // The seed made no charge: the minute is fresh.
  const before = proxy.statuses.length;
  const gap = spreadMs / shoppers;
  const t0 = performance.now();
  const runs = carts.map((cartId, i) =>
    new Promise((resolve) => setTimeout(resolve, i * gap)).then(async () => {
      const arrival = performance.now() - t0;
      const result = await checkout(servers[i % 2].url, key, cartId, minuteAddress(i)).catch(
        (error) => ({
          error: String(error.message),
        }),
      );
      return { i, arrival, ...result };
    }),
  );
  const results = await Promise.all(runs);
  const statuses = proxy.statuses.slice(before);

  // The earliest the limit allows: places in arrival order, each sent no earlier than its
  // arrival nor than a window after the create 60 places ahead.
  const byArrival = [...results].sort((a, b) => a.arrival - b.arrival);
  const unqueued = byArrival.filter((r) => !r.queued && r.codeMs !== undefined);
  const createMs = percentile(
    unqueued.map((r) => r.codeMs).sort((a, b) => a - b),
    50,
  );
  const sendAt = [];
  const lateness = [];
  const excess = [];
  for (const [place, r] of byArrival.entries()) {
    const earliest = Math.max(r.arrival, place >= LIMIT ? sendAt[place - LIMIT] + WINDOW_MS : 0);
    sendAt.push(earliest);
    if (r.codeMs === undefined) continue;
    const ideal = earliest - r.arrival + createMs;
    excess.push(r.codeMs - ideal);
    if (earliest > r.arrival) lateness.push((r.codeMs - ideal) / ideal);
  }
  const sessionTimes = results
    .map((r) => r.sessionMs)
    .filter((ms) => ms !== undefined)
    .sort((a, b) => a - b);
  const errors = results.filter((r) => r.error);
  lateness.sort((a, b) => a - b);
  excess.sort((a, b) => a - b);
  const figures = {
    shoppers,
    started_within_s: Number((spreadMs / 1000).toFixed(0)),
    api_creates: proxy.calls.filter((c) => c === "POST /v1/charges").length,
    api_429s: statuses.filter((s) => s === 429).length,
    shopper_errors: errors.length,
    queued: results.filter((r) => r.queued).length,
    session_p50_ms: Math.round(percentile(sessionTimes, 50)),
    session_p95_ms: Math.round(percentile(sessionTimes, 95)),
    session_max_ms: Math.round(sessionTimes[sessionTimes.length - 1]),
    unqueued_create_p50_ms: Math.round(createMs),
    code_p95_s: Number(
      (
        percentile(
          results
            .map((r) => r.codeMs)
            .filter((ms) => ms !== undefined)
            .sort((a, b) => a - b),
          95,
        ) / 1000
      ).toFixed(1),
    ),
    late_p95_pct: lateness.length ? Number((percentile(lateness, 95) * 100).toFixed(1)) : 0,
    excess_p95_ms: Math.round(percentile(excess, 95)),
  };
  for (const error of errors.slice(0, 5)) console.error(`  shopper ${error.i}: ${error.error}`);
  return figures;
}

/** Waits until no create of the service's is younger than a window: the minute is fresh. */
async function freshMinute() {
  if (smoke) return;
  const last = proxy.createTimes.length ? Math.max(...proxy.createTimes) : -Infinity;
  const waitMs = last + WINDOW_MS + 1_000 - performance.now();
  if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
}

/** 50 real shoppers, one address each, starting within `spreadMs`; their times to the code. */
function realShoppers(servers, key, carts) {
  const gap = spreadMs / carts.length;
  return Promise.all(
    carts.map((cartId, i) =>
      new Promise((resolve) => setTimeout(resolve, i * gap)).then(() =>
        checkout(servers[i % 2].url, key, cartId, realAddress(i)).catch((error) => ({
          error: String(error.message),
        })),
      ),
    ),
  );
}

/** A flood's carts over the same minute, at most 10 at a time; what each got. */
async function flood(servers, key, carts, shape = FLOOD_SHAPES.one) {
  const outcomes = { code: 0, waiting: 0, refused: 0, refused_retry_after: 0, other: 0 };
  const others = [];
  const gap = spreadMs / carts.length;
  const t0 = performance.now();
  let next = 0;
  const worker = async (w) => {
    for (;;) {
      const k = next++;
      if (k >= carts.length) return;
      const due = t0 + k * gap - performance.now();
      if (due > 0) await new Promise((resolve) => setTimeout(resolve, due));
      const { from, headers } = shape(k);
      const post = (path, body) =>
        postFrom(from, `${servers[(k + w) % 2].url}${path}`, body, {
          "x-publishable-api-key": key,
          ...headers,
        });
      try {
        const collection = await post("/store/payment-collections", { cart_id: carts[k] });
        const { payment_collection } = await collection.json();
        const answer = await post(
          `/store/payment-collections/${payment_collection.id}/payment-sessions`,
          { provider_id: "pp_pix_a" },
        );
        const body = await answer.json();
        if (answer.status === 200) {
          const sessions = body.payment_collection.payment_sessions;
          const data = sessions[sessions.length - 1].data;
          outcomes[data.pix ? "code" : "waiting"] += 1;
        } else if (answer.status === 429 && body.code === "too_many_waiting_creates") {
          outcomes.refused += 1;
          if (Number(answer.headers.get("retry-after")) >= 1) outcomes.refused_retry_after += 1;
        } else {
          outcomes.other += 1;
          others.push(`${answer.status} ${body.code ?? ""}`);
        }
      } catch (error) {
        outcomes.other += 1;
        others.push(String(error.message));
      }
    }
  };
  await Promise.all(Array.from({ length: FLOOD_AT_ONCE }, (_, w) => worker(w)));
  for (const other of others.slice(0, 5)) console.error(`  flood: ${other}`);
  return outcomes;
}

/**
 * What 20 real shoppers saw beside one flood: their time to the code (p50, p95), the longest
 * any of them waited on "preparing", and the errors they got, 429s apart.
 */
function shopperFigures(prefix, results) {
  const times = results
    .map((r) => r.codeMs)
    .filter((ms) => ms !== undefined)
    .sort((a, b) => a - b);
  const preparing = results
    .filter((r) => r.queued && r.codeMs !== undefined)
    .map((r) => r.codeMs - r.sessionMs);
  const errors = results.filter((r) => r.error);
  return {
    [`${prefix}_code_p50_s`]: Number((percentile(times, 50) / 1000).toFixed(2)),
    [`${prefix}_code_p95_s`]: Number((percentile(times, 95) / 1000).toFixed(2)),
    [`${prefix}_longest_preparing_s`]: Number((Math.max(0, ...preparing) / 1000).toFixed(1)),
    [`${prefix}_429s`]: errors.filter((r) => /^session 429/.test(r.error)).length,
    [`${prefix}_other_errors`]: errors.filter((r) => !/^session 429/.test(r.error)).length,
  };
}

/**
 * The flood shapes beside which the real shoppers ask: one address (`one`); one address writing
 * a made-up `X-Forwarded-For` on every request, against a store reached directly (`xff`, which
 * must count as one client); 50 addresses, three carts each (`many`, which only the store-wide
 * cap bounds).
 */
const FLOOD_SHAPES = {
  one: () => ({ from: FLOOD_ADDRESS, headers: {} }),
  xff: (k) => ({
    from: FLOOD_ADDRESS,
    headers: { "x-forwarded-for": `198.51.100.${k % 250}, 203.0.113.${(k * 7) % 250}` },
  }),
  many: (k) => ({ from: `127.0.2.${10 + (k % 50)}`, headers: {} }),
};
const floodShapes = (process.env.BENCH_PEAK_FLOODS ?? (smoke ? "one" : "one,xff,many"))
  .split(",")
  .filter((shape) => shape in FLOOD_SHAPES);

/**
 * The attack: the real shoppers alone, then beside each flood shape's 150 carts, each in a
 * fresh minute.
 */
async function runAttack(servers, key, carts) {
  let next = 0;
  const take = (n) => carts.slice(next, (next += n));
  await freshMinute();
  const figures = { attack_real_shoppers: REAL, attack_flood_carts: FLOOD };
  Object.assign(figures, shopperFigures("alone", await realShoppers(servers, key, take(REAL))));
  for (const shape of floodShapes) {
    await freshMinute();
    const [real, outcome] = await Promise.all([
      realShoppers(servers, key, take(REAL)),
      flood(servers, key, take(FLOOD), FLOOD_SHAPES[shape]),
    ]);
    Object.assign(figures, shopperFigures(shape, real), {
      [`${shape}_flood_code_waiting_refused_other`]: `${outcome.code}/${outcome.waiting}/${outcome.refused}/${outcome.other}`,
      [`${shape}_refused_with_retry_after`]: outcome.refused_retry_after,
    });
    for (const error of real.filter((r) => r.error).slice(0, 3)) {
      console.error(`  real shopper (${shape}): ${error.error}`);
    }
  }
  return figures;
}

let figures = {};
try {
  // A smoke run stands up one instance that serves and works (three take minutes to start).
  const servers = smoke
    ? Array(2).fill(await app.start(9341, "shared"))
    : [await app.start(9341, "server"), await app.start(9342, "server")];
  if (!smoke) await app.start(9343, "worker");
  const key = app.seed.publishableKey;
  const carts = app.seed.freshCarts;
  // The seed made no charge: the minute is fresh.
  if (parts.includes("minute")) {
    Object.assign(figures, await runMinute(servers, key, carts.slice(0, shoppers)));
  }
  if (parts.includes("attack")) {
    Object.assign(figures, await runAttack(servers, key, carts.slice(shoppers)));
  }
  figures.max_creates_any_60s = maxInWindow(proxy.createTimes, WINDOW_MS);
  console.table(figures);
  if (process.env.BENCH_OUT) {
    writeFileSync(process.env.BENCH_OUT, JSON.stringify({ name: "peak", figures }));
  }
} finally {
  closeClients();
  await app.close();
  proxy.close();
  await sandbox.close();
  await redisDatabase.release();
}
