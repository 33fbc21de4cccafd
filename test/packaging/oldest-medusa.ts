// The oldest Medusa the plugin supports, as a merchant's store has it: installed from the npm
// registry exactly as oldest-medusa/package-lock.json says, once per lock, into a
// cache outside the repository that every later run (and every checkout of the repository on
// the machine) reuses while the lock is unchanged. Each run gets its own copy of that
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

const spec = path.join(path.dirname(fileURLToPath(import.meta.url)), "oldest-medusa");
const manifest = JSON.parse(readFileSync(path.join(spec, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
};

/** The Medusa version the oldest app pins (oldest-medusa/package.json). */
export const OLDEST_MEDUSA = manifest.dependencies["@medusajs/medusa"]!;
/** The React Router the oldest app's admin is built with. */
export const OLDEST_REACT_ROUTER = manifest.dependencies["react-router-dom"]!;

/** `PIX_MEDUSA_CACHE`, or ~/.cache/pix-checkout: where installs of other Medusa versions live. */
const cacheRoot = process.env.PIX_MEDUSA_CACHE ?? path.join(homedir(), ".cache", "pix-checkout");
const PREFIX = "oldest-medusa-";
const DONE = ".installed";

export type OldestInstall = {
  /** The cached node_modules: never write into it; {@link copyNodeModules} first. */
  nodeModules: string;
  /** Whether this run had to run `npm install` (the lock changed, or the cache was empty). */
  installed: boolean;
  seconds: number;
};

/**
 * The cached install of oldest-medusa/, made by `npm install` when the cache has none for this lock.
 * Installs for older locks are removed once the new one is in place.
 */
export function oldestMedusaInstall(): OldestInstall {
  const started = Date.now();
  const lock = readFileSync(path.join(spec, "package-lock.json"));
  const key = createHash("sha256")
    .update(readFileSync(path.join(spec, "package.json")))
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
    copyFileSync(path.join(spec, file), path.join(partial, file));
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
    if (entry.startsWith(PREFIX) && entry !== PREFIX + key && !entry.includes(".partial-")) {
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
