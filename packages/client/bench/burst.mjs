#!/usr/bin/env node
// A burst of 120 creates fired at once against a real sandbox (its limit: 60 per minute), paced
// by the client's own limiter. Prints how many got a 429 from the server (target: 0) and how
// long the burst took (about a minute: the first 60 at once, the rest as their windows close).
// Takes a little over 60 s of real time and stops by itself. BENCH_OUT writes the figures.
// Needs `npm run build -w @pix-checkout/client -w @pix-checkout/sandbox` first.
import { writeFileSync } from "node:fs";
import { startSandbox } from "@pix-checkout/sandbox";
import { PixClient } from "../dist/index.js";

// BENCH_SMOKE (`npm run bench -- --smoke`, run by `npm test`): a few requests, to prove it runs.
const smoke = Boolean(process.env.BENCH_SMOKE);

const BURST = Number(process.env.BENCH_BURST ?? (smoke ? 10 : 120));
const variant = process.env.BENCH_VARIANT ?? "b";
// BENCH_PER_MINUTE=1000 turns the client's pacing off, to see what it saves.
const perMinute = Number(process.env.BENCH_PER_MINUTE ?? 60);
const sandbox = await startSandbox({ variant });
let serverRateLimited = 0;
// The client retries 429s on its own; a logger sees each one, which is what we count.
const logger = {
  debug() {},
  info(message) {
    if (message.includes("rate_limit_exceeded")) serverRateLimited++;
  },
  warn() {},
  error() {},
};
try {
  const client = new PixClient({
    apiKey: sandbox.defaultKey,
    baseUrl: sandbox.baseUrl,
    variant,
    logger,
    createRateLimit: { perMinute },
  });
  const started = Date.now();
  const results = await Promise.allSettled(
    Array.from({ length: BURST }, (_, i) =>
      client.charges.create({ method: "pix", amountCents: 1000 + i }),
    ),
  );
  const seconds = (Date.now() - started) / 1000;
  const created = results.filter((r) => r.status === "fulfilled").length;
  const failed = results.length - created;
  console.log(`variant ${variant}: burst of ${BURST} creates, client pacing ${perMinute}/min`);
  console.log(`  created: ${created}, failed: ${failed}`);
  console.log(`  server 429s: ${serverRateLimited} (target 0)`);
  console.log(`  took: ${seconds.toFixed(1)} s`);
  if (process.env.BENCH_OUT) {
    const figures = { burst: BURST, created, failed, server_429s: serverRateLimited, seconds };
    writeFileSync(
      process.env.BENCH_OUT,
      `${JSON.stringify({ name: "client-create-burst", figures }, null, 2)}\n`,
    );
  }
} finally {
  await sandbox.close();
}
process.exit(0);
