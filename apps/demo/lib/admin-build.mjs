// The demo's admin, served built instead of compiled at its first visit. Medusa's admin loader
// compiles the admin with Vite's development server when NODE_ENV is exactly "development" (the
// first visit waits about 25 s for it), and otherwise serves a build from `<app>/public/admin`.
// A demo builds its admin in the background once, keyed by everything the build bakes in,
// and every later start with the same key serves that build at once.
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
} from "node:fs";
import { createRequire } from "node:module";
import { setPriority } from "node:os";
import { dirname, join } from "node:path";
import { runChild } from "./child-process.mjs";
import { demoRoot } from "./paths.mjs";
import { takeProcessLock } from "./process-lock.mjs";

const require = createRequire(import.meta.url);

/** Where the builds live, one folder per key (apps/demo/.medusa is gitignored). */
export const adminBuildsDir = join(demoRoot, ".medusa", "demo-admin");

/** The folder Medusa serves a built admin from: `<app root>/public/admin`, a link to a build. */
export const servedAdminPath = join(demoRoot, "public", "admin");

/** Builds kept beside the one being made: a port moved back, or the plugin built again. */
const KEPT_BUILDS = 2;

/**
 * How the store serves its admin this start.
 * - `built`: from the build of this key, linked at `public/admin` (the demo holds the link).
 * - `compiled`: Vite's development server compiles it at the first visit; `build` (when set)
 *   makes this key's build in the background, for the next start.
 * @typedef {{ serving: "built", key: string, release: () => void }
 *   | { serving: "compiled", key: string, why: string, build: AdminBuild | null }} AdminPlan
 * @typedef {(env: NodeJS.ProcessEnv, logDir: string, track: (child: import("./child-process.mjs").Child) => void) => Promise<AdminBuildResult>} AdminBuild
 * @typedef {{ built: true, ms: number } | { built: false, why: string }} AdminBuildResult
 */

/**
 * The key of an admin build: everything Vite bakes into it. The store's origin (the admin's
 * backend and the "Copy payment link" base, both from MEDUSA_BACKEND_URL), the demo's config
 * and admin language plugin, the plugin's admin extensions as built, and Medusa's admin packages
 * (its Vite plugin is released with the bundler, under the same version).
 * @param {string} storeOrigin
 * @returns {string}
 */
export function adminBuildKey(storeOrigin) {
  const hash = createHash("sha256");
  hash.update(`origin ${storeOrigin}\n`);
  for (const name of ["dashboard", "admin-bundler"]) {
    hash.update(`${name} ${packageVersion(`@medusajs/${name}`)}\n`);
  }
  const pluginRoot = dirname(require.resolve("@pix-checkout/medusa/package.json"));
  for (const file of [
    join(demoRoot, "medusa-config.ts"),
    ...filesUnder(join(demoRoot, "src", "admin-language")),
    ...filesUnder(join(pluginRoot, ".medusa", "server", "src", "admin")),
  ]) {
    hash.update(`${file}\n`);
    hash.update(readFileSync(file));
  }
  return hash.digest("hex").slice(0, 16);
}

/**
 * Decides how this start serves the admin. The link at `public/admin` is one per checkout, so
 * one demo at a time holds it (a lock that lapses with its process); another demo beside it
 * compiles its admin, as every demo did before.
 * @param {{ storeOrigin: string, buildsDir?: string, servedPath?: string }} where
 * @returns {AdminPlan}
 */
export function planAdmin({
  storeOrigin,
  buildsDir = adminBuildsDir,
  servedPath = servedAdminPath,
}) {
  const key = adminBuildKey(storeOrigin);
  const folder = join(buildsDir, key);
  const build = buildInBackground(folder, buildsDir, servedPath);
  if (!existsSync(join(folder, "index.html"))) {
    return {
      serving: "compiled",
      key,
      why: "the first start with these settings: it is built in the background for the next",
      build,
    };
  }
  mkdirSync(buildsDir, { recursive: true });
  const release = takeProcessLock(join(buildsDir, "serving.lock"));
  if (!release) {
    return {
      serving: "compiled",
      key,
      why: "another demo from this checkout serves its own build",
      build: null,
    };
  }
  try {
    pointAt(servedPath, folder);
  } catch (error) {
    release();
    return {
      serving: "compiled",
      key,
      why: `${servedPath} could not be linked to the build (${/** @type {Error} */ (error).message})`,
      build: null,
    };
  }
  return { serving: "built", key, release };
}

/**
 * Makes `link` point at `target` in one step (a new link renamed over the old one), so a
 * store starting at that moment reads the old build or the new one, never none.
 * @param {string} link
 * @param {string} target
 */
function pointAt(link, target) {
  mkdirSync(dirname(link), { recursive: true });
  const pending = `${link}.${process.pid}`;
  rmSync(pending, { force: true });
  symlinkSync(target, pending, "dir");
  try {
    renameSync(pending, link);
  } catch (error) {
    rmSync(pending, { force: true });
    throw error;
  }
}

/**
 * Builds this key's admin into a folder of its own, then renames it into place whole: a start
 * never sees half a build. Runs at low priority after the demo is ready, so the shopper's
 * first pages are not slowed; its output goes to `admin-build.log`.
 * @param {string} folder
 * @param {string} buildsDir
 * @param {string} servedPath
 * @returns {AdminBuild}
 */
function buildInBackground(folder, buildsDir, servedPath) {
  // `env`: the store's own environment, so the build reads the same config; `track`: the demo's
  // stop ends a build still running.
  return async (env, logDir, track) => {
    const began = performance.now();
    const pending = `${folder}.building-${process.pid}`;
    rmSync(pending, { recursive: true, force: true });
    mkdirSync(buildsDir, { recursive: true });
    try {
      await runChild(
        {
          name: "admin build",
          command: process.execPath,
          args: [join(demoRoot, "lib", "admin-build-child.mjs"), pending],
          cwd: demoRoot,
          env: { ...env, NODE_ENV: "production" },
          logFile: join(logDir, "admin-build.log"),
        },
        (child) => {
          track(child);
          try {
            setPriority(child.pid, 15);
          } catch {
            // Not allowed here: the build runs at the usual priority.
          }
        },
      );
      if (!existsSync(join(pending, "index.html"))) {
        return {
          built: false,
          why: `the build wrote no index.html (see ${logDir}/admin-build.log)`,
        };
      }
      // Another demo may have made the same build meanwhile: the first one stays.
      if (existsSync(folder)) rmSync(pending, { recursive: true, force: true });
      else renameSync(pending, folder);
      pruneBuilds(buildsDir, [folder, servedTarget(servedPath)]);
      return { built: true, ms: Math.round(performance.now() - began) };
    } catch (error) {
      rmSync(pending, { recursive: true, force: true });
      return { built: false, why: /** @type {Error} */ (error).message.split("\n")[0] };
    }
  };
}

/**
 * Removes all but the newest builds, never one in `keep` (the new one, and the one the served
 * link points at: a demo may be serving it now).
 * @param {string} buildsDir
 * @param {Array<string | undefined>} keep
 */
function pruneBuilds(buildsDir, keep) {
  const builds = readdirSync(buildsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.includes(".building-"))
    .map((entry) => join(buildsDir, entry.name))
    .filter((path) => !keep.includes(path))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  for (const old of builds.slice(KEPT_BUILDS - 1)) {
    rmSync(old, { recursive: true, force: true });
  }
}

/**
 * The build the served link points at, if any.
 * @param {string} servedPath
 */
function servedTarget(servedPath) {
  try {
    return readlinkSync(servedPath);
  } catch {
    return undefined;
  }
}

/** @param {string} name */
function packageVersion(name) {
  try {
    return JSON.parse(readFileSync(require.resolve(`${name}/package.json`), "utf8")).version;
  } catch {
    return "unknown";
  }
}

/**
 * Every file under `dir`, sorted, so the key does not depend on the order the disk lists them.
 * @param {string} dir
 * @returns {string[]}
 */
function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}
