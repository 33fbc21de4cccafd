#!/usr/bin/env node
// Packs the four published packages as npm would and lints the tarballs: publint (package.json
// fields against the files shipped) and Are the Types Wrong (each entry point's types under
// every module resolution). Run by `npm test` after the build. Usage: node scripts/check-packages.mjs
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Per package: which entry points attw checks and which of its rules do not apply.
 * The element and the plugin are ESM-only and CommonJS-only by design (a browser component;
 * a Medusa plugin loaded through require()), so the rule about the other module system is off.
 */
const packages = [
  { dir: "packages/client", attw: [] },
  { dir: "packages/sandbox", attw: ["--ignore-rules", "cjs-resolves-to-esm"] },
  { dir: "packages/element", attw: ["--ignore-rules", "cjs-resolves-to-esm"] },
  // Only ./types is imported by merchants; the provider, module and admin paths are loaded by
  // Medusa at runtime and carry no declarations.
  { dir: "packages/medusa", attw: ["--entrypoints", "./types"] },
];

const destination = mkdtempSync(join(tmpdir(), "pix-pack-"));
let failures = 0;
try {
  for (const { dir, attw } of packages) {
    const pack = spawnSync("npm", ["pack", "--json", "--pack-destination", destination], {
      cwd: dir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    });
    if (pack.status !== 0) {
      console.error(`✖ npm pack failed in ${dir}`);
      failures++;
      continue;
    }
    const [{ filename }] = JSON.parse(pack.stdout);
    const tarball = join(destination, filename);
    console.log(`\n${filename}`);
    const checks = [
      ["publint", ["publint", "run", tarball, "--strict"]],
      ["attw", ["attw", tarball, "--format", "ascii", "--profile", "node16", ...attw]],
    ];
    for (const [name, args] of checks) {
      const result = spawnSync("npx", ["--no-install", ...args], { stdio: "inherit" });
      if (result.status !== 0) {
        console.error(`✖ ${name} found problems in ${filename}`);
        failures++;
      }
    }
  }
} finally {
  rmSync(destination, { recursive: true, force: true });
}
process.exit(failures === 0 ? 0 : 1);
