#!/usr/bin/env node
// Publishes the public packages to npm in dependency order (a package after every package of
// this repository it depends on), each with provenance, skipping a version the registry already
// has, so a release that stopped halfway is finished by running it again. RELEASING.md says
// when; .github/workflows/release.yml runs it.
//
// It handles no credential: in .github/workflows/release.yml npm's trusted
// publishing trades the job's OIDC token for a short-lived one per package, which npm 11.5.1 and
// newer do by themselves on `npm publish`. An older npm has nothing to log in with and stops at
// ENEEDAUTH; the script says why before it starts.
//
// `--dry-run` publishes nothing and contacts no registry for writes: it runs
// `npm publish --dry-run` for each package (its prepack and postpack too) and checks what the
// tarball would hold: no tests, fixtures or test source maps, and the README, LICENSE and
// CHANGELOG a reader of the package page expects. `npm test` runs it.
//
// Usage: node scripts/publish.mjs [--dry-run]
import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

const dryRun = process.argv.includes("--dry-run");
const root = new URL("..", import.meta.url).pathname;

/** What must never be in a published tarball: tests, their fixtures and their source maps. */
const FORBIDDEN = [
  // A test's code, its declarations (`x.test.d.ts`) and their maps.
  /(^|\/)[^/]*\.(test|spec)\.(d\.)?[cm]?[jt]sx?(\.map)?$/,
  /(^|\/)(__tests__|tests?|integration-tests|fixtures|__fixtures__|e2e)\//,
  /(^|\/)vitest\.[^/]*$/,
  /(^|\/)\.env(\.|$)/,
];
/** What every package page needs. */
const REQUIRED = ["package.json", "README.md", "LICENSE", "CHANGELOG.md"];

/** The workspace packages npm would publish, by name. */
function publicPackages() {
  const found = new Map();
  for (const dir of readdirSync(join(root, "packages"))) {
    const manifest = JSON.parse(readFileSync(join(root, "packages", dir, "package.json"), "utf8"));
    if (!manifest.private) found.set(manifest.name, { dir: join("packages", dir), manifest });
  }
  return found;
}

/** Every package after the packages of this repository it depends on (dependencies or peers). */
function dependencyOrder(packages) {
  const ordered = [];
  const placing = new Set();
  const place = (name) => {
    if (ordered.includes(name)) return;
    if (placing.has(name)) throw new Error(`dependency cycle through ${name}`);
    placing.add(name);
    const { manifest } = packages.get(name);
    const needs = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies });
    for (const need of needs.filter((n) => packages.has(n)).sort()) place(need);
    ordered.push(name);
  };
  for (const name of [...packages.keys()].sort()) place(name);
  return ordered;
}

function npm(args, options = {}) {
  return spawnSync("npm", args, {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    ...options,
  });
}

/** Whether the registry already has `name@version` (a release finished before). */
function published(name, version) {
  const view = npm(["view", `${name}@${version}`, "version", "--json"]);
  return view.status === 0 && view.stdout.trim() !== "";
}

/** Whether npm `version` (x.y.z) is at least `least`. */
function atLeast(version, least) {
  const [a, b] = [version, least].map((v) => v.split(".").map((n) => Number.parseInt(n, 10)));
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] > b[i];
  return true;
}

/** The first npm that publishes through trusted publishing (OIDC). */
const TRUSTED_PUBLISHING_NPM = "11.5.1";

if (!dryRun) {
  const version = npm(["--version"]).stdout.trim();
  if (!atLeast(version, TRUSTED_PUBLISHING_NPM)) {
    console.error(
      `✖ npm ${version} cannot publish through trusted publishing; it needs ${TRUSTED_PUBLISHING_NPM} or newer (current Node.js 24 releases ship one)`,
    );
    process.exit(1);
  }
}

const packages = publicPackages();
let failures = 0;
for (const name of dependencyOrder(packages)) {
  const { manifest } = packages.get(name);
  const id = `${name}@${manifest.version}`;
  if (!dryRun && published(name, manifest.version)) {
    console.log(`= ${id} is on the registry already`);
    continue;
  }
  const args = dryRun
    ? ["publish", "--dry-run", "--json", "-w", name]
    : ["publish", "--provenance", "--access", "public", "-w", name];
  const run = npm(args);
  if (run.status !== 0) {
    console.error(`✖ npm ${args.join(" ")} failed:\n${run.stderr}`);
    failures++;
    continue;
  }
  if (!dryRun) {
    console.log(`✔ published ${id}`);
    continue;
  }
  const report = JSON.parse(run.stdout)[name];
  const files = report.files.map((file) => file.path);
  const shipped = files.filter((file) => FORBIDDEN.some((pattern) => pattern.test(file)));
  const missing = REQUIRED.filter((file) => !files.includes(file));
  if (shipped.length > 0 || missing.length > 0) {
    failures++;
    if (shipped.length > 0) console.error(`✖ ${id} would ship ${shipped.join(", ")}`);
    if (missing.length > 0) console.error(`✖ ${id} would lack ${missing.join(", ")}`);
    continue;
  }
  console.log(
    `✔ ${id}: ${files.length} files, ${(report.size / 1024).toFixed(1)} kB packed, ${(report.unpackedSize / 1024).toFixed(1)} kB unpacked`,
  );
}
if (failures > 0) {
  console.error(`\n${failures} package(s) not ready to publish`);
  process.exit(1);
}
