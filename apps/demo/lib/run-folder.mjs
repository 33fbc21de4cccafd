// Each running demo keeps its data (mail, seed output, logs, sandbox state, embedded database)
// in a folder no other running demo uses, so two demos from one checkout never read or prune
// each other's files. The first demo uses the data folder itself, as a single demo always has,
// so its mail and database carry over; a second one running beside it uses `demo-2/`, and so on.
import { linkSync, mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** How many demos may run from one data folder at once. */
const MOST_RUNS = 20;

/** The lock file that marks a run folder as in use, holding the demo's process id. */
const LOCK = "demo.lock";

/**
 * @typedef {object} RunFolder
 * @property {number} number 1 for the data folder itself, 2 for `demo-2/`, ….
 * @property {string} dir Where this run keeps its data.
 * @property {() => void} release Frees the folder for the next demo; safe to call twice.
 */

/**
 * Claims the first run folder under `baseDir` that no live demo holds. A lock left by a demo
 * that was killed (its process is gone) is taken over.
 * @param {string} baseDir
 * @returns {RunFolder}
 */
export function claimRunFolder(baseDir) {
  for (let number = 1; number <= MOST_RUNS; number++) {
    const dir = number === 1 ? baseDir : join(baseDir, `demo-${number}`);
    mkdirSync(dir, { recursive: true });
    const lock = join(dir, LOCK);
    if (!tryLock(lock)) continue;
    let released = false;
    return {
      number,
      dir,
      release: () => {
        if (released) return;
        released = true;
        if (readPid(lock) === process.pid) rmSync(lock, { force: true });
      },
    };
  }
  throw new Error(
    `${MOST_RUNS} demos already run from ${baseDir}: stop one, or pass another --data-dir.`,
  );
}

/**
 * The database name run `number` uses: the name itself for the first, `<name>_<number>` for
 * the others, so two demos never migrate, seed and sell in one database.
 * @param {string} name
 * @param {number} number
 */
export function runDatabaseName(name, number) {
  return number === 1 ? name : `${name}_${number}`;
}

/**
 * Creates the lock with this process's id; false when a live process holds it.
 * @param {string} lock
 * @returns {boolean}
 */
function tryLock(lock) {
  for (let attempt = 0; attempt < 2; attempt++) {
    // The id is written first and the lock appears whole with it: a link fails when the
    // name exists, so of two demos starting at once only one gets the folder.
    const pending = `${lock}.${process.pid}`;
    writeFileSync(pending, String(process.pid));
    try {
      linkSync(pending, lock);
      return true;
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== "EEXIST") throw error;
    } finally {
      rmSync(pending, { force: true });
    }
    const holder = readPid(lock);
    if (holder !== undefined && isAlive(holder)) return false;
    try {
      unlinkSync(lock);
    } catch {
      // Another demo took the stale lock over first; the next attempt sees its id.
    }
  }
  return false;
}

/**
 * @param {string} lock
 * @returns {number | undefined}
 */
function readPid(lock) {
  try {
    const pid = Number(readFileSync(lock, "utf8").trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** @param {number} pid */
function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return /** @type {NodeJS.ErrnoException} */ (error).code === "EPERM";
  }
}
