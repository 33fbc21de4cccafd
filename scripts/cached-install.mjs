// Installs that live outside the repository, each described by a folder holding a package.json
// and its lock: a Node.js binary from the npm registry's `node` package (the runtime `npm test`
// runs on, the runtimes the packaging test runs stores on) or a Medusa app of another version.
// Each is installed from the registry exactly as its lock says, once per lock, into a cache
// that every later run (and every checkout of the repository on the machine) reuses while the
// lock is unchanged.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { homedir } from "node:os";
import path from "node:path";

/** `PIX_MEDUSA_CACHE`, or ~/.cache/pix-checkout: where these installs live. */
export const cacheRoot =
  process.env.PIX_MEDUSA_CACHE ?? path.join(homedir(), ".cache", "pix-checkout");
const DONE = ".installed";

/**
 * The cached install of `folder` (named `name` in the cache), made by `npm install` when the
 * cache has none for its lock. Installs for older locks of the same name are removed once the
 * new one is in place.
 * @param {string} folder
 * @param {string} name
 * @returns {{ nodeModules: string, installed: boolean, seconds: number }}
 */
export function cachedInstall(folder, name) {
  const PREFIX = `${name}-`;
  const started = Date.now();
  const key = createHash("sha256")
    .update(readFileSync(path.join(folder, "package.json")))
    .update(readFileSync(path.join(folder, "package-lock.json")))
    .digest("hex")
    .slice(0, 16);
  const dir = path.join(cacheRoot, PREFIX + key);
  const seconds = () => (Date.now() - started) / 1000;
  if (existsSync(path.join(dir, DONE))) {
    return { nodeModules: path.join(dir, "node_modules"), installed: false, seconds: seconds() };
  }

  // Installed beside its final place and renamed when complete, so an interrupted install or a
  // second run installing at the same moment never leaves a half-filled cache behind.
  mkdirSync(cacheRoot, { recursive: true });
  const partial = `${dir}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial);
  for (const file of ["package.json", "package-lock.json"]) {
    copyFileSync(path.join(folder, file), path.join(partial, file));
  }
  // `npm install` over the lock installs the lock's versions, as `npm ci` would; `npm ci` also
  // refuses a lock without the optional packages of other platforms (@swc/core-darwin-arm64, …),
  // which a registry mirror may not serve and so cannot be locked from it. `--prefer-offline`:
  // what npm's own cache holds is taken without asking the registry (a locked version never
  // changes), so a machine whose cache has them installs with no network at all.
  try {
    execFileSync(
      "npm",
      ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"],
      {
        cwd: partial,
        stdio: ["ignore", "ignore", "inherit"],
      },
    );
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    throw error;
  }
  writeFileSync(path.join(partial, DONE), new Date().toISOString());
  if (existsSync(path.join(dir, DONE))) {
    // Another run finished the same install first; its copy is as good as this one.
    rmSync(partial, { recursive: true, force: true });
  } else {
    rmSync(dir, { recursive: true, force: true });
    renameSync(partial, dir);
  }
  for (const entry of readdirSync(cacheRoot)) {
    const sameName = entry.startsWith(PREFIX) && /^[0-9a-f]{16}$/.test(entry.slice(PREFIX.length));
    if (sameName && entry !== PREFIX + key) {
      rmSync(path.join(cacheRoot, entry), { recursive: true, force: true });
    }
  }
  return { nodeModules: path.join(dir, "node_modules"), installed: true, seconds: seconds() };
}

/**
 * The Node.js binary of `folder`'s install (its package.json depends on the registry's `node`
 * package, which ships the official builds), checked to run and to be of `major`.
 * @param {string} folder
 * @param {number} major
 * @returns {{ binary: string, version: string }}
 */
export function cachedNode(folder, major) {
  const binary = path.join(
    cachedInstall(folder, `node-${major}`).nodeModules,
    "node",
    "bin",
    "node",
  );
  const version = execFileSync(binary, ["--version"], { encoding: "utf8" }).trim();
  if (!version.startsWith(`v${major}.`))
    throw new Error(`${binary} is ${version}, not Node.js ${major}`);
  return { binary, version };
}
