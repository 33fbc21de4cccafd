#!/usr/bin/env node
// The one test command (`npm test`), used by CI as-is: prepares what the suites need
// (a Chromium, a reachable Postgres), builds, type-checks, lints, checks formatting,
// then runs every vitest project and prints one closing "N passed, N failed" line.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const extraArgs = process.argv.slice(2);

function step(title, command, args, env = {}) {
  const started = Date.now();
  console.log(`\n▶ ${title}`);
  const result = spawnSync(command, args, {
    stdio: "inherit",
    env: { ...process.env, ...env },
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    console.error(`✖ ${title} failed after ${seconds}s`);
    return false;
  }
  console.log(`✔ ${title} (${seconds}s)`);
  return true;
}

const ok =
  step("environment", "node", ["scripts/ensure-environment.mjs"]) &&
  step("build", "npm", ["run", "build", "--silent"]) &&
  step("typecheck", "npm", ["run", "typecheck", "--silent"]) &&
  step("lint", "npx", ["eslint", "."]) &&
  step("format", "npx", ["prettier", "--check", "."]) &&
  step("packages (publint, attw)", "node", ["scripts/check-packages.mjs"]);
if (!ok) process.exit(1);

const report = join(mkdtempSync(join(tmpdir(), "pix-test-")), "vitest.json");
const passed = step("tests", "npx", [
  "vitest",
  "run",
  "--reporter=default",
  // Medusa, the sandbox and the fuzzers log thousands of lines; a failing test keeps its own.
  "--silent=passed-only",
  "--reporter=json",
  `--outputFile.json=${report}`,
  ...extraArgs,
]);

let summary = null;
try {
  const json = JSON.parse(readFileSync(report, "utf8"));
  summary = `${json.numPassedTests} passed, ${json.numFailedTests} failed, ${json.numPendingTests + json.numTodoTests} skipped`;
} catch {
  // No report means vitest itself crashed; its own output above says why.
}
if (summary) console.log(`\ntests: ${summary}`);
process.exit(passed && summary ? 0 : 1);
