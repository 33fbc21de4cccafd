#!/usr/bin/env node
// Packs the public packages into tarballs a release publishes, and rehearses that publish.
// RELEASING.md says when; .github/workflows/release.yml runs it.
//
// The release builds and packs in one job and publishes in another, and only the second holds
// the OIDC token npm's trusted publishing trades for a publish token. That job checks nothing
// out and runs none of this repository's code, so no build tool, dependency or script of ours
// ever runs where the token can be read: its "publish" step (a few lines of shell in
// release.yml) publishes the tarballs this script packed with
// `npm publish <tarball> --provenance --access public --ignore-scripts`, in the order of their
// names, skipping a version the registry already has, so a release that stopped halfway is
// finished by running it again.
//
// `--pack <folder>` packs every public package into <folder>, each after the packages of this
// repository it depends on, named `01-…tgz`, `02-…tgz` in that order. It refuses a tarball that
// would ship a test, a fixture or a test's source map, or lack the README, LICENSE and CHANGELOG
// a reader of the package page expects. The release's pack job runs it after the build.
//
// `--dry-run` packs into a temporary folder as `--pack` does, then runs release.yml's own
// publish step on those tarballs with an `npm` in front of the real one that answers the
// registry's questions and adds `--dry-run` to every publish: once with a registry that has
// none of the versions (every tarball must be published, in dependency order, and npm must
// accept each) and once with one that has them all (none may be). It publishes nothing and
// needs no login. `npm test` runs it.
//
// Usage: node scripts/publish.mjs --pack <folder> | --dry-run
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parse } from "yaml";

const root = new URL("..", import.meta.url).pathname;
const WORKFLOW = ".github/workflows/release.yml";

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

function run(command, args, options = {}) {
  return spawnSync(command, args, {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    ...options,
  });
}

/**
 * Packs every public package into `folder` (made if missing, refused if it holds a tarball
 * already: the publish step publishes every tarball there). Returns the ids (`name@version`)
 * in the order the files are named, or null when a package failed to pack or its tarball is
 * not fit to publish.
 */
function pack(folder) {
  mkdirSync(folder, { recursive: true });
  const stale = readdirSync(folder).filter((file) => file.endsWith(".tgz"));
  if (stale.length > 0) {
    console.error(
      `✖ ${folder} holds tarballs already (${stale.join(", ")}); pack into an empty one`,
    );
    return null;
  }
  const ids = [];
  let failures = 0;
  const order = dependencyOrder(publicPackages());
  for (const [index, name] of order.entries()) {
    const packed = run("npm", ["pack", "--json", "--pack-destination", folder, "-w", name]);
    if (packed.status !== 0) {
      console.error(`✖ npm pack -w ${name} failed:\n${packed.stderr}`);
      failures++;
      continue;
    }
    const [report] = JSON.parse(packed.stdout);
    const files = report.files.map((file) => file.path);
    const shipped = files.filter((file) => FORBIDDEN.some((pattern) => pattern.test(file)));
    const missing = REQUIRED.filter((file) => !files.includes(file));
    if (shipped.length > 0) console.error(`✖ ${report.id} would ship ${shipped.join(", ")}`);
    if (missing.length > 0) console.error(`✖ ${report.id} would lack ${missing.join(", ")}`);
    const numbered = `${String(index + 1).padStart(2, "0")}-${report.filename}`;
    if (shipped.length > 0 || missing.length > 0) {
      // Not left where the publish step would find it.
      rmSync(join(folder, report.filename), { force: true });
      failures++;
      continue;
    }
    renameSync(join(folder, report.filename), join(folder, numbered));
    ids.push(report.id);
    console.log(
      `✔ ${numbered}: ${files.length} files, ${(report.size / 1024).toFixed(1)} kB packed, ${(report.unpackedSize / 1024).toFixed(1)} kB unpacked`,
    );
  }
  if (failures > 0) {
    console.error(`\n${failures} package(s) not ready to publish`);
    return null;
  }
  return ids;
}

/** release.yml's publish step: the job that holds the OIDC token runs this shell, and only this. */
function publishStep() {
  const workflow = parse(readFileSync(join(root, WORKFLOW), "utf8"));
  const step = workflow?.jobs?.publish?.steps?.find((s) => s.id === "publish");
  if (typeof step?.run !== "string") {
    throw new Error(`${WORKFLOW} has no step with id "publish" in its publish job`);
  }
  return step.run;
}

/**
 * The `npm` the dry run puts in front of the real one. `npm view` answers as the registry
 * FAKE_REGISTRY names ("empty": it has no version yet; "full": it has every one), and
 * `npm publish` runs the real one with `--dry-run` and is written down in NPM_CALLS. `--offline`:
 * the rehearsal asks the registry nothing (a dry run's own lookups waited out the network's
 * timeouts on a machine without one: 296 s against 14 s in `unshare -n`).
 */
const NPM_STAND_IN = `#!/bin/sh
PATH="$REAL_PATH"
export PATH
case "$1" in
  view)
    echo "view $2" >> "$NPM_CALLS"
    if [ "$FAKE_REGISTRY" = full ]; then echo "\${2##*@}"; exit 0; fi
    echo "npm error 404 Not Found - $2 (the dry run's registry has none)" >&2
    exit 1
    ;;
  publish)
    shift
    echo "publish $*" >> "$NPM_CALLS"
    exec npm publish --dry-run --offline "$@"
    ;;
esac
exec npm "$@"
`;

/** Runs the publish step on `folder`'s tarballs against a registry FAKE_REGISTRY describes. */
function rehearse(folder, registry, scratch) {
  const bin = join(scratch, "bin");
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, "npm"), NPM_STAND_IN);
  chmodSync(join(bin, "npm"), 0o755);
  const calls = join(scratch, `calls-${registry}.txt`);
  writeFileSync(calls, "");
  const script = join(scratch, "publish-step.sh");
  writeFileSync(script, publishStep());
  // GitHub runs a step's `shell: bash` as `bash --noprofile --norc -eo pipefail {0}`.
  const result = run("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], {
    cwd: folder,
    env: {
      ...process.env,
      PATH: `${bin}:${process.env.PATH}`,
      REAL_PATH: process.env.PATH,
      FAKE_REGISTRY: registry,
      NPM_CALLS: calls,
    },
  });
  const published = readFileSync(calls, "utf8")
    .split("\n")
    .filter((line) => line.startsWith("publish "));
  return { result, published };
}

function dryRun() {
  const scratch = mkdtempSync(join(tmpdir(), "pix-publish-"));
  try {
    const folder = join(scratch, "tarballs");
    const ids = pack(folder);
    if (!ids) return false;
    const tarballs = readdirSync(folder).sort();

    const empty = rehearse(folder, "empty", scratch);
    const announced = [...empty.result.stdout.matchAll(/^\+ (\S+)$/gm)].map((m) => m[1]);
    if (empty.result.status !== 0 || announced.join(" ") !== ids.join(" ")) {
      console.error(
        `✖ ${WORKFLOW}'s publish step, with none of the versions on the registry, should publish ` +
          `${ids.join(", ")} in that order; npm announced ${announced.join(", ") || "none"}` +
          ` (exit ${empty.result.status}):\n${empty.result.stdout}${empty.result.stderr}`,
      );
      return false;
    }
    const untouched = tarballs.filter((file, i) => !empty.published[i]?.includes(`./${file}`));
    const unsafe = empty.published.filter((line) => !/\s--ignore-scripts(\s|$)/.test(line));
    if (untouched.length > 0 || unsafe.length > 0) {
      console.error(
        `✖ ${WORKFLOW}'s publish step should run npm publish ./<tarball> --ignore-scripts on ` +
          `each tarball in order; it ran:\n  ${empty.published.join("\n  ")}`,
      );
      return false;
    }
    console.log(`✔ the publish step publishes ${ids.join(", ")} (npm publish --dry-run)`);

    const full = rehearse(folder, "full", scratch);
    if (full.result.status !== 0 || full.published.length > 0) {
      console.error(
        `✖ ${WORKFLOW}'s publish step, with every version on the registry, should publish ` +
          `nothing; it ran ${full.published.length} publish(es) (exit ${full.result.status}):\n` +
          `${full.result.stdout}${full.result.stderr}`,
      );
      return false;
    }
    console.log("✔ run again, it skips every version the registry has");
    return true;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

const [mode, target] = process.argv.slice(2);
if (mode === "--pack" && target) {
  process.exit(pack(resolve(target)) ? 0 : 1);
} else if (mode === "--dry-run") {
  process.exit(dryRun() ? 0 : 1);
} else {
  console.error("Usage: node scripts/publish.mjs --pack <folder> | --dry-run");
  process.exit(2);
}
