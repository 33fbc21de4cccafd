#!/usr/bin/env node
// Throughput and p99 of the store status route with 500 concurrent pollers, against two
// references in the same run: a no-op store route (Medusa's store middleware only: the
// floor) and Medusa's own GET /store/regions. Against the BUILT server (`medusa start` on a
// plain-JS app, the plugin from .medusa/server): run `npm run build` first.
// Usage: node bench/status-throughput.mjs   (BENCH_OUT=file.json also writes the figures)
// Env: BENCH_SECONDS (default 10 per route), BENCH_CONNECTIONS (default 500).
import { writeFileSync } from "node:fs";
import autocannon from "autocannon";
import { createBenchApp } from "./lib/bench-app.mjs";

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 500);
const port = Number(process.env.BENCH_PORT ?? 9311);

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
  const results = {};
  for (const [name, path] of Object.entries(routes)) {
    results[name] = await measure(path);
    const x = results[name];
    console.log(
      `${name.padEnd(8)} GET ${path}: ${x.rps} req/s, p50 ${x.p50} ms, p99 ${x.p99} ms, ${x.non2xx} non-2xx, ${x.errors} errors`,
    );
  }
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
