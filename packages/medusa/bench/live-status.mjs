#!/usr/bin/env node
// Live status across instances, on the BUILT server (run `npm run build` first), in Medusa's
// production topology: two `medusa start` servers and a worker on one database and one Redis
// (event bus, workflow engine, locking; a Redis database of its own, emptied first, or
// BENCH_REDIS_URL: lib/redis-database.mjs):
// - the sandbox's webhooks land on server 1 while shoppers stream from server 2: from the
//   sandbox firing `charge.paid`, the time to the ledger's record of it, to the SSE event saying
//   the code is paid, and to the later event saying Medusa's order is paid (p50/p95), back to
//   back and spaced; and, side by side in the same run, back to back with the webhooks on a
//   `shared` instance, which captures inline as a single-process store does;
// - payment-API calls per paid checkout (create + webhook fetch-back + ...), counted by a
//   proxy in front of the sandbox, while a shopper also polls the status route the whole time;
// - memory held per open stream with 1,000 streams open on instance 2 (RSS delta / 1,000);
// - a lost webhook: the sandbox drops every delivery, shoppers pay 0-45 s after their code was
//   shown, and the time until the status route says `paid` (reconciliation's early checks)
//   is measured, with the checks the schedule makes over a 30-minute Pix life.
// Usage: node bench/live-status.mjs   (BENCH_OUT=file.json also writes the figures)
// Env: BENCH_CHECKOUTS (default 40, back to back), BENCH_SPACED (default 20, 1.5 s apart),
// BENCH_STREAMS (default 1000), BENCH_LOST (default 16).
import { writeFileSync, readFileSync } from "node:fs";
import {
  closeClients,
  countingProxy,
  freePorts,
  openStream,
  percentile,
  postFrom,
} from "./lib/http-tools.mjs";
import { createBenchApp } from "./lib/bench-app.mjs";
import { APP_WEBHOOK_SECRET } from "../scripts/lib/built-app.mjs";
import { leaseRedisDatabase } from "./lib/redis-database.mjs";

// BENCH_SMOKE (`npm run bench -- --smoke`, run by `npm test`): a few requests, to prove it runs.
const smoke = Boolean(process.env.BENCH_SMOKE);

const checkouts = Number(process.env.BENCH_CHECKOUTS ?? (smoke ? 3 : 40));
// Checkouts paid 1.5 s apart, after the back-to-back ones: the stream latency of one payment
// alone, without the previous checkout's capture still running on the webhook's instance.
const spacedCount = Number(process.env.BENCH_SPACED ?? (smoke ? 2 : 20));
const SPACED_GAP_MS = 1_500;
const streamCount = Number(process.env.BENCH_STREAMS ?? (smoke ? 50 : 1000));
const lostCount = Number(process.env.BENCH_LOST ?? (smoke ? 2 : 16));
// How long a step may take before the bench says it broke. A smoke run shares two cores with
// another bench and three browsers, and only proves each step still happens: it waits six times
// as long, so a busy machine is never read as a broken stream.
const patience = smoke ? 6 : 1;

const rssKb = (pid) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN);
/** RSS once two readings a second apart agree within 1 % (at most 30 s): a process at rest. */
async function settledRssKb(pid) {
  let last = rssKb(pid);
  for (let i = 0; i < 30; i += 1) {
    await new Promise((r) => setTimeout(r, 1_000));
    const now = rssKb(pid);
    if (Math.abs(now - last) <= last * 0.01) return now;
    last = now;
  }
  return last;
}

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
  sessions: 2 * checkouts + spacedCount + 1,
  freshCarts: lostCount,
  redisUrl,
});
/** Sends the sandbox's webhooks to `base` only. */
async function webhooksTo(base) {
  await fetch(`${sandbox.url}/__sandbox/webhook-urls`, { method: "DELETE" });
  await fetch(`${sandbox.url}/__sandbox/webhook-urls`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ url: `${base}/hooks/pix-checkout/a?token=${APP_WEBHOOK_SECRET}` }),
  });
}
try {
  // Started together: each waits mostly on its own boot, and four in turn take a minute.
  const ports = await freePorts(4);
  const [one, two, , shared] = await Promise.all([
    app.start(ports[0], "server"),
    app.start(ports[1], "server"),
    app.start(ports[2], "worker"),
    app.start(ports[3], "shared"),
  ]);
  await webhooksTo(one.url);
  const key = app.seed.publishableKey;
  const sessions = app.seed.sessions.slice(0, 2 * checkouts + spacedCount);

  // Memory per open stream: RSS of instance 2, idle and settled, before and with N streams open
  // on one session. Measured first: after the checkouts the process still holds their garbage,
  // and V8 handing it back mid-measure once gave a negative figure.
  const spare = app.seed.sessions[2 * checkouts + spacedCount].session_id;
  const before = await settledRssKb(two.pid);
  const open = [];
  for (let i = 0; i < streamCount; i += 50) {
    const batch = [];
    for (let j = i; j < Math.min(streamCount, i + 50); j += 1) {
      // Each from an address of its own, as many shoppers' pages are: one client holds at
      // most `stream.maxPerClient` streams (10), and the rest would be told to poll.
      batch.push(
        openStream(
          `${two.url}/store/pix-checkout/sessions/${spare}/stream`,
          key,
          () => undefined,
          `127.0.${4 + Math.floor(j / 200)}.${10 + (j % 200)}`,
        ),
      );
    }
    open.push(...(await Promise.all(batch)));
  }
  const after = await settledRssKb(two.pid);
  for (const req of open) req.destroy();

  // A shopper who polls the status route every 100 ms on both instances throughout.
  let polls = 0;
  let polling = true;
  const poller = (async () => {
    while (polling) {
      for (const base of [one.url, two.url]) {
        // A poll that fails is not counted; the run's own checks say what broke.
        const answered = await fetch(
          `${base}/store/pix-checkout/sessions/${sessions[0].session_id}`,
          { headers: { "x-publishable-api-key": key } },
        ).then(
          (r) => r.arrayBuffer().then(() => true),
          () => false,
        );
        if (answered) polls += 1;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();

  // When the ledger recorded each payment: its `paid` line on the charge's timeline, written by
  // the statement right after the one that records the money (whose commit notifies every
  // instance). Read from the table, not by LISTEN: a LISTEN connection of the bench's own could
  // be cut by other runs on a shared Postgres, and the figure would be lost with it. The same
  // machine's clock on both sides, so "paid → recorded" (the webhook's instance) and "recorded →
  // on the shopper's stream" (the other server's hub and view) split each figure.
  const { default: pg } = await import("pg");
  const ledgerDb = new pg.Pool({ connectionString: app.env.DATABASE_URL, max: 2 });
  ledgerDb.on("error", () => undefined);
  const recordedAt = async (chargeId) => {
    for (let i = 0; i < 100 * patience; i += 1) {
      const { rows } = await ledgerDb.query(
        `select extract(epoch from created_at) * 1000 as at from pix_checkout_charge_event
          where charge_id = $1 and kind = 'paid'`,
        [chargeId],
      );
      if (rows[0]) return Number(rows[0].at);
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`charge ${chargeId} has no paid line on its timeline`);
  };

  /**
   * Pays each session in turn (waiting `gapMs` after each) and times, from the sandbox firing
   * `charge.paid`: the ledger's record of it, the stream's event saying the code is paid,
   * and the later event saying Medusa's order is paid. The next payment goes as soon as the
   * code's paid event arrived (back to back means the previous capture may still be running);
   * the order-paid events are collected meanwhile, each on its own stream.
   */
  let shopper = 0;
  async function timeStreams(batch, gapMs) {
    const paidMs = [];
    const ledgerMs = [];
    const pending = [];
    for (const session of batch) {
      let firedAt = 0;
      let paidSeen;
      let orderSeen;
      const paid = new Promise((resolve) => (paidSeen = resolve));
      const orderPaid = new Promise((resolve) => (orderSeen = resolve));
      let first;
      const ready = new Promise((resolve) => (first = resolve));
      const req = await openStream(
        `${two.url}/store/pix-checkout/sessions/${session.session_id}/stream`,
        key,
        (event) => {
          if (event.status === "pending") first();
          if (event.status === "paid") paidSeen(performance.now());
          if (event.status === "paid" && event.order?.payment === "paid") {
            orderSeen(performance.now());
          }
        },
        // Each shopper from an address of its own: a paid code's stream stays open until its
        // order is paid, so a few are open at once, and one client holds at most
        // `stream.maxPerClient` (10).
        `127.0.${8 + Math.floor(shopper / 200)}.${10 + (shopper++ % 200)}`,
      );
      await ready;
      const firedAtClock = Date.now();
      firedAt = performance.now();
      await fetch(`${sandbox.url}/__sandbox/charges/${session.charge_id}/pay`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      const seenAt = await within(paid, 10_000 * patience, `no paid event in ${10 * patience} s`);
      paidMs.push(seenAt - firedAt);
      ledgerMs.push((await recordedAt(session.charge_id)) - firedAtClock);
      pending.push(
        // Settled here (a failure kept as its error), so one that fails while later checkouts
        // are still paid does not end the process before the run says what failed.
        within(orderPaid, 60_000 * patience, `no order-paid event in ${60 * patience} s`)
          .then(
            (at) => at - firedAt,
            (error) => error,
          )
          .finally(() => req.destroy()),
      );
      if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
    }
    const orderMs = await Promise.all(pending);
    const failed = orderMs.find((ms) => ms instanceof Error);
    if (failed) throw failed;
    const sort = (list) => list.sort((a, b) => a - b);
    return { paid: sort(paidMs), ledger: sort(ledgerMs), order: sort(orderMs) };
  }
  // The timer goes with the race: one left running kept the process alive for its whole
  // patience after the figures were printed (six minutes of every smoke run).
  const within = (promise, ms, message) => {
    let timer;
    return Promise.race([
      promise,
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms))),
    ]).finally(() => clearTimeout(timer));
  };
  const worker = await timeStreams(sessions.slice(0, checkouts), 0);
  const spaced = await timeStreams(
    sessions.slice(checkouts, checkouts + spacedCount),
    SPACED_GAP_MS,
  );
  // Side by side: the same back-to-back run with the webhooks on an instance that captures
  // inline, as a single-process store does.
  await webhooksTo(shared.url);
  const inline = await timeStreams(sessions.slice(checkouts + spacedCount), 0);
  await webhooksTo(one.url);
  // Let the last captures finish before counting.
  await new Promise((r) => setTimeout(r, 2_000));
  polling = false;
  await poller;
  await ledgerDb.end();
  const byKind = {};
  for (const call of proxy.calls) byKind[call] = (byKind[call] ?? 0) + 1;
  // A paid checkout's own calls: its create and the webhook's fetch-back. Reconciliation's
  // status reads of charges still pending (the safety net under lost webhooks) are counted
  // apart: they depend on how long each charge waits, not on the checkout.
  const checkoutCalls = proxy.calls.filter((c) => !c.endsWith("/status")).length - 1; // less the spare session's create
  const paidCheckouts = sessions.length;
  const safetyNetReads = proxy.calls.filter((c) => c.endsWith("/status")).length;

  // Lost webhooks: every delivery dropped; each shopper pays at a different age of the code.
  await fetch(`${sandbox.url}/__sandbox/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ webhook_drop_rate: 1 }),
  });
  // Each shopper from an address of its own, as shoppers are: the create line gives one
  // address at most 3 creates a minute.
  const store = (base, path, body, from) =>
    postFrom(from, `${base}${path}`, body, { "x-publishable-api-key": key }).then((r) => r.json());
  const recoveries = await Promise.all(
    app.seed.freshCarts.map(async (cartId, i) => {
      const from = `127.0.2.${10 + i}`;
      const { payment_collection: collection } = await store(
        one.url,
        "/store/payment-collections",
        { cart_id: cartId },
        from,
      );
      const created = await store(
        one.url,
        `/store/payment-collections/${collection.id}/payment-sessions`,
        { provider_id: "pp_pix_a" },
        from,
      );
      const session = created.payment_collection.payment_sessions[0];
      await new Promise((r) =>
        setTimeout(r, ((smoke ? 5_000 : 45_000) * i) / Math.max(1, lostCount - 1)),
      );
      await fetch(`${sandbox.url}/__sandbox/charges/${session.data.charge_id}/pay`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      const paidAt = performance.now();
      for (;;) {
        const view = await fetch(`${two.url}/store/pix-checkout/sessions/${session.id}`, {
          headers: { "x-publishable-api-key": key },
        }).then((r) => r.json());
        if (view.status === "paid") return performance.now() - paidAt;
        if (performance.now() - paidAt > 10 * 60_000) throw new Error("lost webhook not recovered");
        await new Promise((r) => setTimeout(r, 250));
      }
    }),
  );
  recoveries.sort((a, b) => a - b);
  // The built plugin's own schedule, so the figure follows the code.
  const { nextCheckAt, graceRecheckAt } =
    await import("../.medusa/server/src/internal/checkout/check-schedule.js");
  const { boletoGraceEndsAt } =
    await import("../.medusa/server/src/internal/platform/business-days.js");
  const born = new Date(0);
  const expiresAt = new Date(30 * 60_000);
  let checks = 0;
  for (let at = born; at <= expiresAt; checks += 1) {
    at = nextCheckAt({ createdAt: born, expiresAt, now: at, intervalMs: 5 * 60_000 });
  }
  // A 3-day boleto never paid: its life, then its grace period (3 business days), from a
  // Tuesday, so the grace runs over a weekend.
  const boletoBorn = new Date("2026-11-17T15:00:00Z");
  const boletoDue = new Date(boletoBorn.getTime() + 3 * 24 * 60 * 60_000);
  const graceEnd = boletoGraceEndsAt(boletoDue, 3);
  let boletoChecks = 0;
  let at = boletoBorn;
  for (; at <= boletoDue; boletoChecks += 1) {
    at = nextCheckAt({
      createdAt: boletoBorn,
      expiresAt: boletoDue,
      now: at,
      intervalMs: 5 * 60_000,
      method: "boleto",
    });
  }
  for (; at < graceEnd; boletoChecks += 1) at = graceRecheckAt(at, graceEnd);

  const figures = {
    checkouts,
    stream_event_p50_ms: Math.round(percentile(worker.paid, 50)),
    stream_event_p95_ms: Math.round(percentile(worker.paid, 95)),
    stream_event_max_ms: Math.round(worker.paid[worker.paid.length - 1]),
    ledger_recorded_p95_ms: Math.round(percentile(worker.ledger, 95)),
    order_paid_event_p50_ms: Math.round(percentile(worker.order, 50)),
    order_paid_event_p95_ms: Math.round(percentile(worker.order, 95)),
    stream_event_spaced_p50_ms: Math.round(percentile(spaced.paid, 50)),
    stream_event_spaced_p95_ms: Math.round(percentile(spaced.paid, 95)),
    stream_event_inline_capture_p50_ms: Math.round(percentile(inline.paid, 50)),
    stream_event_inline_capture_p95_ms: Math.round(percentile(inline.paid, 95)),
    stream_event_inline_capture_max_ms: Math.round(inline.paid[inline.paid.length - 1]),
    ledger_recorded_inline_capture_p95_ms: Math.round(percentile(inline.ledger, 95)),
    order_paid_event_inline_capture_p50_ms: Math.round(percentile(inline.order, 50)),
    order_paid_event_inline_capture_p95_ms: Math.round(percentile(inline.order, 95)),
    upstream_calls_per_paid_checkout: Number((checkoutCalls / paidCheckouts).toFixed(2)),
    reconciliation_status_reads_during_run: safetyNetReads,
    status_polls_during_run: polls,
    streams_open: open.length,
    memory_per_stream_kib: Number(((after - before) / open.length).toFixed(1)),
    lost_webhooks: recoveries.length,
    lost_webhook_recovery_p50_s: Number((percentile(recoveries, 50) / 1000).toFixed(1)),
    lost_webhook_recovery_p95_s: Number((percentile(recoveries, 95) / 1000).toFixed(1)),
    scheduled_checks_per_30min_pix: checks,
    scheduled_checks_per_unpaid_boleto: boletoChecks,
  };
  // One table, the paths side by side: from the sandbox firing `charge.paid`, the ledger's
  // commit (its NOTIFY), the shopper's event saying the code is paid (target p95 <= 100 ms on
  // every path), and the later event saying Medusa's order is paid.
  const row = (label, run) =>
    `  ${label.padEnd(48)} ${String(run.paid.length).padStart(3)}  ` +
    [run.ledger, run.paid, run.order]
      .map((list) =>
        `${Math.round(percentile(list, 50))} / ${Math.round(percentile(list, 95))}`.padStart(13),
      )
      .join("  ");
  console.log(
    `charge.paid → the shopper's stream on the other server, p50 / p95 ms (target: paid p95 <= 100 ms on every path)`,
  );
  console.log(
    `  ${"path".padEnd(48)}   n  ${"recorded".padStart(13)}  ${"code paid".padStart(13)}  ${"order paid".padStart(13)}`,
  );
  console.log(row("2 servers + worker (capture on the worker)", worker));
  console.log(row(`  the same, paid ${SPACED_GAP_MS / 1000} s apart`, spaced));
  console.log(row("inline capture (webhooks on a shared instance)", inline));
  console.log(
    `  max code-paid event: ${figures.stream_event_max_ms} ms (worker), ${figures.stream_event_inline_capture_max_ms} ms (inline)`,
  );
  console.log(
    `payment-API calls per paid checkout: ${figures.upstream_calls_per_paid_checkout} (target 2: create + fetch-back), with ${polls} store status polls meanwhile; reconciliation's status reads of still-pending charges: ${safetyNetReads}`,
  );
  console.log(`  by call: ${JSON.stringify(byKind)}`);
  console.log(
    `lost webhook → status paid (${recoveries.length} charges paid 0-${smoke ? 5 : 45} s after creation, every delivery dropped): p50 ${figures.lost_webhook_recovery_p50_s} s, p95 ${figures.lost_webhook_recovery_p95_s} s (target p95 <= 60 s); scheduled API checks over a 30-minute Pix with no webhook: ${checks}; over a never-paid 3-day boleto and its grace period: ${boletoChecks} (target <= 20)`,
  );
  console.log(
    `memory per open stream (${open.length} open on one instance): ${figures.memory_per_stream_kib} KiB (RSS ${before} → ${after} KiB)`,
  );
  if (process.env.BENCH_OUT) {
    writeFileSync(
      process.env.BENCH_OUT,
      JSON.stringify({ name: "medusa live status (built, 2 servers + worker)", figures }),
    );
  }
} finally {
  closeClients();
  await app.close();
  proxy.close();
  await sandbox.close();
  await redisDatabase.release();
}
