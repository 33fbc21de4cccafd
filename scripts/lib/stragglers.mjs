// Processes a test step left running when it ended: a browser whose runner failed before it
// closed it (Firefox ESR, seen after a WebKit crash), a store a killed bench started. Each lives
// in a process group or session of its own (puppeteer, the demo's children), so ending the
// step's group misses them, and once their parent is gone nothing links them to the step. What
// they keep is their environment: every step runs with a marker of its own in it, and whatever
// still carries that marker after the step has ended is ended too.
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";

/** The environment variable that marks a step's processes. */
export const STEP_MARKER = "PIX_TEST_STEP";

/** A marker for one step: unique, so that two runs on one machine never end each other's. */
export const newStepMarker = () => randomUUID();

/**
 * Ends (SIGKILL) every process of this user whose environment carries `marker`, and answers
 * their names. Linux only (it reads /proc); elsewhere it ends nothing. A process that ends on
 * its own meanwhile, or that is not this user's to read, is passed over.
 * @param {string} marker
 * @returns {string[]}
 */
export function endStragglers(marker) {
  let pids;
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const wanted = `${STEP_MARKER}=${marker}`;
  const ended = [];
  for (const pid of pids) {
    if (Number(pid) === process.pid) continue;
    try {
      const environment = readFileSync(`/proc/${pid}/environ`, "latin1").split("\0");
      if (!environment.includes(wanted)) continue;
      const name = readFileSync(`/proc/${pid}/comm`, "utf8").trim();
      process.kill(Number(pid), "SIGKILL");
      ended.push(name);
    } catch {
      // Gone already, or not ours.
    }
  }
  return ended;
}
