#!/usr/bin/env node
// The reminders' mix at scale: 200 carts whose shoppers pay at once (some sending the bank more
// or less than the code asked), after the reminder, after the new code, or never (an eighth of
// those stopping the reminders from the first message), in equal shares. It is the integration
// test's own mix (integration-tests/http/recovery.test.ts, "a mix of carts"), run with
// RECOVERY_MIX_CARTS: the same store, the same checks (the admin's recuperados and income equal
// to what the run did, to the cent; the overview, balance card and transactions list equal to
// the ledger; no reminder to a paid cart or an opted-out mailbox), and the figures it wrote.
// Against the BUILT plugin (`npm run build` first). Takes about 8 minutes: the service's
// budget lets the store create 60 codes a minute, and 450 are made (each shopper first pays an
// order of its own, so its mailbox may get reminders).
// Usage: node packages/medusa/bench/recovery-mix.mjs   (BENCH_OUT=file.json also writes the figures)
// Env: BENCH_MIX_CARTS (default 200).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
// BENCH_SMOKE (`npm run bench -- --smoke`, run by `npm test`): 8 carts, one of each kind.
const carts = Number(process.env.BENCH_MIX_CARTS ?? (process.env.BENCH_SMOKE ? 8 : 200));
const out = path.join(mkdtempSync(path.join(tmpdir(), "pix-mix-")), "mix.json");
const run = spawnSync(
  "npx",
  [
    "vitest",
    "run",
    "--project",
    "medusa",
    "packages/medusa/integration-tests/http/recovery.test.ts",
    "-t",
    "a mix of carts",
    "--testTimeout",
    String(30 * 60_000),
    "--silent=passed-only",
  ],
  {
    cwd: root,
    stdio: "inherit",
    env: {
      ...process.env,
      DB_HOST: process.env.DB_HOST ?? "localhost",
      RECOVERY_MIX_CARTS: String(carts),
      RECOVERY_MIX_OUT: out,
    },
  },
);
if (run.status !== 0 || !existsSync(out)) {
  console.error("✖ the mix failed its checks");
  process.exit(1);
}
const mix = JSON.parse(readFileSync(out, "utf8"));
// Cents as reais on the digits, never through a float.
const reais = (cents) => {
  const digits = String(cents).padStart(3, "0");
  return `R$ ${digits.slice(0, -2)},${digits.slice(-2)}`;
};
const figures = {
  carts: mix.carts,
  "run (s)": mix.seconds,
  "paid after a reminder (run)": `${mix.recovered} · ${reais(mix.recovered_cents)}`,
  "recuperados (admin)": `${mix.admin_recovered} · ${reais(mix.admin_recovered_cents)}`,
  "income · owed back · held (admin)": `${reais(mix.income_cents)} · ${reais(mix.owed_cents)} · ${reais(mix.held_cents)}`,
  "figures = ledger": mix.figures_agree ? "to the cent" : "no",
  "mailboxes opted out": mix.opted_out,
};
console.table(figures);
if (process.env.BENCH_OUT) {
  writeFileSync(
    process.env.BENCH_OUT,
    JSON.stringify({ name: "reminders mix (integration store)", figures }),
  );
}
