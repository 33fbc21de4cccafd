#!/usr/bin/env node
// Client overhead per call: N sequential `client.charges.status(id)` against the same sandbox
// endpoint fetched with a bare undici `request()` (same URL, same headers, JSON parsed), in the
// same run, interleaved in rounds so drift hits both sides alike. Prints medians and the ratio
// (target: client median <= 1.2x bare). With BENCH_OUT set, also writes the figures as JSON.
// Needs `npm run build -w @pix-checkout/client -w @pix-checkout/sandbox` first.
import { writeFileSync } from "node:fs";
import { request } from "undici";
import { startSandbox } from "@pix-checkout/sandbox";
import { PixClient } from "../dist/index.js";

// BENCH_SMOKE (`npm run bench -- --smoke`, run by `npm test`): a few requests, to prove it runs.
const smoke = Boolean(process.env.BENCH_SMOKE);

const N = Number(process.env.BENCH_N ?? (smoke ? 100 : 3000));
const ROUNDS = 10;
const WARMUP = 300;

function quantile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

function summary(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: quantile(sorted, 0.5), p90: quantile(sorted, 0.9), p99: quantile(sorted, 0.99) };
}

async function time(fn) {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1000; // microseconds
}

async function measure(variant) {
  const sandbox = await startSandbox({ variant });
  try {
    const client = new PixClient({ apiKey: sandbox.defaultKey, baseUrl: sandbox.baseUrl, variant });
    const charge = await client.charges.create({ method: "pix", amountCents: 1990 });
    const url = `${sandbox.baseUrl}/charges/${encodeURIComponent(charge.id)}/status`;
    const headers = {
      authorization: `Bearer ${sandbox.defaultKey}`,
      accept: "application/json",
      "user-agent": "pix-checkout-client/0.1",
    };
    const bare = async () => {
      const response = await request(url, { method: "GET", headers });
      if (response.statusCode !== 200) throw new Error(`bare request got ${response.statusCode}`);
      await response.body.json();
    };
    const viaClient = async () => {
      await client.charges.status(charge.id);
    };
    for (let i = 0; i < WARMUP; i++) {
      await bare();
      await viaClient();
    }
    const bareSamples = [];
    const clientSamples = [];
    const perRound = Math.ceil(N / ROUNDS);
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate which side goes first, so neither always gets the warmer socket.
      const order = round % 2 === 0 ? [bare, viaClient] : [viaClient, bare];
      for (const fn of order) {
        const target = fn === bare ? bareSamples : clientSamples;
        for (let i = 0; i < perRound; i++) target.push(await time(fn));
      }
    }
    const bareStats = summary(bareSamples);
    const clientStats = summary(clientSamples);
    return { bare: bareStats, client: clientStats, ratio: clientStats.median / bareStats.median };
  } finally {
    await sandbox.close();
  }
}

const figures = {};
for (const variant of ["a", "b"]) {
  const result = await measure(variant);
  const fmt = (s) =>
    `median ${s.median.toFixed(1)} µs, p90 ${s.p90.toFixed(1)} µs, p99 ${s.p99.toFixed(1)} µs`;
  console.log(`variant ${variant}: ${N} sequential GET /charges/{id}/status each`);
  console.log(`  bare undici request(): ${fmt(result.bare)}`);
  console.log(`  client.charges.status: ${fmt(result.client)}`);
  console.log(`  ratio (client / bare median): ${result.ratio.toFixed(3)}x (target <= 1.2x)`);
  figures[`variant_${variant}_bare_median_us`] = Number(result.bare.median.toFixed(1));
  figures[`variant_${variant}_client_median_us`] = Number(result.client.median.toFixed(1));
  figures[`variant_${variant}_client_p99_us`] = Number(result.client.p99.toFixed(1));
  figures[`variant_${variant}_ratio`] = Number(result.ratio.toFixed(3));
}
figures.calls_per_side = N;

if (process.env.BENCH_OUT) {
  writeFileSync(
    process.env.BENCH_OUT,
    `${JSON.stringify({ name: "client-overhead", figures }, null, 2)}\n`,
  );
  console.log(`wrote ${process.env.BENCH_OUT}`);
}
process.exit(0);
