// A lock a running demo holds while it lives: a file with its process id, taken by creating
// it whole, and taken over when the process that wrote it is gone (killed, crashed). Run
// folders (lib/run-folder.mjs) and the built admin (lib/admin-build.mjs) are held this way.
import { linkSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";

/**
 * Takes the lock at `lock` for this process; undefined when a live process holds it. The
 * returned function gives it back (safe to call twice; never removes another process's lock).
 * @param {string} lock
 * @returns {(() => void) | undefined}
 */
export function takeProcessLock(lock) {
  if (!tryLock(lock)) return undefined;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (readPid(lock) === process.pid) rmSync(lock, { force: true });
  };
}

/**
 * Creates the lock with this process's id; false when a live process holds it.
 * @param {string} lock
 * @returns {boolean}
 */
function tryLock(lock) {
  for (let attempt = 0; attempt < 2; attempt++) {
    // The id is written first and the lock appears whole with it: a link fails when the
    // name exists, so of two demos starting at once only one gets it.
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
