// Installs the packaging test needs besides the repository's own, each described by a folder
// here with a package.json and its lock: oldest-medusa/ (the oldest Medusa the plugin
// supports, as Medusa's dtc-starter pins it), next-medusa/ (the newest build of the next Medusa
// minor the registry serves), node-22/ (a Node.js binary, from the npm registry's
// `node` package). scripts/cached-install.mjs installs each once per lock into a cache outside
// the repository. Each run gets its own copy of a Medusa node_modules, made of hard links, so
// extracting the tarballs into it leaves the cache as npm wrote it.
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { cachedInstall as cachedInstallOf, cachedNode } from "../../scripts/cached-install.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));

/** An install this module knows: the folder beside it with the package.json and the lock. */
export type InstallSpec = "oldest-medusa" | "next-medusa";

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

export type CachedInstall = {
  /** The cached node_modules: never write into it; {@link copyNodeModules} first. */
  nodeModules: string;
  /** Whether this run had to run `npm install` (the lock changed, or the cache was empty). */
  installed: boolean;
  seconds: number;
};

/** The cached install of `spec` (scripts/cached-install.mjs), made when the cache has none. */
export function cachedInstall(spec: InstallSpec): CachedInstall {
  return cachedInstallOf(path.join(here, spec), spec) as CachedInstall;
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

/** A Node.js binary the packaging test runs stores with, as a store on that major does. */
export type NodeRuntime = { binary: string; version: string };

/** Node.js 24 (scripts/node-24/, what `npm test` runs on), supported to 2028-04-30. */
export const node24 = (): NodeRuntime =>
  cachedNode(path.join(here, "..", "..", "scripts", "node-24"), 24);

/** Node.js 22 (node-22/), supported to 2027-04-30. */
export const node22 = (): NodeRuntime => cachedNode(path.join(here, "node-22"), 22);
