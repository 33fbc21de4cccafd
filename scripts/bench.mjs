#!/usr/bin/env node
// `npm run bench`: runs every package's benchmark in turn (one at a time, so they don't
// compete for the two cores), gathers their figures and writes them as one Markdown table
// into test/bench/FIGURES.md between the BENCH markers, with the machine and the date.
// `npm run bench -- --smoke` (what `npm test` runs): every bench once, shrunk by BENCH_SMOKE=1
// to a few requests, so a bench that no longer runs fails the tests; its figures are printed,
// never written to FIGURES.md. Benches that stand a Medusa store up share its migrated
// database (BENCH_DB_TEMPLATES, bench/lib/bench-app.mjs), dropped when the run ends.
// Benches run on Node.js 24, as `npm test` does (the figures' header names the version): from a
// shell with another Node.js, this script runs itself again on 24 (scripts/node-24, fetched from
// the npm registry's `node` package once). BENCH_ANY_NODE=1 keeps the shell's Node.js, to
// measure another version on purpose.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { runOnNode24 } from "./on-node-24.mjs";

if (!process.env.BENCH_ANY_NODE) runOnNode24(import.meta.url, "npm run bench");

const roots = ["packages", "test"];
const benches = [];
for (const root of roots) {
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    const dir = entry.isDirectory() ? join(root, entry.name, "bench") : null;
    if (root === "test" && entry.name === "bench" && entry.isDirectory()) {
      benches.push(...list(join(root, "bench")));
    } else if (dir && existsSync(dir)) {
      benches.push(...list(dir));
    }
  }
}

function list(dir) {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".mjs"))
    .sort()
    .map((f) => join(dir, f));
}

const smoke = process.argv.includes("--smoke");
const only = process.argv.slice(2).filter((arg) => arg !== "--smoke");
// `peak` is the longest: 450 carts seeded, the 200-shopper minute until its last code (about
// 2 min after it), then two fresh minutes for the attack; on a busy 2-core machine, 17 min.
// A smoke run's benches take a minute or two each on a quiet machine, mostly the stores they
// stand up; two run at once beside the three browsers, where a bench has been seen to take three
// times as long (history: 130 s alone, killed at 6 min in CI), so each is given 12 minutes.
const BENCH_TIMEOUT_MS = Number(
  process.env.BENCH_TIMEOUT_MS ?? (smoke ? 12 * 60_000 : 25 * 60_000),
);
const templates = `pix_bench_tpl_${process.pid}`;
const selected = only.length ? benches.filter((b) => only.some((o) => b.includes(o))) : benches;
const out = mkdtempSync(join(tmpdir(), "pix-bench-"));
// A full run measures: one bench at a time, so none competes for the two cores. A smoke run only
// proves that each still runs, two at a time (BENCH_PARALLEL): every bench takes free ports, its
// own database and folder, and waits on the shared template's lock while another migrates it.
const parallel = smoke ? Math.max(1, Number(process.env.BENCH_PARALLEL ?? 2)) : 1;

/**
 * Runs one bench; resolves with how it ended and, when benches run side by side, what it printed
 * (kept whole and printed once it ends, so two benches' lines never interleave).
 */
function runBench(bench, file) {
  const started = Date.now();
  if (parallel === 1) console.log(`\n▶ ${bench}`);
  const child = spawn("node", [bench], {
    stdio: parallel === 1 ? "inherit" : ["ignore", "pipe", "pipe"],
    // Its own process group: a bench that hangs is killed with the stores it started.
    detached: true,
    env: {
      ...process.env,
      BENCH_OUT: file,
      BENCH_DB_TEMPLATES: templates,
      ...(smoke ? { BENCH_SMOKE: "1" } : {}),
    },
  });
  const output = [];
  child.stdout?.on("data", (chunk) => output.push(chunk));
  child.stderr?.on("data", (chunk) => output.push(chunk));
  let timedOut = false;
  // Each bench must stop by itself; one that hangs is killed and reported, and the rest run.
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }, BENCH_TIMEOUT_MS);
  return new Promise((resolve) => {
    child.on("close", (status, signal) => {
      clearTimeout(timer);
      const seconds = (Date.now() - started) / 1000;
      if (parallel > 1) {
        console.log(`\n▶ ${bench}`);
        process.stdout.write(Buffer.concat(output));
      }
      console.log(`  ${bench}: ${seconds.toFixed(1)}s`);
      if (timedOut) {
        console.error(`✖ ${bench} did not finish within ${BENCH_TIMEOUT_MS / 60_000} min`);
      }
      resolve({ status, signal, seconds, why: timedOut ? null : lastError(output) });
    });
  });
}

/**
 * The last line of what a bench printed that names an error, cut to one table cell: CI keeps
 * only the end of the run, so the table at the end says why a bench failed.
 */
function lastError(output) {
  const lines = Buffer.concat(output).toString("utf8").split("\n");
  const line = lines.findLast((l) => /\b(Error|error|not healthy|exited)\b|✖/.test(l)) ?? "";
  return line.trim().replaceAll("|", "/").slice(0, 200);
}

/** Reads what a bench wrote, or says why there is nothing to read. */
function rowOf(bench, file, { status, signal, seconds, why }) {
  if (status !== 0 || !existsSync(file)) {
    const how = signal
      ? `killed (${signal}) after ${seconds.toFixed(0)} s`
      : `exit ${status} after ${seconds.toFixed(0)} s`;
    return {
      bench,
      name: bench,
      failed: true,
      figures: { error: why ? `${how}: ${why}` : how },
    };
  }
  const { name, figures } = JSON.parse(readFileSync(file, "utf8"));
  if (!figures || typeof figures !== "object") {
    // A bench must write `{ name, figures }`; anything else would break the table.
    console.error(`✖ ${bench} wrote no { name, figures } to BENCH_OUT`);
    return { bench, name: bench, failed: true, figures: { error: "no figures written" } };
  }
  return { bench, name, figures };
}

// Side by side, the benches that take minutes start first (measured in a smoke run beside the
// browsers on a slow 2-core machine, 2026-11-30: flood 135 s, live-status 129 s, history 127 s,
// shipping-step 87 s, store-cost 61 s), so the short ones fill the gaps at the end instead of
// one long bench running alone. The table keeps the benches' own order.
const LONG_BENCHES = ["flood", "live-status", "history", "shipping-step", "store-cost"];
const rank = (bench) => {
  const at = LONG_BENCHES.findIndex((name) => bench.endsWith(`/${name}.mjs`));
  return at === -1 ? LONG_BENCHES.length : at;
};
const order = selected.map((_, i) => i);
if (parallel > 1) order.sort((a, b) => rank(selected[a]) - rank(selected[b]));
const rows = new Array(selected.length);
let next = 0;
await Promise.all(
  Array.from({ length: Math.min(parallel, selected.length) }, async () => {
    while (next < order.length) {
      const i = order[next++];
      const file = join(out, `${i}.json`);
      rows[i] = rowOf(selected[i], file, await runBench(selected[i], file));
    }
  }),
);
const failed = rows.filter((row) => row.failed).length;

await dropTemplates();

/** Drops the migrated databases this run's benches shared (bench/lib/bench-app.mjs). */
async function dropTemplates() {
  const { default: pg } = await import("pg");
  const admin = new pg.Client({
    connectionString: `${process.env.BENCH_PG_URL ?? "postgres://postgres@localhost:5432"}/postgres`,
  });
  try {
    await admin.connect();
    const { rows } = await admin.query(`select datname from pg_database where datname like $1`, [
      `${templates}\\_%`,
    ]);
    for (const { datname } of rows) {
      await admin.query(`drop database if exists "${datname}" with (force)`);
    }
  } catch (error) {
    console.error(`could not drop the benches' template databases: ${error.message}`);
  } finally {
    await admin.end().catch(() => undefined);
  }
}

const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? "cpu"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const date = new Date().toISOString().slice(0, 10);
const lines = [
  `Measured on ${machine}, ${date}.`,
  "",
  "| Benchmark | Figure | Value |",
  "| --- | --- | --- |",
];
for (const row of rows) {
  for (const [key, value] of Object.entries(row.figures)) {
    lines.push(`| ${row.name} | ${key} | ${value} |`);
  }
}
const table = lines.join("\n");
console.log(`\n${table}\n`);

// The raw figures live beside the benchmarks; the root README keeps the targets and links here.
const figuresFile = "test/bench/FIGURES.md";
const readme = readFileSync(figuresFile, "utf8");
const start = "<!-- BENCH:START -->";
const end = "<!-- BENCH:END -->";
if (readme.includes(start) && readme.includes(end) && only.length === 0 && !smoke) {
  const updated =
    readme.slice(0, readme.indexOf(start) + start.length) +
    `\n${table}\n` +
    readme.slice(readme.indexOf(end));
  writeFileSync(figuresFile, updated);
  console.log(`${figuresFile} updated.`);
}
process.exit(failed ? 1 : 0);
