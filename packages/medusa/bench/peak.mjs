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
// Usage: node bench/peak.mjs   (BENCH_OUT=file.json also writes the figures)
// Env: BENCH_PEAK_SHOPPERS (default 200), BENCH_PEAK_SPREAD_MS (default 60000).
import { writeFileSync } from "node:fs";
import { createBenchApp } from "./lib/bench-app.mjs";
import { countingProxy, openStream, percentile } from "./lib/http-tools.mjs";

const shoppers = Number(process.env.BENCH_PEAK_SHOPPERS ?? 200);
const spreadMs = Number(process.env.BENCH_PEAK_SPREAD_MS ?? 60_000);
const LIMIT = 60;
const WINDOW_MS = 60_000;
/** A shopper whose code is not there after this long counts as an error. */
const GIVE_UP_MS = 6 * 60_000;

const redisUrl = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379/11";
{
  // Queues and scheduled jobs left by an earlier run that was killed would run against its
  // dropped database.
  const { default: Redis } = await import("ioredis");
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  await redis.flushdb();
  redis.disconnect();
}
const { startSandbox } = await import("@pix-checkout/sandbox");
const sandbox = await startSandbox({ variant: "a" });
const proxy = await countingProxy(sandbox.url);
const app = await createBenchApp({
  apiKey: sandbox.defaultKey,
  baseUrl: `${proxy.url}/v1`,
  sessions: 0,
  freshCarts: shoppers,
  redisUrl,
});

/** One shopper: session, then the stream until the code. Times from the shopper's start. */
async function checkout(base, key, cartId) {
  const started = performance.now();
  const post = (path, body) =>
    fetch(`${base}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-publishable-api-key": key },
      body: JSON.stringify(body),
    });
  const collection = await post("/store/payment-collections", { cart_id: cartId });
  if (collection.status !== 200) return { error: `collection ${collection.status}` };
  const { payment_collection } = await collection.json();
  const created = await post(
    `/store/payment-collections/${payment_collection.id}/payment-sessions`,
    {
      provider_id: "pp_pix_a",
    },
  );
  const sessionMs = performance.now() - started;
  if (created.status !== 200) {
    return {
      error: `session ${created.status}: ${(await created.text()).slice(0, 200)}`,
      sessionMs,
    };
  }
  const sessions = (await created.json()).payment_collection.payment_sessions;
  const session = sessions[sessions.length - 1];
  if (session.data.pix) return { sessionMs, codeMs: sessionMs, queued: false };
  const code = await new Promise((resolve) => {
    let req;
    const timer = setTimeout(() => {
      req?.destroy();
      resolve({ error: "no code in time" });
    }, GIVE_UP_MS);
    openStream(`${base}/store/pix-checkout/sessions/${session.id}/stream`, key, (event) => {
      if (event.pix) {
        clearTimeout(timer);
        req?.destroy();
        resolve({ codeMs: performance.now() - started });
      } else if (event.status !== "preparing") {
        clearTimeout(timer);
        req?.destroy();
        resolve({ error: `stream said ${event.status}` });
      }
    }).then(
      (r) => (req = r),
      (error) => {
        clearTimeout(timer);
        resolve({ error: String(error.message) });
      },
    );
  });
  return { sessionMs, queued: true, ...code };
}

let figures;
try {
  const servers = [await app.start(9341, "server"), await app.start(9342, "server")];
  await app.start(9343, "worker");
  const key = app.seed.publishableKey;
  const carts = app.seed.freshCarts;
  // The seed made no charge: the minute is fresh.
  const before = proxy.statuses.length;
  const gap = spreadMs / shoppers;
  const t0 = performance.now();
  const runs = carts.map((cartId, i) =>
    new Promise((resolve) => setTimeout(resolve, i * gap)).then(async () => {
      const arrival = performance.now() - t0;
      const result = await checkout(servers[i % 2].url, key, cartId).catch((error) => ({
        error: String(error.message),
      }));
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
  figures = {
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
  console.table(figures);
  if (process.env.BENCH_OUT) {
    writeFileSync(process.env.BENCH_OUT, JSON.stringify({ name: "peak", figures }));
  }
} finally {
  await app.close();
  proxy.close();
  await sandbox.close();
}
