#!/usr/bin/env node
// Throughput of GET /v1/charges/{id}/status, the endpoint polled by every checkout page.
// The sandbox runs in its own process (the real CLI), so autocannon does not steal its CPU.
// Usage: node bench/status-throughput.mjs   (BENCH_OUT=file.json to also write the figures)
// Env: BENCH_SECONDS (default 5), BENCH_CONNECTIONS (default 64), BENCH_VARIANT (default b).
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

// BENCH_SMOKE (`npm run bench -- --smoke`, run by `npm test`): a few requests, to prove it runs.
const smoke = Boolean(process.env.BENCH_SMOKE);

const seconds = Number(process.env.BENCH_SECONDS ?? (smoke ? 1 : 5));
const connections = Number(process.env.BENCH_CONNECTIONS ?? (smoke ? 8 : 64));
const variant = process.env.BENCH_VARIANT ?? "b";
const bin = fileURLToPath(new URL("../bin/pix-sandbox.js", import.meta.url));
const key = "sk_live_sandbox_default";

const child = spawn(process.execPath, [bin, "--port", "0", "--variant", variant], {
  stdio: ["ignore", "pipe", "inherit"],
});
const stop = () => child.kill("SIGTERM");
process.on("exit", stop);

try {
  const baseUrl = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`sandbox exited with ${code}`)));
  });
  const created = await fetch(`${baseUrl}/charges`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ amount: 1990, payment_method: "pix" }),
  }).then((response) => response.json());
  const id = variant === "a" ? created.uuid : created.id;
  const url = `${baseUrl}/charges/${id}/status`;

  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    headers: { authorization: `Bearer ${key}` },
  });
  const figures = {
    requests_per_second: Math.round(result.requests.average),
    latency_p50_ms: result.latency.p50,
    latency_p99_ms: result.latency.p99,
    requests_total: result.requests.total,
    non_2xx: result.non2xx,
    errors: result.errors,
    connections,
    duration_s: seconds,
    variant,
  };
  console.log(
    `GET /v1/charges/{id}/status (variant ${variant}, ${connections} connections, ${seconds}s): ` +
      `${figures.requests_per_second} req/s, p50 ${figures.latency_p50_ms} ms, p99 ${figures.latency_p99_ms} ms, ` +
      `${figures.non_2xx} non-2xx, ${figures.errors} errors`,
  );
  if (process.env.BENCH_OUT) {
    writeFileSync(
      process.env.BENCH_OUT,
      `${JSON.stringify({ name: "sandbox-status-throughput", figures }, null, 2)}\n`,
    );
  }
  if (figures.non_2xx > 0 || figures.errors > 0) process.exitCode = 1;
} finally {
  stop();
}
