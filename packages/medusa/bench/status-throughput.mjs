#!/usr/bin/env node
// Throughput and p99 of the store status route with 500 concurrent pollers, against two
// references in the same run: a no-op store route (Medusa's store middleware only: the
// floor) and Medusa's own GET /store/regions. Against the BUILT server (`medusa start` on a
// plain-JS app, the plugin from .medusa/server): run `npm run build` first. The pollers share
// 127.0.0.1 (autocannon binds no local address): the status route counts no clients, so one
// address measures it as 500 would. A route that counts clients (the stream, the session
// route) is measured from addresses of their own (live-status, peak, flood).
// Usage: node bench/status-throughput.mjs   (BENCH_OUT=file.json also writes the figures)
// Env: BENCH_SECONDS (default 10 per route and round), BENCH_CONNECTIONS (default 500).
import { writeFileSync } from "node:fs";
import autocannon from "autocannon";
import { createBenchApp } from "./lib/bench-app.mjs";
import { freePort } from "./lib/http-tools.mjs";

// BENCH_SMOKE (`npm run bench -- --smoke`, run by `npm test`): a few requests, to prove it runs.
const smoke = Boolean(process.env.BENCH_SMOKE);

const seconds = Number(process.env.BENCH_SECONDS ?? (smoke ? 2 : 10));
const connections = Number(process.env.BENCH_CONNECTIONS ?? (smoke ? 20 : 500));
const port = Number(process.env.BENCH_PORT ?? (await freePort()));

const { startSandbox } = await import("@pix-checkout/sandbox");
const sandbox = await startSandbox({ variant: "a" });
const app = await createBenchApp({ apiKey: sandbox.defaultKey, baseUrl: sandbox.baseUrl });
try {
  const { url } = await app.start(port);
  const headers = { "x-publishable-api-key": app.seed.publishableKey };
  const session = app.seed.sessions[0].session_id;
  const routes = {
    status: `/store/pix-checkout/sessions/${session}`,
    noop: "/store/bench-noop",
    regions: "/store/regions",
  };
  const measure = async (path) => {
    // A short warm-up so JIT and pools are not what is measured.
    await autocannon({ url: url + path, connections: 50, duration: 2, headers });
    const r = await autocannon({ url: url + path, connections, duration: seconds, headers });
    return {
      rps: Math.round(r.requests.average),
      p50: r.latency.p50,
      p99: r.latency.p99,
      non2xx: r.non2xx,
      errors: r.errors + r.timeouts,
    };
  };
  // Two rounds in opposite orders, so warm-up and background load do not favour whichever
  // route happens to run first; the figures are the means of both rounds.
  const names = Object.keys(routes);
  const samples = Object.fromEntries(names.map((name) => [name, []]));
  for (const order of [names, [...names].reverse()]) {
    for (const name of order) {
      const x = await measure(routes[name]);
      samples[name].push(x);
      console.log(
        `${name.padEnd(8)} GET ${routes[name]}: ${x.rps} req/s, p50 ${x.p50} ms, p99 ${x.p99} ms, ${x.non2xx} non-2xx, ${x.errors} errors`,
      );
    }
  }
  const mean = (list, key) => Math.round(list.reduce((sum, x) => sum + x[key], 0) / list.length);
  const results = Object.fromEntries(
    names.map((name) => [
      name,
      {
        rps: mean(samples[name], "rps"),
        p99: mean(samples[name], "p99"),
        non2xx: samples[name].reduce((sum, x) => sum + x.non2xx, 0),
        errors: samples[name].reduce((sum, x) => sum + x.errors, 0),
      },
    ]),
  );
  const figures = {
    connections,
    duration_s: seconds,
    status_rps: results.status.rps,
    status_p99_ms: results.status.p99,
    noop_rps: results.noop.rps,
    noop_p99_ms: results.noop.p99,
    regions_rps: results.regions.rps,
    regions_p99_ms: results.regions.p99,
    status_vs_noop: Number((results.status.rps / results.noop.rps).toFixed(2)),
    status_vs_regions: Number((results.status.rps / results.regions.rps).toFixed(2)),
    non_2xx: results.status.non2xx + results.noop.non2xx + results.regions.non2xx,
    client_timeouts_and_errors:
      results.status.errors + results.noop.errors + results.regions.errors,
  };
  console.log(
    `status route: ${figures.status_vs_noop}x the no-op route (target >= 0.8), ${figures.status_vs_regions}x /store/regions (target >= 2)`,
  );
  if (process.env.BENCH_OUT) {
    writeFileSync(
      process.env.BENCH_OUT,
      JSON.stringify({ name: "medusa store status route (built server)", figures }),
    );
  }
} finally {
  await app.close();
  await sandbox.close();
}
