#!/usr/bin/env node
// `npm run chaos`: many checkouts against a scaled-out store while the payment service
// misbehaves, then checks that nothing was lost or doubled. Exits 1 on any violation.
//
// Topology: two `medusa start` server instances and one worker (MEDUSA_WORKER_MODE), all on
// one fresh Postgres database and the local Redis (event bus, workflow engine, locking), behind
// a round-robin loopback balancer that shoppers and webhooks both go through. Two sandboxes
// (Variant A: Pix + boleto; Variant B: Pix) inject faults the whole time. Instance 1 is
// restarted mid-run. The first wave is a burst over the sandbox's 60/min create limit.
// Carts mix products and quantities (many amounts), one in four carries the PIX10 promotion
// (a total with a fraction of a cent), and a burst of shoppers at one same price runs while
// Variant A loses create responses (before and after the charge is made).
// Options (environment): CHAOS_CHECKOUTS (300), CHAOS_CONCURRENCY (12), REDIS_URL,
// CHAOS_PG_URL (postgres://postgres@localhost:5432), CHAOS_KEEP=1 keeps the database and logs.
import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, request as httpRequest } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { once } from "node:events";

const root = new URL("../..", import.meta.url).pathname;
const appDir = new URL("./app", import.meta.url).pathname;
const require = createRequire(join(root, "package.json"));
const medusaCli = require.resolve("@medusajs/cli/cli.js");
const pg = require("pg");
const { startSandbox } = await import("@pix-checkout/sandbox");

const CHECKOUTS = Number(process.env.CHAOS_CHECKOUTS ?? 300);
const CONCURRENCY = Number(process.env.CHAOS_CONCURRENCY ?? 12);
const BURST = Math.min(CHECKOUTS, 80);
const SAME_PRICE = Number(process.env.CHAOS_SAME_PRICE ?? 30);
const PG_URL = process.env.CHAOS_PG_URL ?? "postgres://postgres@localhost:5432";
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const API_KEY = "sk_live_chaos_5ecret_never_show_me";
const WEBHOOK_SECRET = `chaos-${process.pid}-0123456789abcdef`;
const RECONCILE_MS = 60_000;
const DB = `pix_chaos_${process.pid}`;
const logDir = join(tmpdir(), `pix-chaos-${process.pid}`);
mkdirSync(logDir, { recursive: true });
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
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid, "SIGKILL");
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
async function startInstance(name, port, mode) {
  const child = medusa(name, ["start", "--host", "127.0.0.1", "--port", String(port)], {
    MEDUSA_WORKER_MODE: mode,
    PORT: String(port),
  });
  await waitHealthy(port, child, name);
  return child;
}

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
          { host: "127.0.0.1", port, method: req.method, path: req.url, headers: req.headers },
          (up) => {
            res.writeHead(up.statusCode ?? 502, up.headers);
            up.pipe(res);
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
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

// ---------------------------------------------------------------- setup
const admin = new pg.Client({ connectionString: `${PG_URL}/postgres` });
await admin.connect();
await admin.query(`create database "${DB}"`);
const sandboxA = await startSandbox({ variant: "a", keys: [API_KEY] });
const sandboxB = await startSandbox({ variant: "b", keys: [API_KEY] });
const baseEnv = {
  DATABASE_URL: `${PG_URL}/${DB}`,
  REDIS_URL,
  PIX_API_KEY: API_KEY,
  PIX_SANDBOX_A_URL: sandboxA.baseUrl,
  PIX_SANDBOX_B_URL: sandboxB.baseUrl,
  PIX_WEBHOOK_SECRET: WEBHOOK_SECRET,
  NODE_ENV: "production",
};
let db;
let balancer;
const instances = {};
const violations = [];
const figures = {};

async function teardown() {
  await Promise.all([...children].map((child) => stop(child)));
  balancer?.closeAllConnections?.();
  balancer?.close();
  await sandboxA.close();
  await sandboxB.close();
  await db?.end().catch(() => undefined);
  // A failed run keeps its database and logs for the post-mortem.
  if (!process.env.CHAOS_KEEP && violations.length === 0) {
    await admin.query(`drop database if exists "${DB}" with (force)`).catch(() => undefined);
    rmSync(logDir, { recursive: true, force: true });
  }
  await admin.end();
}
process.once("SIGINT", () => void teardown().then(() => process.exit(130)));

try {
  log(`migrating ${DB} and seeding (logs in ${logDir})`);
  await runToEnd("migrate", ["db:migrate"]);
  const seedOut = join(logDir, "seed.json");
  await runToEnd("seed", ["exec", join(root, "apps/demo/src/scripts/seed.ts")], {
    PIX_DEMO_SEED_OUTPUT: seedOut,
  });
  const seed = JSON.parse(readFileSync(seedOut, "utf8"));
  db = new pg.Client({ connectionString: baseEnv.DATABASE_URL });
  await db.connect();
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
    body: JSON.stringify({ url: `${store}/hooks/pix-checkout/b` }),
  });
  const faults = {
    webhook_drop_rate: 0.2,
    webhook_duplicate_rate: 0.3,
    webhook_delay_ms: [0, 10_000],
    webhook_reorder: true,
    http_5xx_rate: 0.05,
    latency_ms: [5, 150],
  };
  for (const sandbox of [sandboxA, sandboxB]) {
    await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(faults),
    });
  }

  // -------------------------------------------------------------- checkouts
  const key = { "x-publishable-api-key": seed.publishableKey, "content-type": "application/json" };
  const answers = [];
  /** One store call, recorded. Steps other than the session create must succeed. */
  async function call(method, path, body, { mustSucceed = true } = {}) {
    for (let attempt = 0; ; attempt += 1) {
      const res = await fetch(`${store}${path}`, {
        method,
        headers: key,
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
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
      answers.push({ method, path, status: res.status, code: json?.code ?? json?.type, text });
      if (mustSucceed && res.status >= 300) {
        throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 160)}`);
      }
      return { status: res.status, json };
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
  const outcomes = { created: 0, refused: 0, paid: 0, expired: 0, errors: 0 };
  const sessions = [];

  /**
   * One shopper. `samePrice` shoppers all buy one unit of the first variant with no promotion,
   * so their charges have one amount; the others mix variants, quantities and PIX10.
   */
  async function checkout(i, { samePrice = false } = {}) {
    const kind = samePrice ? kinds[1] : kinds[i % kinds.length];
    const expire = i % 5 === 4; // one in five is left to expire
    const { json: created } = await call("POST", "/store/carts", {
      region_id: seed.regionId,
      email: `shopper${i}@example.com`,
    });
    const cartId = created.cart.id;
    await call("POST", `/store/carts/${cartId}/line-items`, {
      variant_id: samePrice ? variantIds[0] : variantIds[i % variantIds.length],
      quantity: samePrice ? 1 : 1 + (i % 3),
    });
    if (!samePrice && i % 4 === 1) {
      await call("POST", `/store/carts/${cartId}/promotions`, { promo_codes: ["PIX10"] });
    }
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
    // A shopper told "try again" tries again, as the storefront lets them.
    let session;
    for (let attempt = 0; attempt < 8 && !session; attempt += 1) {
      const res = await call(
        "POST",
        `/store/payment-collections/${collection.payment_collection.id}/payment-sessions`,
        { provider_id: kind.provider, data },
        { mustSucceed: false },
      );
      if (res.status === 200) {
        session = res.json.payment_collection.payment_sessions.find(
          (s) => s.provider_id === kind.provider,
        );
      } else if (res.status === 409 || res.status === 429 || res.status >= 500) {
        // 409 is the plugin's "the payment service is busy, nothing was charged, try again"
        // (Medusa renders it with its generic retry text); a 5xx is retried too but is also
        // reported as a violation below.
        outcomes.refused += 1;
        await new Promise((resolve) => setTimeout(resolve, 2_000 * (attempt + 1)));
      } else {
        throw new Error(`session refused ${res.status}: ${JSON.stringify(res.json).slice(0, 200)}`);
      }
    }
    if (!session) throw new Error(`cart ${cartId}: no session after 8 tries`);
    outcomes.created += 1;
    const chargeId = session.data.charge_id;
    sessions.push({
      cartId,
      sessionId: session.id,
      collectionId: collection.payment_collection.id,
      chargeId,
      kind,
      expire,
    });
    if (kind.orderFirst) {
      // Medusa answers 409 invalid_state_error when another request holds the cart's lock and
      // says to retry; the storefront does, so the driver does too.
      let completed = await call("POST", `/store/carts/${cartId}/complete`, undefined, {
        mustSucceed: false,
      });
      for (let retry = 0; completed.status === 409 && retry < 5; retry += 1) {
        await new Promise((resolve) => setTimeout(resolve, 1_000 * (retry + 1)));
        completed = await call("POST", `/store/carts/${cartId}/complete`, undefined, {
          mustSucceed: false,
        });
      }
      const { json } = completed;
      if (json?.type !== "order")
        throw new Error(`cart ${cartId} did not complete: ${JSON.stringify(json).slice(0, 160)}`);
    }
    const action = expire ? "expire" : "pay";
    // The control route is outside the fault injector; repeat on a transient failure.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const res = await fetch(`${kind.sandbox.url}/__sandbox/charges/${chargeId}/${action}`, {
        method: "POST",
      });
      if (res.ok || res.status === 409) break;
    }
    outcomes[expire ? "expired" : "paid"] += 1;
    // Pay-first shoppers poll the status route, as <pix-checkout> does, and then complete.
    if (!kind.orderFirst && !expire) {
      for (let poll = 0; poll < 20; poll += 1) {
        const { json } = await call(
          "GET",
          `/store/pix-checkout/sessions/${session.id}`,
          undefined,
          {
            mustSucceed: false,
          },
        );
        if (json?.status === "paid") break;
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    }
  }

  async function pool(indices, width, options = {}) {
    const queue = [...indices];
    await Promise.all(
      Array.from({ length: width }, async () => {
        for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
          await checkout(i, options).catch((error) => {
            outcomes.errors += 1;
            violations.push(`checkout ${i} broke: ${error.message}`);
          });
        }
      }),
    );
  }

  log(`burst: ${BURST} checkouts at once (over the 60/min create limit)`);
  await pool(
    Array.from({ length: BURST }, (_, i) => i),
    BURST,
  );
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
  const half = Math.floor(rest.length / 2);
  log(`wave 2: ${half} checkouts, ${CONCURRENCY} at a time`);
  await pool(rest.slice(0, half), CONCURRENCY);
  log("restarting server-1 while wave 3 runs");
  const wave3 = pool(rest.slice(half), CONCURRENCY);
  await stop(instances.s1);
  instances.s1 = await startInstance("server-1", ports[0], "server");
  await wave3;
  const lastAction = Date.now();
  log(`all ${CHECKOUTS} checkouts driven; waiting up to one reconciliation interval`);

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
      if (truth === "paid") {
        if (row?.status !== "paid") found.push(`paid charge ${tag} is ${row?.status} locally`);
        if (captures !== 1) found.push(`paid charge ${tag} has ${captures} captures`);
        if (orders.length !== 1) found.push(`paid charge ${tag} has ${orders.length} orders`);
        else if (orders[0].status === "canceled") found.push(`paid charge ${tag}: order canceled`);
        else {
          // The order must not be left awaiting payment: its collection is completed.
          const { rows: collections } = await db.query(
            `select pc.status from order_payment_collection opc
             join payment_collection pc on pc.id = opc.payment_collection_id
             where opc.order_id = $1 and opc.deleted_at is null`,
            [orders[0].id],
          );
          if (!collections.some((c) => c.status === "completed"))
            found.push(
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
            found.push(
              `paid charge ${tag}: order shows ${summary?.pd?.value ?? summary?.pd} outstanding`,
            );
        }
      } else if (truth === "expired") {
        if (!["expired", "canceled"].includes(row?.status))
          found.push(`expired charge ${tag} is ${row?.status} locally`);
        if (captures !== 0) found.push(`expired charge ${tag} has ${captures} captures`);
        for (const order of orders) {
          if (order.status !== "canceled")
            found.push(`expired charge ${tag}: order ${order.status}`);
        }
      } else {
        found.push(`charge ${tag} is ${truth} at the sandbox (expected paid or expired)`);
      }
    }
    const { rows: doubled } = await db.query(
      `select session_id, count(*)::int as n from pix_checkout_charge group by session_id having count(*) > 1`,
    );
    for (const d of doubled) found.push(`session ${d.session_id} has ${d.n} charges`);
    // No session is bound to a charge created for another cart: the session named in the
    // charge's description (its reference) pays the same payment collection.
    for (const s of sessions) {
      const ref = descriptions.get(s.chargeId)?.match(/\(ref (payses_\w+)\)/)?.[1];
      if (!ref) {
        found.push(`charge ${s.chargeId} has no session reference in its description`);
        continue;
      }
      if (ref === s.sessionId) continue;
      const {
        rows: [origin],
      } = await db.query(`select payment_collection_id from payment_session where id = $1`, [ref]);
      if (origin?.payment_collection_id !== s.collectionId)
        found.push(`session ${s.sessionId} is bound to charge ${s.chargeId} made for ${ref}`);
    }
    return found;
  }
  let found = await check();
  const deadline = lastAction + RECONCILE_MS + 75_000; // one interval + the job's 1-min cron + slack
  while (found.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    found = await check();
  }
  figures.settledAfterLastActionS = ((Date.now() - lastAction) / 1000).toFixed(0);
  violations.push(...found);

  const fiveHundreds = answers.filter((a) => a.status >= 500 && !a.code);
  const plain500 = answers.filter((a) => a.status === 500);
  for (const a of [...new Set([...fiveHundreds, ...plain500])].slice(0, 20)) {
    violations.push(`${a.method} ${a.path} answered ${a.status} ${a.text.slice(0, 120)}`);
  }
  const leaks = answers.filter((a) => a.text.includes(API_KEY));
  for (const a of leaks.slice(0, 5)) violations.push(`${a.method} ${a.path} leaked the API key`);
  // Leak scan over everything the three Medusa processes wrote (their logs, errors included).
  let logLeaks = 0;
  for (const name of ["worker", "server-1", "server-2", "migrate", "seed"]) {
    const text = readFileSync(join(logDir, `${name}.log`), "utf8");
    if (text.includes(API_KEY)) {
      logLeaks += 1;
      violations.push(`${name}.log contains the API key`);
    }
  }
  const tryAgain = answers.filter(
    (a) => a.status === 409 || a.status === 429 || (a.status >= 502 && a.code),
  );

  const { rows: deliveries } = await db.query(
    `select outcome, count(*)::int as n from pix_checkout_webhook_delivery group by outcome order by outcome`,
  );
  const paidCount = sessions.filter((s) => sandboxTruth.get(s.chargeId) === "paid").length;
  const expiredCount = sessions.filter((s) => sandboxTruth.get(s.chargeId) === "expired").length;
  const rows = [
    ["Checkouts driven", CHECKOUTS],
    ["Sessions created", outcomes.created],
    ["Session creates answered 'try again' (then retried)", outcomes.refused],
    ["Paid at the service / expired", `${paidCount} / ${expiredCount}`],
    ["Store answers, total", answers.length],
    ["Store answers 'try again' (409, 429 or coded 502/503)", tryAgain.length],
    ["Store answers 500 or uncoded 5xx", plain500.length + fiveHundreds.length],
    ["Store answers or process logs with the API key", leaks.length + logLeaks],
    [
      "Webhook deliveries stored, by outcome",
      deliveries.map((d) => `${d.outcome} ${d.n}`).join(", "),
    ],
    ["Settled after last action", `${figures.settledAfterLastActionS} s`],
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
  await teardown();
}
process.exit(violations.length ? 1 : 0);
