// Each running demo keeps its data (mail, seed output, logs, sandbox state, embedded database)
// in a folder no other running demo uses, so two demos from one checkout never read or prune
// each other's files. The first demo uses the data folder itself, as a single demo always has,
// so its mail and database carry over; a second one running beside it uses `demo-2/`, and so on.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { takeProcessLock } from "./process-lock.mjs";

/** How many demos may run from one data folder at once. */
const MOST_RUNS = 20;

/** The lock file that marks a run folder as in use (lib/process-lock.mjs). */
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
    const release = takeProcessLock(join(dir, LOCK));
    if (!release) continue;
    return { number, dir, release };
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
