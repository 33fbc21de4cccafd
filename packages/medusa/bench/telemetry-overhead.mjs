#!/usr/bin/env node
// What the plugin's telemetry costs a store that registers no OpenTelemetry SDK (the API's
// no-op must make it nil), and, for scale, one that records into an in-memory SDK. Each figure
// is ns per call of an async function wrapped in `withSpan` or `timeApi`, against the same
// function called bare. Against the BUILT plugin (`npm run build` first).
// Usage: node bench/telemetry-overhead.mjs   (BENCH_OUT=file.json also writes the figures)
// Env: BENCH_CALLS (default 200000 per figure).
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";

// BENCH_SMOKE (`npm run bench -- --smoke`, run by `npm test`): a few requests, to prove it runs.
const smoke = Boolean(process.env.BENCH_SMOKE);

const require = createRequire(import.meta.url);
const { withSpan, timeApi } = require("../.medusa/server/src/internal/platform/telemetry.js");
const calls = Number(process.env.BENCH_CALLS ?? (smoke ? 2_000 : 200_000));

const work = () => Promise.resolve(1);
const cases = {
  bare: () => work(),
  withSpan: () => withSpan("pix_checkout.settle", { "pix_checkout.charge_id": "ch_1" }, work),
  timeApi: () => timeApi("status", "a", work),
};

/** Best of five rounds; `afterRound` runs between them, outside the timing. */
async function nsPerCall(fn, n, afterRound) {
  for (let i = 0; i < 20_000; i += 1) await fn(); // warm-up
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 5; round += 1) {
    afterRound();
    const started = process.hrtime.bigint();
    for (let i = 0; i < n; i += 1) await fn();
    best = Math.min(best, Number(process.hrtime.bigint() - started) / n);
  }
  return Math.round(best);
}

async function measure(n, afterRound = () => {}) {
  const out = {};
  for (const [name, fn] of Object.entries(cases)) out[name] = await nsPerCall(fn, n, afterRound);
  return out;
}

await measure(calls / 10); // the first figures of a run pay for the JIT
const figures = { calls, noSdk: await measure(calls) };

const { context, metrics, trace } = require("@opentelemetry/api");
const { AsyncLocalStorageContextManager } = require("@opentelemetry/context-async-hooks");
const {
  BasicTracerProvider,
  InMemorySpanExporter,
  BatchSpanProcessor,
} = require("@opentelemetry/sdk-trace-base");
const { MeterProvider } = require("@opentelemetry/sdk-metrics");
const exporter = new InMemorySpanExporter();
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
trace.setGlobalTracerProvider(
  new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter)] }),
);
metrics.setGlobalMeterProvider(new MeterProvider());
// The exporter keeps every span: fewer calls, and it is emptied between rounds.
figures.inMemorySdk = await measure(Math.ceil(calls / 10), () => exporter.reset());

console.log(JSON.stringify(figures, null, 2));
if (process.env.BENCH_OUT) {
  // `npm run bench` reads `{ name, figures }`, each figure one row of its table.
  const rows = { calls };
  for (const [sdk, cases] of Object.entries({
    no_sdk: figures.noSdk,
    in_memory_sdk: figures.inMemorySdk,
  })) {
    for (const [name, value] of Object.entries(cases)) rows[`${sdk}_${name}`] = value;
  }
  writeFileSync(
    process.env.BENCH_OUT,
    JSON.stringify({ name: "telemetry-overhead", figures: rows }, null, 2),
  );
}
