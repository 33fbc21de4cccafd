#!/usr/bin/env node
// What a flood of session requests costs the shoppers beside it, on the BUILT server (run
// `npm run build` first): one `medusa start` (shared mode) and the sandbox behind a counting
// proxy. In each of three phases, 20 shoppers, each from a loopback address of its own
// (127.0.<10+phase>.x: the store sees 20 clients), start a Pix checkout one every 500 ms:
// collection, session, then the session's stream until the code. The phases:
// - alone: the shoppers and nobody else (the reference);
// - one: one flooding client (127.0.20.250) keeps 16 session requests in flight on carts of
//   its own, from 3 s before the first shopper until the last has its code, asking again the
//   moment each answer arrives (Retry-After ignored);
// - many: 15 flooding clients (127.0.21.10-24), 2 requests in flight each, likewise. A /64 is
//   one client as an IPv4 address is (ipv6PrefixLength), and IPv6 loopback is a single
//   address, so 15 IPv4 loopback addresses are 15 /64s, as the integration tests count them;
// - crowd (issue #61): 15 flooding clients (127.0.22.10-24) asking for 400 carts' codes at
//   once, 20 requests in flight in all (each address's carts asked in turn by the one or two
//   of the 20 that are its own), likewise. Every code the flood gets stays unpaid, so by the
//   line's rule (turns by what a client already holds) each flooding address falls behind
//   every shopper holding none;
// - sixty: 60 flooding clients (127.0.23.10-69), one request in flight each, on carts of their
//   own: more fresh addresses than the service's 60 creates a minute serve, each a newcomer as
//   a shopper is, which addresses alone cannot tell apart. Its shoppers come through a
//   storefront server that signs their address (`x-pix-client`, the store's
//   `fairness.storefrontSecret`), as the Next.js storefront's do; the flood, going around the
//   storefront, cannot sign. A signed shopper's create is vouched for and goes first;
// - returning: the same 60-address flood (127.0.24.10-69), and shoppers who do not sign (as the
//   demo's storefront, calling the store from the browser, cannot) but each of whom paid an
//   order here before with the same e-mail (paid untimed, in the minute before the phase's): a
//   returning customer's mailbox vouches for her create (`vouched_by = 'mailbox'`).
// Printed per phase: the shoppers' time to the code and to the session's answer (p50, p95), how
// many waited in the line, and their errors; the flood's requests, its answer times (p50, p95),
// its 429s and its other answers. Target: the shoppers' p95 with a flood within 2 s of theirs
// alone, and every shopper gets a code.
// The store runs with the options a merchant gets from the README and the demo: every `fairness`
// option at its default, and a `storefrontSecret` (the DTC starter guide's medusa-config sets
// one, and `npm run demo` makes one). Shoppers of the other phases do not sign, as the demo's
// storefront, which calls the store from the browser, cannot.
// Each phase starts in a fresh minute, and the flood's carts still waiting at its end leave
// the line (as if the flood had deleted them), so no phase inherits another's.
// Usage: node bench/flood.mjs   (BENCH_OUT=file.json also writes the figures)
// Env: BENCH_SMOKE=1 (5 shoppers, a flood of 4 in flight, a crowd of 30 carts 6 at a time, 60
// addresses with a cart each, no `many` phase and no waiting for fresh minutes: a quick run that
// the figures are not taken from), BENCH_FLOOD_PHASES (`alone,one,many,crowd,sixty,returning`, any subset,
// `alone` first), BENCH_PLUGIN_OPTIONS (the plugin entry's options, to measure a tuned store
// beside the defaults; its `fairness` keeps the storefront's secret unless it names another).
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import pg from "pg";
import { createBenchApp } from "./lib/bench-app.mjs";
import { closeClients, countingProxy, percentile, postFrom } from "./lib/http-tools.mjs";
import { checkout } from "./lib/shopper.mjs";

const smoke = Boolean(process.env.BENCH_SMOKE);
const SHOPPERS = smoke ? 5 : 20;
const SHOPPER_GAP_MS = smoke ? 400 : 500;
const FLOOD_LEAD_MS = smoke ? 1_500 : 3_000;
const WINDOW_MS = 60_000;
const GIVE_UP_MS = smoke ? 90_000 : 3 * 60_000;
// A smoke run leaves out `many` (the crowd's 15 addresses, fewer carts, the same code): its 30
// creates and the crowd's would pass the service's 60 a minute, and with no waiting for fresh
// minutes the crowd's shoppers then waited about 47 s for the next one, half the smoke run.
const phases = (
  process.env.BENCH_FLOOD_PHASES ??
  (smoke ? "alone,one,crowd,sixty,returning" : "alone,one,many,crowd,sixty,returning")
).split(",");

const addressesIn = (subnet, n) => Array.from({ length: n }, (_, i) => `127.0.${subnet}.${10 + i}`);
const fifteen = (subnet) => addressesIn(subnet, 15);
/**
 * The flood shapes: its addresses, the requests in flight in all (spread over the addresses in
 * turn) and the carts it asks codes for (each address asks for its own, in turn).
 */
const FLOODS = {
  one: { addresses: ["127.0.20.250"], inFlight: smoke ? 4 : 16, carts: smoke ? 8 : 48 },
  many: { addresses: fifteen(21), inFlight: smoke ? 15 : 30, carts: smoke ? 30 : 90 },
  crowd: { addresses: fifteen(22), inFlight: smoke ? 6 : 20, carts: smoke ? 30 : 400 },
  sixty: { addresses: addressesIn(23, 60), inFlight: 60, carts: smoke ? 60 : 180 },
  returning: { addresses: addressesIn(24, 60), inFlight: 60, carts: smoke ? 60 : 180 },
};
/** The phases whose shoppers paid an order here before, with the e-mail of their new cart. */
const RETURNING = new Set(["returning"]);
/** The phases whose shoppers come through a storefront server that signs their address. */
const SIGNED = new Set(["sixty"]);
const floodCarts = (shape) => FLOODS[shape].carts;
/** The address that asks for the flood's i-th cart (and made its payment collection). */
const ownerOf = (shape, i) => FLOODS[shape].addresses[i % FLOODS[shape].addresses.length];

// The storefront's secret, as the guide's medusa-config and the demo set one; every other
// option is the merchant's default.
const storefrontSecret = randomBytes(32).toString("hex");
const tuned = JSON.parse(process.env.BENCH_PLUGIN_OPTIONS ?? "{}");
process.env.BENCH_PLUGIN_OPTIONS = JSON.stringify({
  ...tuned,
  fairness: { storefrontSecret, ...tuned.fairness },
});

// The plugin's own signer, the one its verifier is tested against (the built server's).
const { STOREFRONT_CLIENT_HEADER, signClientAddress } =
  await import("../.medusa/server/src/internal/create-line/storefront-signature.js");

/** The header a storefront server sends with a shopper's request. */
function signedAddress(address) {
  return { [STOREFRONT_CLIENT_HEADER]: signClientAddress(storefrontSecret, address) };
}

const { startSandbox } = await import("@pix-checkout/sandbox");
const sandbox = await startSandbox({ variant: "a" });
const proxy = await countingProxy(sandbox.url);
const floodPhases = phases.filter((p) => p in FLOODS);
const app = await createBenchApp({
  apiKey: sandbox.defaultKey,
  baseUrl: `${proxy.url}/v1`,
  sessions: 0,
  freshCarts:
    SHOPPERS * phases.length +
    SHOPPERS * phases.filter((phase) => RETURNING.has(phase)).length +
    floodPhases.reduce((n, shape) => n + floodCarts(shape), 0),
});
const db = new pg.Client({ connectionString: app.env.DATABASE_URL });

/** Waits until no create of the service's is younger than a window: the minute is fresh. */
async function freshMinute() {
  if (smoke) return;
  const last = proxy.createTimes.length ? Math.max(...proxy.createTimes) : -Infinity;
  const waitMs = last + WINDOW_MS + 1_000 - performance.now();
  if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
}

/**
 * The flood: each of its `inFlight` workers is one address's (in turn) and asks for a session on
 * that address's next cart (its carts in turn, shared with the address's other workers) the
 * moment its last answer arrives, until `stop()`. Resolves with every answer's status, time and
 * code.
 */
function startFlood(base, key, shape, collections) {
  const { addresses, inFlight } = FLOODS[shape];
  const answers = [];
  let stopped = false;
  const cartsOf = addresses.map((_, a) => collections.filter((_, i) => i % addresses.length === a));
  const asked = addresses.map(() => 0);
  const workers = Array.from({ length: inFlight }, async (_, w) => {
    const a = w % addresses.length;
    const from = addresses[a];
    const mine = cartsOf[a];
    while (!stopped) {
      const cart = mine[asked[a]++ % mine.length];
      const started = performance.now();
      try {
        const answer = await postFrom(
          from,
          `${base}/store/payment-collections/${cart}/payment-sessions`,
          { provider_id: "pp_pix_a" },
          { "x-publishable-api-key": key },
        );
        const body = await answer.json().catch(() => ({}));
        answers.push({ status: answer.status, ms: performance.now() - started, code: body.code });
      } catch (error) {
        answers.push({ status: 0, ms: performance.now() - started, code: error.message });
      }
    }
  });
  const t0 = performance.now();
  return {
    async stop() {
      stopped = true;
      await Promise.all(workers);
      return { answers, seconds: (performance.now() - t0) / 1000 };
    },
  };
}

/** The flood's carts get their payment collection from the flood's own address, untimed. */
async function collectionsOf(base, key, shape, carts) {
  const ids = [];
  for (const [i, cartId] of carts.entries()) {
    const from = ownerOf(shape, i);
    const answer = await postFrom(
      from,
      `${base}/store/payment-collections`,
      { cart_id: cartId },
      { "x-publishable-api-key": key },
    );
    if (answer.status !== 200) throw new Error(`flood collection: ${answer.status}`);
    ids.push((await answer.json()).payment_collection.id);
  }
  return ids;
}

/**
 * The shoppers of a phase, one every SHOPPER_GAP_MS, each from its own address; `signed`, each
 * POST carrying that address signed as a storefront server signs it. (Each still calls from its
 * own address, as its browser opens the session's stream: a signed address is believed from
 * wherever it comes.)
 */
function shoppers(base, key, carts, phase, signed) {
  return Promise.all(
    carts.map((cartId, i) =>
      new Promise((resolve) => setTimeout(resolve, i * SHOPPER_GAP_MS)).then(() => {
        const address = `127.0.${10 + phase}.${10 + i}`;
        const headers = signed ? signedAddress(address) : {};
        return checkout(base, key, cartId, address, GIVE_UP_MS, headers).catch((error) => ({
          error: String(error.message),
        }));
      }),
    ),
  );
}

/**
 * Makes each shopper of a phase a returning customer, untimed: from her address, a Pix for an
 * earlier cart with her e-mail, paid at the sandbox, the cart completed into an order; her new
 * cart gets the same e-mail. What the store then knows of her is that mailbox's paid order.
 */
async function returningCustomers(base, key, carts, earlierCarts, phase) {
  const stamp = Date.now();
  await Promise.all(
    carts.map(async (cartId, i) => {
      const from = `127.0.${10 + phase}.${10 + i}`;
      const email = `cliente-${stamp}-${i}@example.com`;
      const headers = { "x-publishable-api-key": key };
      const post = async (path, body) => {
        const answer = await postFrom(from, `${base}${path}`, body, headers);
        if (answer.status !== 200) {
          throw new Error(`returning customer: ${path} ${answer.status} ${await answer.text()}`);
        }
        return answer.json();
      };
      const earlier = earlierCarts[i];
      for (const cart of [earlier, cartId]) await post(`/store/carts/${cart}`, { email });
      const code = await checkout(base, key, earlier, from, GIVE_UP_MS);
      if (code.error) throw new Error(`returning customer's earlier code: ${code.error}`);
      const { rows } = await db.query(
        `select c.charge_id from pix_checkout_charge c
           join cart_payment_collection cpc on cpc.payment_collection_id = c.payment_collection_id
          where cpc.cart_id = $1 and c.deleted_at is null`,
        [earlier],
      );
      const pay = await fetch(`${sandbox.url}/__sandbox/charges/${rows[0].charge_id}/pay`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      if (!pay.ok) throw new Error(`returning customer's payment: ${pay.status}`);
      // The plugin completes a paid cart itself; asking again answers the same order.
      for (let tries = 0; ; tries += 1) {
        const done = await postFrom(from, `${base}/store/carts/${earlier}/complete`, {}, headers);
        const body = await done.json().catch(() => ({}));
        if (body.type === "order") break;
        if (tries >= 60) throw new Error(`returning customer's order: ${done.status} ${body.code}`);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }),
  );
}

/** The flood's carts still in line leave it, with the refusals it earned: the next phase is clean. */
async function clearLine() {
  await db.query(
    `update pix_checkout_create_request set state = 'canceled', input = null where state = 'waiting'`,
  );
  await db.query(`delete from pix_checkout_create_hold`);
  await db.query(`delete from pix_checkout_client_refusal`);
}

const seconds = (ms) => Number((ms / 1000).toFixed(2));

function shopperFigures(prefix, results) {
  const times = results
    .map((r) => r.codeMs)
    .filter((ms) => ms !== undefined)
    .sort((a, b) => a - b);
  // The session's answer apart from the code's: a slow turn or workflow, or a long wait in line.
  const sessions = results
    .map((r) => r.sessionMs)
    .filter((ms) => ms !== undefined)
    .sort((a, b) => a - b);
  const errors = results.filter((r) => r.error);
  for (const error of errors.slice(0, 3)) console.error(`  shopper (${prefix}): ${error.error}`);
  return {
    [`${prefix}_shoppers_code_p50_s`]: times.length ? seconds(percentile(times, 50)) : null,
    [`${prefix}_shoppers_code_p95_s`]: times.length ? seconds(percentile(times, 95)) : null,
    [`${prefix}_shoppers_session_p50_s`]: sessions.length
      ? seconds(percentile(sessions, 50))
      : null,
    [`${prefix}_shoppers_session_p95_s`]: sessions.length
      ? seconds(percentile(sessions, 95))
      : null,
    [`${prefix}_shoppers_queued`]: results.filter((r) => r.queued).length,
    [`${prefix}_shoppers_without_code`]: errors.length,
  };
}

function floodFigures(prefix, { answers, seconds: ranFor }) {
  const times = answers.map((a) => a.ms).sort((a, b) => a - b);
  const others = answers.filter((a) => a.status !== 200 && a.status !== 429);
  for (const other of others.slice(0, 3)) {
    console.error(`  flood (${prefix}): ${other.status} ${other.code ?? ""}`);
  }
  return {
    [`${prefix}_flood_requests`]: answers.length,
    [`${prefix}_flood_per_s`]: Math.round(answers.length / ranFor),
    [`${prefix}_flood_answer_p50_ms`]: times.length ? Math.round(percentile(times, 50)) : null,
    [`${prefix}_flood_answer_p95_ms`]: times.length ? Math.round(percentile(times, 95)) : null,
    [`${prefix}_flood_429s`]: answers.filter((a) => a.status === 429).length,
    [`${prefix}_flood_200s`]: answers.filter((a) => a.status === 200).length,
    [`${prefix}_flood_other`]: others.length,
  };
}

const figures = { shoppers: SHOPPERS };
let failed = false;
try {
  await db.connect();
  const { url } = await app.start(9351);
  const key = app.seed.publishableKey;
  let next = 0;
  const take = (n) => app.seed.freshCarts.slice(next, (next += n));
  for (const [p, phase] of phases.entries()) {
    const carts = take(SHOPPERS);
    if (!(phase in FLOODS)) {
      await freshMinute();
      const results = await shoppers(url, key, carts, p, false);
      Object.assign(figures, shopperFigures(phase, results));
      failed ||= results.some((r) => r.error);
      continue;
    }
    if (RETURNING.has(phase)) {
      await freshMinute();
      await returningCustomers(url, key, carts, take(SHOPPERS), p);
    }
    const collections = await collectionsOf(url, key, phase, take(floodCarts(phase)));
    await freshMinute();
    const flood = startFlood(url, key, phase, collections);
    await new Promise((resolve) => setTimeout(resolve, FLOOD_LEAD_MS));
    const results = await shoppers(url, key, carts, p, SIGNED.has(phase));
    const floodRun = await flood.stop();
    Object.assign(figures, shopperFigures(phase, results), floodFigures(phase, floodRun));
    // Whose creates the line served as vouched for: the storefront's signed shoppers, the
    // returning customers' mailboxes.
    const vouched = await db.query(
      `select count(*)::int as n from pix_checkout_create_request r
         join cart_payment_collection cpc on cpc.payment_collection_id = r.payment_collection_id
        where cpc.cart_id = any($1) and r.vouched_by is not null`,
      [carts],
    );
    figures[`${phase}_shoppers_vouched`] = vouched.rows[0].n;
    failed ||= results.some((r) => r.error);
    await clearLine();
  }
  for (const phase of floodPhases) {
    const alone = figures.alone_shoppers_code_p95_s;
    const flooded = figures[`${phase}_shoppers_code_p95_s`];
    if (typeof alone === "number" && typeof flooded === "number") {
      figures[`${phase}_p95_minus_alone_s`] = Number((flooded - alone).toFixed(2));
    }
  }
  console.table(figures);
  if (process.env.BENCH_OUT) {
    writeFileSync(process.env.BENCH_OUT, JSON.stringify({ name: "flood", figures }));
  }
} finally {
  closeClients();
  await db.end().catch(() => undefined);
  await app.close();
  proxy.close();
  await sandbox.close();
}
// A shopper without a code is a broken store, whatever the machine: the run fails.
if (failed) {
  console.error("✖ a shopper got no code");
  process.exit(1);
}
