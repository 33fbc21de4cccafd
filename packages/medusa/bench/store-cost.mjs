#!/usr/bin/env node
// The plugin's cost to the store (#61): Medusa's own shopper routes on a stock Medusa (no
// plugin, no Pix or boleto provider, so none of the plugin's middlewares, subscribers, hooks
// or jobs) against the same Medusa with the plugin, in one run on this machine. Both are BUILT
// apps (`medusa start`, NODE_ENV=production, one process each, server and worker in one), on
// the same Node.js, on byte-identical databases: the plugin app's database is seeded (products,
// a region, shipping options, carts) and then copied for the stock app, so both read the same
// rows. The stock app ignores the plugin's tables and its providers' region links.
// The figure the goal (>= 0.95) is read on: the routes REQUEST BY REQUEST, one request at a
// time, the same request to each store in turn (which first, a coin toss), both stores awake;
// the ratio is stock ÷ plugin time, the median of the pairs (lib/request-pairs.mjs). Two requests
// a few milliseconds apart meet the same machine, whose speed here moves from second to second.
// It runs in ROUNDS: each boots both stores afresh on fresh copies of the seeded database, with
// the round's hash and random seeds and no address-space randomisation, and every other round
// swaps their ports; the figure is the median of the rounds. Two stock stores (BENCH_AA=1, the
// control: the plugin's store replaced by a second stock one) differ by up to 13 % on a route
// within one boot, steadily, and the other way round the next: one boot cannot tell 5 %.
// Before the rounds, throughput under load, in pairs of short slices, one on each store while
// the other is paused (SIGSTOP: its timers, jobs and pools take no CPU from the one measured),
// each after a warm-up, the order flipped each pair; the median of the pairs' ratios, and the
// server process's CPU per request (/proc). Optionally the same load side by side at once
// ("together": both awake, each under the same load at the same moments). On a 2-core machine
// both scatter about ±10 % on routes the plugin never touches (test/bench/FIGURES.md).
// Completions go to fresh carts of each store's copy, paid with Medusa's system provider
// (`pp_system_default`) on both: the route is compared, not the payment.
// Usage: node bench/store-cost.mjs   (BENCH_OUT=file.json also writes the figures)
// Env: BENCH_BOOTS (rounds; 6), BENCH_PAIRED (request pairs per route a round; 200),
// BENCH_PAIRED_COMPLETES (completion pairs a round; 60), BENCH_AA (the control), BENCH_PAIRS
// (pairs of slices under load; 3, 0 to skip), BENCH_SECONDS (per slice; 4), BENCH_CONNECTIONS
// (8), BENCH_COMPLETES (carts completed per slice; 30), BENCH_ROUTES (a comma list of the routes
// to measure: products, cart_read, cart_update, shipping_options, complete; all by default),
// BENCH_CPU_PROF_DIR (each store of the slices writes a V8 CPU profile of its whole run under
// it, in `stock` and `plugin`, to see where a difference goes), BENCH_TOGETHER_ROUNDS (rounds of
// the side-by-side measure, each route once a round; 0 by default).
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createBenchApp } from "./lib/bench-app.mjs";
import { median, timed, timeRequestPairs } from "./lib/request-pairs.mjs";
import { freePorts } from "./lib/http-tools.mjs";
import {
  createDatabase,
  dropDatabase,
  packageDir,
  startMedusa,
  stopProcess,
  writeApp,
} from "../scripts/lib/built-app.mjs";

// BENCH_SMOKE (`npm run bench -- --smoke`, run by `npm test`): one short round, to prove it runs.
const smoke = Boolean(process.env.BENCH_SMOKE);
const seconds = Number(process.env.BENCH_SECONDS ?? (smoke ? 1 : 4));
const warmupSeconds = smoke ? 0.3 : 1;
const pairs = Number(process.env.BENCH_PAIRS ?? (smoke ? 1 : 3));
// Long enough for the plugin's most frequent jobs (every 15 and 30 s) to run.
const idleSeconds = smoke ? 2 : 45;
const connections = Number(process.env.BENCH_CONNECTIONS ?? (smoke ? 4 : 8));
// 30: with 10, one slow completion moved a slice's figure by a tenth, past the goal's margin.
const completes = Number(process.env.BENCH_COMPLETES ?? (smoke ? 2 : 30));
const chosenRoutes = process.env.BENCH_ROUTES?.split(",").map((name) => name.trim());
const profileDir = process.env.BENCH_CPU_PROF_DIR;
// Completions run fewer at a time: each takes the cart's lock and writes an order.
const completeConnections = Math.min(4, connections);
const PG = process.env.BENCH_PG_URL ?? "postgres://postgres@localhost:5432";
// The two stores' ports, free ones: another bench (or checkout) may hold any fixed pair.
const [PORT_A, PORT_B] = await freePorts(2);

const togetherRounds = Number(process.env.BENCH_TOGETHER_ROUNDS ?? (smoke ? 1 : 0));
// Completions side by side run for `seconds` on each store at once: carts enough for the fastest
// store alone (about 10 a second here), so neither runs out and finishes early.
const togetherCarts = Math.ceil(seconds * 12) + 1;
// Request by request: pairs per route and round, after a few pairs of warm-up.
const pairedRequests = Number(process.env.BENCH_PAIRED ?? (smoke ? 4 : 200));
const pairedCompletes = Number(process.env.BENCH_PAIRED_COMPLETES ?? (smoke ? 2 : 60));
const pairedWarmup = smoke ? 1 : 10;
const boots = Number(process.env.BENCH_BOOTS ?? (smoke ? 1 : 6));
// Each slice of completions is one warm-up cart, then `completes` carts, and each round side by
// side takes its own; the rounds request by request each complete their own copies' first carts.
const cartsToComplete = Math.max(
  pairs * (completes + 1) + togetherRounds * togetherCarts,
  pairedCompletes + pairedWarmup,
);

/** CPU time (user + system) a process has used so far, in ms (Linux /proc; 0 elsewhere). */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    // utime and stime, fields 14 and 15 of stat (11 and 12 after the name), in clock ticks.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}
const CLOCK_TICKS = 100;

// The store both apps sell from: 24 products, two delivery options, the region paying with
// Medusa's system provider too, a cart per connection for the read, update and shipping
// routes, and carts with a delivery and a system payment session ready to complete.
const SEED_BODY = `
  const utils = require("@medusajs/framework/utils");
  const { Modules } = utils;
  const link = container.resolve(utils.ContainerRegistrationKeys.LINK);
  const fulfillment = container.resolve(Modules.FULFILLMENT);
  const region = regions[0];
  const channel = channels[0];
  await core.updateRegionsWorkflow(container).run({
    input: { selector: { id: region.id }, update: { payment_providers: ["pp_pix_a", "pp_boleto_a", "pp_system_default"] } },
  });
  const { result: locations } = await core.createStockLocationsWorkflow(container).run({ input: { locations: [{ name: "Depósito" }] } });
  const locationId = locations[0].id;
  await core.linkSalesChannelsToStockLocationWorkflow(container).run({ input: { id: locationId, add: [channel.id] } });
  await link.create({ [Modules.STOCK_LOCATION]: { stock_location_id: locationId }, [Modules.FULFILLMENT]: { fulfillment_provider_id: "manual_manual" } });
  const set = await fulfillment.createFulfillmentSets({
    name: "Entregas", type: "shipping",
    service_zones: [{ name: "Brasil", geo_zones: [{ type: "country", country_code: "br" }] }],
  });
  await link.create({ [Modules.STOCK_LOCATION]: { stock_location_id: locationId }, [Modules.FULFILLMENT]: { fulfillment_set_id: set.id } });
  let [profile] = await fulfillment.listShippingProfiles({ type: "default" });
  if (!profile) {
    profile = (await core.createShippingProfilesWorkflow(container).run({ input: { data: [{ name: "Padrão", type: "default" }] } })).result[0];
  }
  const option = (name, amount) => ({
    name, price_type: "flat", provider_id: "manual_manual", service_zone_id: set.service_zones[0].id,
    shipping_profile_id: profile.id, type: { label: name, description: name, code: name.toLowerCase() },
    prices: [{ currency_code: "brl", amount }, { region_id: region.id, amount }],
    rules: [{ attribute: "enabled_in_store", value: "true", operator: "eq" }, { attribute: "is_return", value: "false", operator: "eq" }],
  });
  const { result: options } = await core.createShippingOptionsWorkflow(container).run({ input: [option("PAC", 15), option("SEDEX", 30)] });
  const { result: products } = await core.createProductsWorkflow(container).run({
    input: { products: Array.from({ length: 24 }, (_, i) => ({
      title: "Camiseta " + (i + 1), status: "published", shipping_profile_id: profile.id,
      options: [{ title: "Tamanho", values: ["P", "M", "G"] }],
      sales_channels: [{ id: channel.id }],
      variants: ["P", "M", "G"].map((size) => ({
        title: size, options: { Tamanho: size }, manage_inventory: false,
        prices: [{ amount: 49.9 + i, currency_code: "brl" }],
      })),
    })) },
  });
  const address = { first_name: "Ana", last_name: "Souza", address_1: "Rua das Flores, 100", city: "São Paulo", postal_code: "01310-100", country_code: "br" };
  const cart = async (i) => {
    const { result } = await core.createCartWorkflow(container).run({
      input: { region_id: region.id, sales_channel_id: channel.id, currency_code: "brl", email: "cliente" + i + "@example.com",
        shipping_address: address, items: [{ variant_id: products[i % products.length].variants[0].id, quantity: 1 }] },
    });
    return result.id;
  };
  const browsing = [];
  for (let i = 0; i < Number(process.env.BENCH_BROWSING_CARTS); i += 1) browsing.push(await cart(i));
  const readyCart = async (i) => {
    const id = await cart(1000 + i);
    await core.addShippingMethodToCartWorkflow(container).run({ input: { cart_id: id, options: [{ id: options[0].id }] } });
    const { result: collection } = await core.createPaymentCollectionForCartWorkflow(container).run({ input: { cart_id: id } });
    await core.createPaymentSessionsWorkflow(container).run({ input: { payment_collection_id: collection.id, provider_id: "pp_system_default", data: {} } });
    return id;
  };
  const ready = [];
  // Eight at a time: one by one, a busy machine takes minutes.
  for (let i = 0; i < Number(process.env.BENCH_READY_CARTS); i += 8) {
    const batch = Array.from({ length: Math.min(8, Number(process.env.BENCH_READY_CARTS) - i) }, (_, k) => readyCart(i + k));
    ready.push(...(await Promise.all(batch)));
  }
  fs.writeFileSync(process.env.BENCH_SEED_OUT, JSON.stringify({ publishableKey, browsing, ready }));
`;

// The same store without the plugin: Medusa's defaults (its payment module has the system
// provider) and nothing else.
const STOCK_CONFIG = `const { defineConfig } = require("@medusajs/framework/utils");
module.exports = defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    http: { storeCors: "*", adminCors: "*", authCors: "*", jwtSecret: "bench", cookieSecret: "bench" },
  },
  admin: { disable: true },
});
`;

/**
 * Closed-loop load: `workers` clients, each sending its next request as soon as the last is
 * answered, for `duration` seconds or until `next` returns null. Resolves with throughput,
 * latency percentiles and the count of answers that were not 2xx.
 * @param {string} base
 * @param {Record<string, string>} headers
 * @param {{ workers: number, duration: number, next: (worker: number) => ({ path: string, method?: string, body?: unknown } | null) }} plan
 */
async function load(base, headers, { workers, duration, next }) {
  const latencies = [];
  let failures = 0;
  const started = performance.now();
  const until = started + duration * 1000;
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      while (performance.now() < until) {
        const request = next(worker);
        if (!request) return;
        const x = await timed(base, headers, request);
        latencies.push(x.ms);
        if (!x.ok && failures++ === 0 && x.status) {
          console.error(`  ${request.method ?? "GET"} ${request.path}: ${x.status}`);
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return {
    rps: latencies.length / elapsed,
    p50: at(0.5),
    p99: at(0.99),
    requests: latencies.length,
    failures,
  };
}

const { startSandbox } = await import("@pix-checkout/sandbox");
const sandbox = await startSandbox({ variant: "a" });
process.env.BENCH_BROWSING_CARTS = String(connections);
process.env.BENCH_READY_CARTS = String(cartsToComplete);
const app = await createBenchApp({
  apiKey: sandbox.defaultKey,
  baseUrl: sandbox.baseUrl,
  seedBody: SEED_BODY,
});
const stockDatabase = `${app.database}_stock`;
const stockDir = path.join(packageDir, ".medusa", `bench-stock-${process.pid}`);
// BENCH_AA: the control. A second stock store, on its own copy, takes the plugin's place: two
// identical stores, so every ratio this run prints is the bench's own error.
const control = Boolean(process.env.BENCH_AA);
const controlDatabase = `${app.database}_stock_b`;
const controlDir = path.join(packageDir, ".medusa", `bench-stock-b-${process.pid}`);
// A copy of the database as seeded, untouched, for the rounds' fresh copies.
const seededDatabase = `${app.database}_seeded`;
/** What the store beside the stock one is: the plugin's, or the control's second stock store. */
const other = control ? "stock B" : "plugin";
let stockChild;
let controlChild;
/** The stores paused now: name → pid. */
const paused = new Map();
try {
  await createDatabase(PG, seededDatabase, app.database);
  await createDatabase(PG, stockDatabase, app.database);
  writeApp(stockDir, "stock-bench-app", { "medusa-config.js": STOCK_CONFIG });
  const stockEnv = { ...app.env, DATABASE_URL: `${PG}/${stockDatabase}` };
  const profiling = (store) => `--cpu-prof --cpu-prof-dir=${path.resolve(profileDir, store)}`;
  if (profileDir) {
    stockEnv.NODE_OPTIONS = profiling("stock");
    app.env.NODE_OPTIONS = profiling("plugin");
  }
  // Both start together (a boot is most of a smoke run); each is measured alone.
  const startControl = async () => {
    await createDatabase(PG, controlDatabase, app.database);
    writeApp(controlDir, "stock-b-bench-app", { "medusa-config.js": STOCK_CONFIG });
    const env = { ...app.env, DATABASE_URL: `${PG}/${controlDatabase}` };
    if (profileDir) env.NODE_OPTIONS = profiling("stock-b");
    const { url, child } = await startMedusa({
      cwd: controlDir,
      env,
      port: PORT_B,
      label: "stock B medusa start",
    });
    controlChild = child;
    return { url, pid: child.pid };
  };
  const [stock, plugin] = await Promise.all([
    startMedusa({
      cwd: stockDir,
      env: stockEnv,
      port: PORT_A,
      label: "stock medusa start",
    }).then(({ url, child }) => ((stockChild = child), { url, pid: child.pid })),
    control ? startControl() : app.start(PORT_B),
  ]);
  const stores = { stock, plugin };
  const headers = { "x-publishable-api-key": app.seed.publishableKey };
  const { browsing, ready } = app.seed;
  // Each store's copy holds the same carts: each completes its own copy of them.
  const readyOf = { stock: [...ready], plugin: [...ready] };
  const every = (pathOf) => (worker) => ({ path: pathOf(worker) });
  let updates = 0;
  const routes = {
    products: every(() => "/store/products?limit=12"),
    cart_read: every((w) => `/store/carts/${browsing[w]}`),
    cart_update: (w) => ({
      path: `/store/carts/${browsing[w]}`,
      method: "POST",
      body: { email: `cliente${w}.${updates++ % 2}@example.com` },
    }),
    shipping_options: every((w) => `/store/shipping-options?cart_id=${browsing[w]}`),
  };

  const pause = (name) => {
    process.kill(stores[name].pid, "SIGSTOP");
    paused.set(name, stores[name].pid);
  };
  const resume = (name) => {
    process.kill(stores[name].pid, "SIGCONT");
    paused.delete(name);
  };
  let awake = "both";
  const wake = (name) => {
    if (awake === name) return;
    pause(awake);
    resume(name);
    awake = name;
  };

  const completeNext = (store, count) => {
    const carts = readyOf[store];
    let left = count;
    return () =>
      left-- > 0 ? { path: `/store/carts/${carts.shift()}/complete`, method: "POST" } : null;
  };
  /** One slice of one route on one store: a warm-up, then the measure and its CPU time. */
  const slice = async (route, store) => {
    wake(store);
    const base = stores[store].url;
    if (route === "complete") {
      await load(base, headers, { workers: 1, duration: 60, next: completeNext(store, 1) });
    } else {
      await load(base, headers, {
        workers: connections,
        duration: warmupSeconds,
        next: routes[route],
      });
    }
    const { pid } = stores[store];
    const cpuBefore = cpuMs(pid);
    const x =
      route === "complete"
        ? await load(base, headers, {
            workers: completeConnections,
            duration: 600,
            next: completeNext(store, completes),
          })
        : await load(base, headers, {
            workers: connections,
            duration: seconds,
            next: routes[route],
          });
    x.cpuMsPerRequest = (cpuMs(pid) - cpuBefore) / Math.max(1, x.requests);
    return x;
  };

  // What each store spends with no shopper at all (its scheduled jobs, timers, pools), both
  // awake at once: a cost the routes' figures include too, spread over their requests.
  const idleBefore = { stock: cpuMs(stock.pid), plugin: cpuMs(plugin.pid) };
  await new Promise((r) => setTimeout(r, idleSeconds * 1000));
  const idleCpuPerMinute = (name) =>
    Number((((cpuMs(stores[name].pid) - idleBefore[name]) * 60) / idleSeconds).toFixed(0));
  console.log(
    `idle for ${idleSeconds} s: stock ${idleCpuPerMinute("stock")}, plugin ${idleCpuPerMinute("plugin")} CPU ms a minute`,
  );
  const figures = {
    pairs,
    seconds_per_slice: seconds,
    connections,
    completes_per_slice: completes,
    idle_stock_cpu_ms_per_min: idleCpuPerMinute("stock"),
    idle_plugin_cpu_ms_per_min: idleCpuPerMinute("plugin"),
  };
  pause("plugin");
  awake = "stock";

  const names = [...Object.keys(routes), "complete"].filter(
    (name) => !chosenRoutes || chosenRoutes.includes(name),
  );
  let failures = 0;
  const ratios = [];
  for (const route of pairs > 0 ? names : []) {
    const pairRatios = [];
    const cpuRatios = [];
    const of = { stock: [], plugin: [] };
    for (let pair = 0; pair < pairs; pair++) {
      // Back to back, the order flipped each pair: what the machine does meanwhile falls on both.
      const order = pair % 2 === 0 ? ["stock", "plugin"] : ["plugin", "stock"];
      const got = {};
      for (const store of order) {
        got[store] = await slice(route, store);
        of[store].push(got[store]);
        failures += got[store].failures;
      }
      pairRatios.push(got.plugin.rps / got.stock.rps);
      cpuRatios.push(got.plugin.cpuMsPerRequest / got.stock.cpuMsPerRequest);
      console.log(
        `${route.padEnd(16)} pair ${pair + 1}/${pairs}: ` +
          ["stock", "plugin"]
            .map(
              (store) =>
                `${store} ${got[store].rps.toFixed(1)} req/s (p50 ${got[store].p50.toFixed(0)} ms, ${got[store].cpuMsPerRequest.toFixed(1)} CPU ms/req)`,
            )
            .join(", ") +
          `${got.stock.failures + got.plugin.failures ? `, ${got.stock.failures + got.plugin.failures} not 2xx` : ""}`,
      );
    }
    const sum = (store, key) => of[store].reduce((total, x) => total + x[key], 0);
    const mean = (store, key) => sum(store, key) / of[store].length;
    const ratio = median(pairRatios);
    ratios.push(ratio);
    Object.assign(figures, {
      [`${route}_stock_rps`]: Number(mean("stock", "rps").toFixed(1)),
      [`${route}_plugin_rps`]: Number(mean("plugin", "rps").toFixed(1)),
      [`${route}_ratio`]: Number(ratio.toFixed(2)),
      [`${route}_stock_p50_ms`]: Math.round(mean("stock", "p50")),
      [`${route}_plugin_p50_ms`]: Math.round(mean("plugin", "p50")),
      [`${route}_stock_p99_ms`]: Math.round(mean("stock", "p99")),
      [`${route}_plugin_p99_ms`]: Math.round(mean("plugin", "p99")),
      [`${route}_stock_cpu_ms_per_req`]: Number(mean("stock", "cpuMsPerRequest").toFixed(2)),
      [`${route}_plugin_cpu_ms_per_req`]: Number(mean("plugin", "cpuMsPerRequest").toFixed(2)),
      [`${route}_cpu_ratio`]: Number(median(cpuRatios).toFixed(2)),
    });
    console.log(
      `${route}: plugin ÷ stock throughput ${ratio.toFixed(2)} (median of ${pairs} pairs; goal >= 0.95), ` +
        `server CPU per request ${median(cpuRatios).toFixed(2)}x`,
    );
  }
  // Side by side: both stores awake, the same load on each at the same moments.
  if (togetherRounds > 0) {
    if (awake !== "both") resume(awake === "stock" ? "plugin" : "stock");
    awake = "both";
    const cartsFor = (store) => {
      const carts = readyOf[store];
      return () =>
        carts.length > 0
          ? { path: `/store/carts/${carts.shift()}/complete`, method: "POST" }
          : null;
    };
    const plan = (route, store, duration) =>
      route === "complete"
        ? { workers: completeConnections, duration, next: cartsFor(store) }
        : { workers: connections, duration, next: routes[route] };
    const together = Object.fromEntries(names.map((name) => [name, []]));
    for (let round = 0; round < togetherRounds; round++) {
      for (const route of names) {
        const both = ["stock", "plugin"];
        // A warm-up on both at once, then the measure.
        await Promise.all(
          both.map((store) =>
            load(
              stores[store].url,
              headers,
              plan(route, store, route === "complete" ? 0.2 : warmupSeconds),
            ),
          ),
        );
        const [x, y] = await Promise.all(
          both.map((store) => load(stores[store].url, headers, plan(route, store, seconds))),
        );
        failures += x.failures + y.failures;
        together[route].push(y.rps / x.rps);
        console.log(
          `${route.padEnd(16)} together ${round + 1}/${togetherRounds}: stock ${x.rps.toFixed(1)} req/s, plugin ${y.rps.toFixed(1)} req/s`,
        );
      }
    }
    for (const route of names) {
      const ratio = median(together[route]);
      figures[`${route}_together_ratio`] = Number(ratio.toFixed(2));
      console.log(
        `${route}: side by side, plugin ÷ stock throughput ${ratio.toFixed(2)} (median of ${togetherRounds} rounds; goal >= 0.95)`,
      );
    }
    figures.lowest_together_ratio = Number(
      Math.min(...names.map((route) => median(together[route]))).toFixed(2),
    );
  }
  // Request by request, round by round: the stores of the measures above are stopped, and each
  // round boots both afresh on fresh copies of the seeded database, their Node processes with
  // the round's hash and random seeds and no address-space randomisation (two identical stores
  // then start from the same layout; each round samples another).
  const byRound = Object.fromEntries(names.map((name) => [name, []]));
  if (boots > 0 && (pairedRequests > 0 || pairedCompletes > 0)) {
    for (const pid of paused.values()) process.kill(pid, "SIGCONT");
    paused.clear();
    await stopProcess(stockChild);
    stockChild = undefined;
    if (controlChild) await stopProcess(controlChild);
    controlChild = undefined;
    await app.stop();
    const sides = [
      { dir: stockDir, env: stockEnv, name: "stock" },
      control
        ? { dir: controlDir, env: app.env, name: other }
        : { dir: app.dir, env: { ...app.env, MEDUSA_WORKER_MODE: "shared" }, name: other },
    ];
    for (let round = 0; round < boots; round++) {
      const seed = 20261127 + round;
      const node = path.join(stockDir, `node-seed-${seed}.sh`);
      writeFileSync(
        node,
        `#!/bin/sh\nexec setarch "$(uname -m)" -R "${process.execPath}" --hash-seed=${seed} --random-seed=${seed} "$@"\n`,
        { mode: 0o755 },
      );
      // Every other round the two swap ports and which copy is made first: two stock stores
      // (BENCH_AA) leaned one way by up to 3 % on one route through every round otherwise.
      const ports = round % 2 ? [PORT_B, PORT_A] : [PORT_A, PORT_B];
      const copies = ports.map((port) => `${app.database}_round${round}_${port}`);
      for (const copy of round % 2 ? [...copies].reverse() : copies) {
        await createDatabase(PG, copy, seededDatabase);
      }
      const children = [];
      try {
        const [a, b] = await Promise.all(
          sides.map(async (side, i) => {
            const { url, child } = await startMedusa({
              cwd: side.dir,
              env: { ...side.env, DATABASE_URL: `${PG}/${copies[i]}` },
              port: ports[i],
              node,
              label: `${side.name} medusa start (round ${round + 1})`,
            });
            children.push(child);
            return url;
          }),
        );
        for (const route of names) {
          const complete = route === "complete";
          const x = await timeRequestPairs({
            a,
            b,
            headers,
            count: complete ? pairedCompletes : pairedRequests,
            warmup: pairedWarmup,
            // Each copy holds the same carts: both stores complete the same ids, in order.
            requestAt: complete
              ? (i) => ({ path: `/store/carts/${ready[i]}/complete`, method: "POST" })
              : (i) => routes[route](i % connections),
          });
          failures += x.failures;
          byRound[route].push(x.ratio);
          console.log(
            `${route.padEnd(16)} round ${round + 1}/${boots}, request by request: ` +
              `stock ${x.aMedianMs.toFixed(1)} ms, ${other} ${x.bMedianMs.toFixed(1)} ms (medians); ` +
              `stock ÷ ${other} time ${x.ratio.toFixed(3)} (by quarter ${x.quarters.map((q) => q.toFixed(2)).join(" ")})`,
          );
        }
      } finally {
        for (const child of children) await stopProcess(child);
        for (const copy of copies) await dropDatabase(PG, copy).catch(() => undefined);
      }
    }
    for (const route of names) {
      const ratio = median(byRound[route]);
      figures[`${route}_paired_ratio`] = Number(ratio.toFixed(3));
      console.log(
        `${route}: request by request, stock ÷ ${other} time ${ratio.toFixed(3)} ` +
          `(median of ${boots} rounds: ${byRound[route].map((r) => r.toFixed(3)).join(", ")}; goal >= 0.95)`,
      );
    }
    figures.lowest_paired_ratio = Number(
      Math.min(...names.map((route) => median(byRound[route]))).toFixed(3),
    );
  }
  if (ratios.length > 0) figures.lowest_ratio = Number(Math.min(...ratios).toFixed(2));
  figures.not_2xx = failures;
  if (failures > 0) {
    // A route that answers errors measures nothing: the run fails rather than print a ratio.
    console.error(`${failures} answers were not 2xx`);
    process.exitCode = 1;
  }
  if (process.env.BENCH_OUT) {
    writeFileSync(
      process.env.BENCH_OUT,
      JSON.stringify({ name: "medusa store cost (stock vs plugin, built)", figures }),
    );
  }
} finally {
  // A paused store would not hear its SIGTERM: it is woken first.
  for (const pid of paused.values()) {
    try {
      process.kill(pid, "SIGCONT");
    } catch {
      // already gone
    }
  }
  if (stockChild) await stopProcess(stockChild);
  if (controlChild) await stopProcess(controlChild);
  await app.close();
  await dropDatabase(PG, stockDatabase).catch(() => undefined);
  await dropDatabase(PG, controlDatabase).catch(() => undefined);
  await dropDatabase(PG, seededDatabase).catch(() => undefined);
  rmSync(stockDir, { recursive: true, force: true });
  rmSync(controlDir, { recursive: true, force: true });
  await sandbox.close();
}
