#!/usr/bin/env node
// `npm run mutation`: mutation testing with StrykerJS of the plugin's pure money decisions
// (packages/medusa/stryker.config.mjs says what is mutated, vitest.mutation.config.ts which
// unit tests run), then of the element's status mapping (packages/element/stryker.config.mjs,
// its Node unit tests: vitest.unit.config.ts), then of the money rules both plugins share
// (packages/client/stryker.config.mjs: settlement, the MED, the check schedule, reminders), then
// of the Vendure plugin's pure decisions (packages/vendure/stryker.config.mjs). Not part of `npm test`. For each package, prints
// Stryker's score table, then each file's score and every mutant no test failed on, one line
// each; each package's whole report is in its reports/mutation/ (mutation.html to browse,
// mutation.json to read). Exits non-zero only when Stryker itself fails: a low score is a
// finding, not a broken run. `--package medusa`, `element`, `client` or `vendure` runs one; other
// arguments go to Stryker (`--mutate` paths are the package's, so a run with `--mutate` and no
// `--package` is the plugin's alone, as before the element had one).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { delimiter, dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { cachedNode } from "./cached-install.mjs";
import { TARGETS as MEDUSA_TARGETS } from "../packages/medusa/stryker.config.mjs";
import { TARGETS as ELEMENT_TARGETS } from "../packages/element/stryker.config.mjs";
import { TARGETS as CLIENT_TARGETS } from "../packages/client/stryker.config.mjs";
import { TARGETS as VENDURE_TARGETS } from "../packages/vendure/stryker.config.mjs";

const here = fileURLToPath(import.meta.url);

// On Node.js 24, as `npm test` (scripts/test.mjs): StrykerJS needs 22 or later anyway.
if (process.versions.node.split(".")[0] !== "24") {
  const { binary, version } = cachedNode(join(dirname(here), "node-24"), 24);
  console.log(`npm run mutation runs on Node.js ${version} (this shell's is ${process.version})`);
  const again = spawnSync(binary, [here, ...process.argv.slice(2)], {
    stdio: "inherit",
    env: { ...process.env, PATH: `${dirname(binary)}${delimiter}${process.env.PATH ?? ""}` },
  });
  process.exit(again.status ?? 1);
}

const args = process.argv.slice(2);
const at = args.indexOf("--package");
const only = at === -1 ? (args.includes("--mutate") ? "medusa" : null) : args[at + 1];
const passed = at === -1 ? args : args.filter((_, index) => index !== at && index !== at + 1);
const PACKAGES = [
  { name: "medusa", targets: MEDUSA_TARGETS },
  { name: "element", targets: ELEMENT_TARGETS },
  { name: "client", targets: CLIENT_TARGETS },
  { name: "vendure", targets: VENDURE_TARGETS },
].filter((pkg) => only === null || pkg.name === only);
if (PACKAGES.length === 0) {
  console.error(`--package ${only}: no such package (medusa, element, client, vendure)`);
  process.exit(2);
}

for (const { name, targets } of PACKAGES) {
  const dir = join(dirname(here), "..", "packages", name);
  console.log(`\n▶ mutation testing of packages/${name}`);
  const status = mutate(dir, targets, passed);
  if (status !== 0) process.exit(status);
}

/**
 * Runs Stryker in the package at `dir` and prints its summary: each file's score, every mutant
 * no test detected, the overall score. Answers Stryker's exit status.
 * @param {string} dir
 * @param {{ file: string, fn?: string }[]} TARGETS
 * @param {string[]} strykerArgs
 */
function mutate(dir, TARGETS, strykerArgs) {
  const reportFile = join(dir, "reports", "mutation", "mutation.json");
  const started = Date.now();
  const stryker = spawnSync("npx", ["stryker", "run", "stryker.config.mjs", ...strykerArgs], {
    cwd: dir,
    stdio: "inherit",
  });
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  if (stryker.status !== 0) {
    console.error(`✖ Stryker failed after ${minutes} min`);
    return stryker.status ?? 1;
  }

  /** @typedef {{ status: string, mutatorName: string, replacement?: string, location: { start: { line: number, column: number }, end: { line: number, column: number } } }} Mutant */
  /** @type {{ files: Record<string, { source: string, mutants: Mutant[] }> }} */
  const report = JSON.parse(readFileSync(reportFile, "utf8"));

  // Stryker's own counts: killed and timed-out mutants are detected; survivors and mutants no
  // test reached are not; mutants that did not compile or broke the run count for neither.
  const DETECTED = ["Killed", "Timeout"];
  const UNDETECTED = ["Survived", "NoCoverage"];
  const score = (/** @type {Mutant[]} */ mutants) => {
    const detected = mutants.filter((m) => DETECTED.includes(m.status)).length;
    const counted = detected + mutants.filter((m) => UNDETECTED.includes(m.status)).length;
    return {
      detected,
      counted,
      text: counted ? `${((100 * detected) / counted).toFixed(2)} %` : "-",
    };
  };

  /** The code a mutant replaced, on one line and shortened. */
  function original(/** @type {string} */ source, /** @type {Mutant} */ { location }) {
    const lines = source.split("\n");
    const { start, end } = location;
    const text =
      start.line === end.line
        ? lines[start.line - 1].slice(start.column - 1, end.column - 1)
        : [
            lines[start.line - 1].slice(start.column - 1),
            ...lines.slice(start.line, end.line - 1),
            lines[end.line - 1].slice(0, end.column - 1),
          ].join(" ");
    const flat = text.replace(/\s+/g, " ").trim();
    return flat.length > 70 ? `${flat.slice(0, 67)}...` : flat;
  }

  /** A file's path under src/internal (the plugin's), else under src (the client's). */
  const shortName = (/** @type {string} */ file) =>
    relative(file.startsWith("src/internal/") ? "src/internal" : "src", file);

  /** A file as the summary names it: its path, and the functions mutated. */
  const nameOf = (/** @type {string} */ file) => {
    const fns = TARGETS.filter((target) => target.file === file && target.fn).map((t) => t.fn);
    return shortName(file) + (fns.length ? ` (${fns.join(", ")})` : "");
  };

  const all = [];
  const rows = [];
  const undetected = [];
  for (const [file, { source, mutants }] of Object.entries(report.files).sort(([a], [b]) =>
    a.localeCompare(b),
  )) {
    all.push(...mutants);
    const { detected, counted, text } = score(mutants);
    const name = nameOf(file);
    rows.push(`  ${text.padStart(8)}  ${`${detected}/${counted}`.padEnd(8)} ${name}`);
    const missed = mutants
      .filter((m) => UNDETECTED.includes(m.status))
      .sort(
        (a, b) =>
          a.location.start.line - b.location.start.line ||
          a.location.start.column - b.location.start.column,
      );
    for (const mutant of missed) {
      const { line, column } = mutant.location.start;
      const replacement = (mutant.replacement ?? "").replace(/\s+/g, " ");
      const shown = replacement.length > 70 ? `${replacement.slice(0, 67)}...` : replacement;
      const why = mutant.status === "NoCoverage" ? "no test reaches it" : "survived";
      undetected.push(
        `  ${shortName(file)}:${line}:${column} ${why}: ${mutant.mutatorName} ` +
          `${JSON.stringify(original(source, mutant))} → ${JSON.stringify(shown)}`,
      );
    }
  }
  const total = score(all);
  const covered = score(all.filter((m) => m.status !== "NoCoverage"));
  console.log(`\nmutation score per file (detected/counted):\n${rows.join("\n")}`);
  console.log(
    `\nmutants no test detected (${undetected.length}):\n${undetected.join("\n") || "  none"}`,
  );
  console.log(
    `\nmutation score ${total.text} (${total.detected}/${total.counted}); of the code the tests reach ${covered.text}; ${minutes} min`,
  );
  console.log(
    `report: ${relative(process.cwd(), join(dir, "reports", "mutation", "mutation.html"))}`,
  );
  return 0;
}
