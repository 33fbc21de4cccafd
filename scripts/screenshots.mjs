#!/usr/bin/env node
// `npm run screenshots [-- name …]`: re-takes the docs' pictures with their scripts (all of
// them, or the named runs of scripts/screenshot-manifest.mjs), then records each picture's
// fingerprint in scripts/screenshots.lock.json, which test/screenshots.test.ts checks. Builds
// first. A run that fails records nothing for its pictures. About 20 minutes for all.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LOCK, SHOTS, fingerprint, root } from "./screenshot-manifest.mjs";

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !SHOTS.some((shot) => shot.name === name));
if (unknown.length > 0) {
  console.error(
    `no such screenshots: ${unknown.join(", ")} (known: ${SHOTS.map((s) => s.name).join(", ")})`,
  );
  process.exit(2);
}
const runs = SHOTS.filter((shot) => wanted.length === 0 || wanted.includes(shot.name));

const run = (command, args) =>
  spawnSync(command, args, { cwd: root, stdio: "inherit", env: process.env }).status === 0;

// The browsers, Xvfb and Postgres the scripts drive, as `npm test` prepares them; then a build.
if (!run("node", ["scripts/ensure-environment.mjs"])) process.exit(1);
if (!run("npm", ["run", "build", "--silent"])) process.exit(1);

const lockFile = join(root, LOCK);
const lock = existsSync(lockFile) ? JSON.parse(readFileSync(lockFile, "utf8")) : {};
const failed = [];
for (const shot of runs) {
  console.log(`\n▶ ${shot.name}: ${shot.command.join(" ")}`);
  // The element's engine shots need an X display for WebKit's MiniBrowser.
  const [command, ...args] =
    shot.name === "element" && !process.env.DISPLAY
      ? ["xvfb-run", "-a", ...shot.command]
      : shot.command;
  if (!run(command, args)) {
    failed.push(shot.name);
    continue;
  }
  const taken = fingerprint(shot.sources);
  for (const picture of shot.pictures) lock[picture] = taken;
}
const sorted = Object.fromEntries(Object.entries(lock).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(lockFile, `${JSON.stringify(sorted, null, 2)}\n`);
if (failed.length > 0) {
  console.error(`\n✖ not re-taken: ${failed.join(", ")}`);
  process.exit(1);
}
console.log(`\n✔ ${runs.map((s) => s.name).join(", ")} re-taken; ${LOCK} updated`);
