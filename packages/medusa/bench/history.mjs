#!/usr/bin/env node
// Does a store's history slow the reconciliation pass, the reminders' pass or the shopper's status route? All are
// measured side by side in one run: on a fresh store, after 1,000,000 past charges (90 % paid
// and captured, the rest expired; ~5 timeline events and one webhook delivery each) were
// written into the tables the migrations made and ANALYZE ran, and on the fresh store again
// (the two fresh measurements are pooled). Against the BUILT plugin (`npm run build` first).
// Usage: node bench/history.mjs   (BENCH_OUT=file.json also writes the figures)
// Env: BENCH_HISTORY (default 1000000 charges), BENCH_PASSES (default 100 timed passes),
// BENCH_ROUNDS (default 4 rounds of status reads per measurement), BENCH_STATUS_SESSIONS
// (default 24 seeded sessions read per round), BENCH_ADMIN_READS (default 40 reads of each
// admin route per measurement).
//
// How a pass is timed: `medusa exec` of a script (PASS_SCRIPT below) that boots the app as
// the worker would and calls the built plugin's own `reconcileOnce` (from .medusa/server), the
// function the 15 s job runs, under the job's lock so the scheduler cannot interleave a pass.
// Nothing is due (the seeded charges' next check is moved a day ahead), which is the
// steady state of a store between payments: what is left is the pass's fixed cost, the part
// that used to grow with the tables. The script also records the SQL of one pass (knex's
// query event) and EXPLAINs each statement, and reads the plugin tables' rows read
// (pg_stat_user_tables: seq_tup_read + idx_tup_fetch) before and after the timed passes.
//
// How the status route is timed: GET /store/pix-checkout/sessions/:id on `medusa start`, one
// request at a time, for each of the seeded sessions in turn; a round starts at least 5.1 s
// after the previous one began, past the route's 5 s row cache, so every request reads its row
// from the table (the path history could slow).
//
// How the admin's reads are timed: on the same `medusa start`, logged in as an admin user,
// GET /admin/pix-checkout/charges (the newest 50), /deliveries (the newest 50) and /health
// (the card: every figure from the plugin's tables, and one call to the service), one request
// at a time, each route in turn. Their SQL is EXPLAINed too.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createBenchApp } from "./lib/bench-app.mjs";
import { freePort } from "./lib/http-tools.mjs";
import { medusa, packageDir, writeFiles } from "../scripts/lib/built-app.mjs";
import { createRequire } from "node:module";

// BENCH_SMOKE (`npm run bench -- --smoke`, run by `npm test`): a few requests, to prove it runs.
const smoke = Boolean(process.env.BENCH_SMOKE);

const history = Number(process.env.BENCH_HISTORY ?? (smoke ? 2_000 : 1_000_000));
const passes = Number(process.env.BENCH_PASSES ?? (smoke ? 3 : 100));
const rounds = Number(process.env.BENCH_ROUNDS ?? (smoke ? 1 : 4));
const sessions = Number(process.env.BENCH_STATUS_SESSIONS ?? (smoke ? 3 : 24));
const adminReads = Number(process.env.BENCH_ADMIN_READS ?? (smoke ? 2 : 40));
const ADMIN = { email: "bench-admin@example.com", password: "bench-admin-password" };
const ADMIN_ROUTES = {
  charges: "/admin/pix-checkout/charges?limit=50",
  deliveries: "/admin/pix-checkout/deliveries?limit=50",
  health: "/admin/pix-checkout/health",
};
const port = Number(process.env.BENCH_PORT ?? (await freePort()));
const { knex } = createRequire(path.join(packageDir, "package.json"))(
  "@medusajs/framework/mikro-orm/knex",
);

const PASS_SCRIPT = `const fs = require("node:fs");
const { ContainerRegistrationKeys, Modules } = require("@medusajs/framework/utils");
const server = process.env.BENCH_PLUGIN_SERVER;
const { reconcileOnce } = require(server + "/internal/settlement/reconcile.js");
const { settleContext } = require(server + "/internal/settlement/context.js");
const { Charges } = require(server + "/internal/records/charges.js");
const { RECONCILE_LOCK } = require(server + "/jobs/reconcile-pix-checkout.js");
const { remindOnce } = require(server + "/internal/recovery/send-reminders.js");
const { readHealthFigures } = require(server + "/internal/operations/health.js");
const { registeredProviders } = require(server + "/internal/platform/provider-registry.js");
const { WebhookDeliveries } = require(server + "/internal/records/webhook-deliveries.js");
const { ChargeAttention } = require(server + "/internal/records/attention.js");
const TABLES = ["pix_checkout_charge", "pix_checkout_charge_event", "pix_checkout_webhook_delivery", "pix_checkout_reminder"];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// EXPLAIN without ANALYZE: the pass's claim is an UPDATE, and the plan is what matters.
async function explainAll(db, seen) {
  const plans = [];
  for (const { sql, bindings } of seen) {
    if (!/^\\s*(select|update|with)/i.test(sql) || /pg_advisory|pg_stat|^\\s*select now\\(\\)/i.test(sql)) continue;
    const native = /\\$\\d/.test(sql);
    const conn = await db.client.acquireConnection();
    try {
      const text = "explain " + (native ? sql : db.raw(sql, bindings).toSQL().toNative().sql);
      const values = native ? bindings : db.raw(sql, bindings).toSQL().toNative().bindings;
      const { rows } = await conn.query(text, values);
      plans.push({ sql: sql.replace(/\\s+/g, " ").slice(0, 160), plan: rows.map((r) => r["QUERY PLAN"]) });
    } finally {
      await db.client.releaseConnection(conn);
    }
  }
  return plans;
}
exports.default = async function passes({ container }) {
  const db = container.resolve(ContainerRegistrationKeys.PG_CONNECTION);
  const ctx = settleContext(container);
  const rowsRead = async () => {
    await db.raw("select pg_stat_clear_snapshot()");
    const { rows } = await db.raw(
      "select coalesce(sum(seq_tup_read + coalesce(idx_tup_fetch, 0)), 0)::bigint as n from pg_stat_user_tables where relname = any(?)",
      [TABLES],
    );
    return Number(rows[0].n);
  };
  const out = { ms: [], reports: [], plans: [] };
  await container.resolve(Modules.LOCKING).execute(RECONCILE_LOCK, async () => {
    for (let i = 0; i < 10; i += 1) await reconcileOnce(ctx);
    // Idle pool connections flush their table statistics within a second.
    await sleep(1500);
    const before = await rowsRead();
    for (let i = 0; i < Number(process.env.BENCH_PASSES); i += 1) {
      const start = process.hrtime.bigint();
      out.reports.push(await reconcileOnce(ctx));
      out.ms.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    await sleep(1500);
    out.rowsReadPerPass = ((await rowsRead()) - before) / Number(process.env.BENCH_PASSES);
    // The reminders' pass (recovery on), timed the same way: the 30 s job's whole work.
    out.reminderMs = [];
    out.reminderReports = [];
    for (let i = 0; i < 10; i += 1) await remindOnce(ctx, new Date());
    await sleep(1500);
    const beforeReminders = await rowsRead();
    for (let i = 0; i < Number(process.env.BENCH_PASSES); i += 1) {
      const start = process.hrtime.bigint();
      out.reminderReports.push(await remindOnce(ctx, new Date()));
      out.reminderMs.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    await sleep(1500);
    out.reminderRowsReadPerPass = ((await rowsRead()) - beforeReminders) / Number(process.env.BENCH_PASSES);
    // The statements of one pass and one status read, each EXPLAINed as run.
    const seen = [];
    const record = (q) => seen.push({ sql: q.sql, bindings: q.bindings ?? [] });
    db.on("query", record);
    await reconcileOnce(ctx);
    await remindOnce(ctx, new Date());
    await new Charges(db).bySessionId(process.env.BENCH_STATUS_SESSION);
    db.off("query", record);
    out.plans = await explainAll(db, seen);
    // And the admin's reads: the health card's figures, the charges list (all, and one status)
    // and the deliveries list, as their routes run them.
    const adminSeen = [];
    const recordAdmin = (q) => adminSeen.push({ sql: q.sql, bindings: q.bindings ?? [] });
    db.on("query", recordAdmin);
    await readHealthFigures(db, registeredProviders(container.resolve(ContainerRegistrationKeys.CONFIG_MODULE)));
    // As GET /admin/pix-checkout/charges reads them (records.attention).
    await new ChargeAttention(db).list({ limit: 50 });
    await new ChargeAttention(db).list({ status: "pending", limit: 50 });
    await new WebhookDeliveries(db).latest(50);
    db.off("query", recordAdmin);
    out.adminPlans = await explainAll(db, adminSeen);
  }, { timeout: 120, expire: 900 });
  fs.writeFileSync(process.env.BENCH_PASS_OUT, JSON.stringify(out));
};
`;

// Set-based history: `insert ... select ... from generate_series`, as a store that sold for a
// year would hold it. One charge every 30 s, ending a week ago; nine in ten paid and captured,
// the tenth expired; one in fifty paid carts failed completion once before it completed.
const historySql = (n) => [
  `insert into pix_checkout_charge (id, charge_id, provider_id, method, variant, session_id,
     payment_collection_id, amount_cents, currency_code, status, expires_at, paid_at,
     capture_claimed_at, captured_at, last_checked_at, next_check_at, check_failures, flagged,
     order_hold_until, received_cents, captured_cents, created_at, updated_at)
   select 'pxch_hist_' || g, md5('charge' || g)::uuid::text, 'pp_pix_a',
     case when g % 20 = 0 then 'boleto' else 'pix' end, 'a', 'payses_hist_' || g,
     'pay_col_hist_' || g, 1000 + g % 90000, 'brl',
     case when g % 10 = 0 then 'expired' else 'paid' end,
     t + interval '30 minutes',
     case when g % 10 = 0 then null else t + interval '2 minutes' end,
     case when g % 10 = 0 then null else t + interval '2 minutes' end,
     case when g % 10 = 0 then null else t + interval '2 minutes 1 second' end,
     t + interval '2 minutes', null, 0, false,
     case when g % 20 = 0 then t + interval '5 days' end,
     -- The ledger's parts: a paid charge received its amount, all of it captured for its order.
     case when g % 10 = 0 then null else 1000 + g % 90000 end,
     case when g % 10 = 0 then 0 else 1000 + g % 90000 end,
     t, t + interval '31 minutes'
   from (select g, now() - interval '7 days' - (${n} - g) * interval '30 seconds' as t
         from generate_series(1, ${n}) g) h`,
  // And the ledger's entries that moved it: received into held, then held to captured.
  `insert into pix_checkout_ledger_entry (id, charge_id, payment_collection_id, from_part, to_part, amount_cents, reason, door, created_at)
   select 'pxle_hist_' || g || '_' || k, md5('charge' || g)::uuid::text, 'pay_col_hist_' || g,
     case when k = 1 then null else 'held' end, case when k = 1 then 'held' else 'captured' end,
     1000 + g % 90000, case when k = 1 then 'awaiting_capture' else 'captured' end, 'webhook',
     t + interval '2 minutes' + k * interval '1 second'
   from (select g, now() - interval '7 days' - (${n} - g) * interval '30 seconds' as t
         from generate_series(1, ${n}) g) h,
   generate_series(1, 2) k
   where g % 10 <> 0`,
  `insert into pix_checkout_charge_event (id, charge_id, kind, from_status, to_status, source, detail, created_at, updated_at)
   select 'pxev_hist_' || g || '_' || k, md5('charge' || g)::uuid::text, kind,
     case when kind in ('paid', 'expired') then 'pending' end,
     case when kind in ('paid', 'expired') then kind end,
     case when k = 1 then 'provider' else 'webhook' end, null,
     t + k * interval '1 second', t + k * interval '1 second'
   from (select g, now() - interval '7 days' - (${n} - g) * interval '30 seconds' as t
         from generate_series(1, ${n}) g) h,
   lateral unnest(case
     when g % 10 = 0 then array['created', 'reused', 'superseded', 'expired', 'order_canceled']
     when g % 50 = 1 then array['created', 'paid', 'captured', 'cart_completion_failed', 'cart_completed', 'order_transaction_recorded']
     else array['created', 'paid', 'captured', 'cart_completed', 'order_transaction_recorded']
   end) with ordinality as e(kind, k)`,
  `insert into pix_checkout_webhook_delivery (id, provider_key, event, charge_id, body, outcome, detail, attempts, processed_at, created_at, updated_at)
   select 'pxwh_hist_' || g, 'a', case when g % 10 = 0 then 'charge.expired' else 'charge.paid' end,
     md5('charge' || g)::uuid::text,
     jsonb_build_object('event', case when g % 10 = 0 then 'charge.expired' else 'charge.paid' end, 'data', jsonb_build_object('id', md5('charge' || g)::uuid::text)),
     'processed', null, 1, t + interval '2 minutes', t + interval '2 minutes', t + interval '2 minutes'
   from (select g, now() - interval '7 days' - (${n} - g) * interval '30 seconds' as t
         from generate_series(1, ${n}) g) h`,
  // A year of reminders (recovery on): one sent for every fifth charge, one skipped for every
  // tenth, none of them due again (the charges' next_reminder_at is null, their cadence over).
  `insert into pix_checkout_reminder (id, charge_id, payment_collection_id, step, state, reason, token, email_key, sent_at, created_at)
   select 'pxrm_hist_' || g || '_' || s, md5('charge' || g)::uuid::text, 'pay_col_hist_' || g,
     case when s = 1 then 'pix_expiring' else 'pix_expired' end,
     case when s = 1 then 'sent' else 'skipped' end,
     case when s = 2 then 'paid' end,
     md5('token' || g || '_' || s), case when s = 1 then 'bench' || g || '@example.com' end,
     case when s = 1 then t + interval '20 minutes' end, t + interval '20 minutes'
   from (select g, now() - interval '7 days' - (${n} - g) * interval '30 seconds' as t
         from generate_series(1, ${n}) g) h,
   lateral generate_series(1, case when g % 10 = 0 then 2 when g % 5 = 0 then 1 else 0 end) s`,
  `analyze pix_checkout_charge, pix_checkout_charge_event, pix_checkout_webhook_delivery, pix_checkout_reminder, pix_checkout_ledger_entry`,
];

const pct = (list, p) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const round2 = (x) => Math.round(x * 100) / 100;

// Reminders on (the history-cost rule holds with them): their 30 s pass is timed beside
// reconciliation's.
process.env.BENCH_PLUGIN_OPTIONS ??= JSON.stringify({
  recovery: { enabled: true, backendUrl: "https://api.bench.example.com" },
});
const { startSandbox } = await import("@pix-checkout/sandbox");
const sandbox = await startSandbox({ variant: "a" });
const app = await createBenchApp({
  apiKey: sandbox.defaultKey,
  baseUrl: sandbox.baseUrl,
  sessions,
});
const db = knex({ client: "pg", connection: app.env.DATABASE_URL, pool: { min: 0, max: 1 } });
try {
  writeFiles(app.dir, { "src/scripts/passes.js": PASS_SCRIPT });
  await medusa(["user", "-e", ADMIN.email, "-p", ADMIN.password], { cwd: app.dir, env: app.env });
  // Between payments nothing is due: the seeded charges are next checked, and reminded,
  // tomorrow.
  await db.raw(
    `update pix_checkout_charge set next_check_at = now() + interval '1 day', next_reminder_at = now() + interval '1 day'`,
  );
  const sessionIds = app.seed.sessions.map((s) => s.session_id);

  const measurePasses = async () => {
    const outFile = path.join(app.dir, "passes.json");
    await medusa(["exec", "./src/scripts/passes.js"], {
      cwd: app.dir,
      env: {
        ...app.env,
        BENCH_PLUGIN_SERVER: path.join(packageDir, ".medusa", "server", "src"),
        BENCH_PASSES: String(passes),
        BENCH_PASS_OUT: outFile,
        BENCH_STATUS_SESSION: sessionIds[0],
      },
    });
    const out = JSON.parse(readFileSync(outFile, "utf8"));
    const busy = out.reports.filter((r) => r.checked + r.deliveriesRetried + r.cartsCompleted > 0);
    if (busy.length > 0) throw new Error(`a timed pass had work to do: ${JSON.stringify(busy[0])}`);
    const reminding = out.reminderReports.filter((r) => r.due > 0);
    if (reminding.length > 0)
      throw new Error(`a timed reminders pass had work to do: ${JSON.stringify(reminding[0])}`);
    return out;
  };

  const measureStatus = async () => {
    const { url } = await app.start(port);
    const headers = { "x-publishable-api-key": app.seed.publishableKey };
    const get = async (id) => {
      const start = process.hrtime.bigint();
      const res = await fetch(`${url}/store/pix-checkout/sessions/${id}`, { headers });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`status route answered ${res.status}`);
      return Number(process.hrtime.bigint() - start) / 1e6;
    };
    // Warm-up: JIT, pools, the LISTEN channel.
    for (const id of sessionIds) await get(id);
    const ms = [];
    for (let r = 0; r < rounds; r += 1) {
      const began = Date.now();
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, began + 5_100 - Date.now())));
      const roundStart = Date.now();
      for (const id of sessionIds) ms.push(await get(id));
      // The next round starts 5.1 s after this one did, when every row has left the cache.
      await new Promise((resolve) =>
        setTimeout(resolve, Math.max(0, roundStart + 5_100 - Date.now())),
      );
    }
    // The admin's reads, with an admin's bearer token.
    const login = await fetch(`${url}/auth/user/emailpass`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(ADMIN),
    });
    const { token } = await login.json();
    if (!token) throw new Error(`admin login answered ${login.status}`);
    const adminGet = async (route) => {
      const start = process.hrtime.bigint();
      const res = await fetch(`${url}${route}`, { headers: { authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${route} answered ${res.status}`);
      return Number(process.hrtime.bigint() - start) / 1e6;
    };
    const admin = Object.fromEntries(Object.keys(ADMIN_ROUTES).map((name) => [name, []]));
    for (const route of Object.values(ADMIN_ROUTES))
      for (let i = 0; i < 3; i += 1) await adminGet(route);
    for (let i = 0; i < adminReads; i += 1) {
      for (const [name, route] of Object.entries(ADMIN_ROUTES))
        admin[name].push(await adminGet(route));
    }
    await app.stop();
    return { ms, admin };
  };

  // The fresh store is measured before and after the history (which is then truncated away and
  // the seeded rows put back), so a machine getting busier or quieter during the run does not
  // pass for an effect of the history.
  const tables = [
    "pix_checkout_charge",
    "pix_checkout_charge_event",
    "pix_checkout_webhook_delivery",
    "pix_checkout_reminder",
  ];
  for (const table of tables) {
    await db.raw(`create table bench_keep_${table} as select * from ${table}`);
  }
  const runs = [];
  // A smoke run proves the bench runs: the fresh store once, before the history. Measured, it is
  // measured again after, so a machine getting busier or quieter does not pass for the history's
  // effect; that costs two Medusa boots a smoke run (beside the browsers, on two cores) skips.
  for (const size of smoke ? [0, history] : [0, history, 0]) {
    if (size > 0) {
      const started = Date.now();
      for (const sql of historySql(size)) await db.raw(sql);
      console.log(
        `history: ${size} charges written and analyzed in ${((Date.now() - started) / 1000).toFixed(0)} s`,
      );
    } else if (runs.length > 0) {
      await db.raw(`truncate ${tables.join(", ")}`);
      for (const table of tables) {
        await db.raw(`insert into ${table} select * from bench_keep_${table}`);
      }
      await db.raw(`analyze ${tables.join(", ")}`);
    }
    const pass = await measurePasses();
    const { ms: status, admin } = await measureStatus();
    runs.push({ size, pass, status, admin });
    const seq = pass.plans.filter((p) => p.plan.some((line) => /Seq Scan/.test(line)));
    console.log(
      `${String(size).padStart(7)} charges: pass p50 ${round2(pct(pass.ms, 50))} ms, p95 ${round2(pct(pass.ms, 95))} ms, ` +
        `${round2(pass.rowsReadPerPass)} rows read per pass; reminders pass p50 ${round2(pct(pass.reminderMs, 50))} ms, p95 ${round2(pct(pass.reminderMs, 95))} ms, ${round2(pass.reminderRowsReadPerPass)} rows read; status p50 ${round2(pct(status, 50))} ms, p95 ${round2(pct(status, 95))} ms; ` +
        `${pass.plans.length} statements explained, ${seq.length} with a sequential scan`,
    );
    const adminSeq = pass.adminPlans.filter((p) => p.plan.some((line) => /Seq Scan/.test(line)));
    console.log(
      `${" ".repeat(15)}admin p50 / p95: ` +
        Object.entries(admin)
          .map(([name, ms]) => `${name} ${round2(pct(ms, 50))} / ${round2(pct(ms, 95))} ms`)
          .join(", ") +
        `; ${pass.adminPlans.length} admin statements explained, ${adminSeq.length} with a sequential scan`,
    );
    if (size > 0) {
      for (const { sql, plan } of [...pass.plans, ...pass.adminPlans]) {
        console.log(`\n${sql}\n  ${plan.join("\n  ")}`);
      }
    }
  }

  const fresh = runs.filter((run) => run.size === 0);
  const a = {
    pass: {
      ms: fresh.flatMap((run) => run.pass.ms),
    },
    status: fresh.flatMap((run) => run.status),
    reminders: fresh.flatMap((run) => run.pass.reminderMs),
  };
  const b = runs.find((run) => run.size === history);
  const figures = {
    history_charges: history,
    pass_p50_ms_0: round2(pct(a.pass.ms, 50)),
    pass_p95_ms_0: round2(pct(a.pass.ms, 95)),
    pass_p50_ms_1m: round2(pct(b.pass.ms, 50)),
    pass_p95_ms_1m: round2(pct(b.pass.ms, 95)),
    pass_p50_ratio: round2(pct(b.pass.ms, 50) / pct(a.pass.ms, 50)),
    pass_p95_ratio: round2(pct(b.pass.ms, 95) / pct(a.pass.ms, 95)),
    // The fresh store, before and after the history: once ANALYZE has seen its few rows, the
    // planner rightly reads small tables whole instead of through an index.
    pass_rows_read_0: fresh.map((run) => round2(run.pass.rowsReadPerPass)).join(" / "),
    pass_rows_read_1m: round2(b.pass.rowsReadPerPass),
    reminders_pass_p50_ms_0: round2(pct(a.reminders, 50)),
    reminders_pass_p95_ms_0: round2(pct(a.reminders, 95)),
    reminders_pass_p50_ms_1m: round2(pct(b.pass.reminderMs, 50)),
    reminders_pass_p95_ms_1m: round2(pct(b.pass.reminderMs, 95)),
    reminders_pass_p95_ratio: round2(pct(b.pass.reminderMs, 95) / pct(a.reminders, 95)),
    reminders_rows_read_0: fresh.map((run) => round2(run.pass.reminderRowsReadPerPass)).join(" / "),
    reminders_rows_read_1m: round2(b.pass.reminderRowsReadPerPass),
    status_p50_ms_0: round2(pct(a.status, 50)),
    status_p95_ms_0: round2(pct(a.status, 95)),
    status_p50_ms_1m: round2(pct(b.status, 50)),
    status_p95_ms_1m: round2(pct(b.status, 95)),
    status_p50_ratio: round2(pct(b.status, 50) / pct(a.status, 50)),
    status_p95_ratio: round2(pct(b.status, 95) / pct(a.status, 95)),
    seq_scans_in_plans_1m: b.pass.plans.filter((p) => p.plan.some((l) => /Seq Scan/.test(l)))
      .length,
    admin_seq_scans_in_plans_1m: b.pass.adminPlans.filter((p) =>
      p.plan.some((l) => /Seq Scan/.test(l)),
    ).length,
  };
  for (const name of Object.keys(ADMIN_ROUTES)) {
    const fresh0 = fresh.flatMap((run) => run.admin[name]);
    figures[`admin_${name}_p50_ms_0`] = round2(pct(fresh0, 50));
    figures[`admin_${name}_p95_ms_0`] = round2(pct(fresh0, 95));
    figures[`admin_${name}_p50_ms_1m`] = round2(pct(b.admin[name], 50));
    figures[`admin_${name}_p95_ms_1m`] = round2(pct(b.admin[name], 95));
    figures[`admin_${name}_p95_ratio`] = round2(pct(b.admin[name], 95) / pct(fresh0, 95));
  }
  console.log(
    `\n1M ÷ 0: pass p95 ${figures.pass_p95_ratio}x, reminders pass p95 ${figures.reminders_pass_p95_ratio}x, status p95 ${figures.status_p95_ratio}x, ` +
      Object.keys(ADMIN_ROUTES)
        .map(
          (name) =>
            `${name} p95 ${figures[`admin_${name}_p95_ms_1m`]} ms ÷ ${figures[`admin_${name}_p95_ms_0`]} ms (fresh, pooled) = ${figures[`admin_${name}_p95_ratio`]}x`,
        )
        .join(", ") +
      " (target <= 1.2 each)",
  );
  if (process.env.BENCH_OUT) {
    writeFileSync(
      process.env.BENCH_OUT,
      JSON.stringify({
        name: "medusa history: reconciliation and reminders passes, status route and admin reads, 0 vs 1M charges",
        figures,
      }),
    );
  }
} finally {
  await db.destroy();
  await app.close();
  await sandbox.close();
}
