// Installs the packaging test needs besides the repository's own, each described by a folder
// here with a package.json and its lock: oldest-medusa/ (the oldest Medusa the plugin
// supports, as Medusa's dtc-starter pins it), next-medusa/ (the newest build of the next Medusa
// minor the registry serves) and node-22/ (a Node.js 22 binary, from the npm registry's `node`
// package). Each is installed from the registry exactly as its lock says, once per lock, into a
// cache outside the repository that every later run (and every checkout of the repository on
// the machine) reuses while the lock is unchanged. Each run gets its own copy of a Medusa
// node_modules, made of hard links, so extracting the tarballs into it leaves the cache as npm
// wrote it.
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
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));

/** An install this module knows: the folder beside it with the package.json and the lock. */
export type InstallSpec = "oldest-medusa" | "next-medusa" | "node-22";

/** The package.json of `spec`, as its app is written. */
export function specManifest(spec: InstallSpec): {
  dependencies: Record<string, string>;
  [field: string]: unknown;
} {
  return JSON.parse(readFileSync(path.join(here, spec, "package.json"), "utf8"));
}

/** The Medusa version the oldest app pins (oldest-medusa/package.json). */
export const OLDEST_MEDUSA = specManifest("oldest-medusa").dependencies["@medusajs/medusa"]!;
/** The React Router the oldest app's admin is built with. */
export const OLDEST_REACT_ROUTER = specManifest("oldest-medusa").dependencies["react-router-dom"]!;
/** The newest build of the next Medusa minor the registry serves (next-medusa/package.json). */
export const NEXT_MEDUSA = specManifest("next-medusa").dependencies["@medusajs/medusa"]!;

/** `PIX_MEDUSA_CACHE`, or ~/.cache/pix-checkout: where installs of other Medusa versions live. */
const cacheRoot = process.env.PIX_MEDUSA_CACHE ?? path.join(homedir(), ".cache", "pix-checkout");
const DONE = ".installed";

export type CachedInstall = {
  /** The cached node_modules: never write into it; {@link copyNodeModules} first. */
  nodeModules: string;
  /** Whether this run had to run `npm install` (the lock changed, or the cache was empty). */
  installed: boolean;
  seconds: number;
};

/**
 * The cached install of `spec`, made by `npm install` when the cache has none for its lock.
 * Installs for older locks of the same spec are removed once the new one is in place.
 */
export function cachedInstall(spec: InstallSpec): CachedInstall {
  const PREFIX = `${spec}-`;
  const folder = path.join(here, spec);
  const started = Date.now();
  const lock = readFileSync(path.join(folder, "package-lock.json"));
  const key = createHash("sha256")
    .update(readFileSync(path.join(folder, "package.json")))
    .update(lock)
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
  // which a registry mirror may not serve and so cannot be locked from it.
  try {
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], {
      cwd: partial,
      stdio: ["ignore", "ignore", "inherit"],
    });
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
    const sameSpec = entry.startsWith(PREFIX) && /^[0-9a-f]{16}$/.test(entry.slice(PREFIX.length));
    if (sameSpec && entry !== PREFIX + key) {
      rmSync(path.join(cacheRoot, entry), { recursive: true, force: true });
    }
  }
  return { nodeModules: path.join(dir, "node_modules"), installed: true, seconds: seconds() };
}

/**
 * Copies `from` (a whole node_modules) to `to` as hard links, which takes seconds for the
 * ~100 000 files of a Medusa install; across file systems, where links cannot go, as a copy.
 */
export function copyNodeModules(from: string, to: string): "linked" | "copied" {
  try {
    execFileSync("cp", ["-al", from, to], { stdio: "ignore" });
    return "linked";
  } catch {
    rmSync(to, { recursive: true, force: true });
    execFileSync("cp", ["-a", from, to], { stdio: "inherit" });
    return "copied";
  }
}

/**
 * The Node.js 22 binary of node-22/ (the npm registry's `node` package ships the official
 * builds), checked to run. The packaging test runs Medusa with it, as a store on Node 22 does.
 */
export function node22(): { binary: string; version: string } {
  const binary = path.join(cachedInstall("node-22").nodeModules, "node", "bin", "node");
  const version = execFileSync(binary, ["--version"], { encoding: "utf8" }).trim();
  if (!version.startsWith("v22.")) throw new Error(`${binary} is ${version}, not Node.js 22`);
  return { binary, version };
}
