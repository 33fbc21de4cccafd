// Runs the demo's helper processes (Medusa, the embedded Postgres) so that they can always
// be stopped: each gets its own process group, its output goes to a log file, and stopping
// escalates from SIGTERM to SIGKILL.
import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { once } from "node:events";

/**
 * @typedef {object} ChildOptions
 * @property {string} name Shown in errors, e.g. "store".
 * @property {string} command
 * @property {string[]} args
 * @property {string} cwd
 * @property {NodeJS.ProcessEnv} env
 * @property {string} logFile Where stdout and stderr go (replaced on each start, unless `appendLog`).
 * @property {boolean} [appendLog] Adds to the log instead of replacing it (a command run many times).
 * @property {(line: string) => void} [onLine] Called with each output line, e.g. to echo it.
 */

/**
 * @typedef {object} Child
 * @property {string} name
 * @property {number} pid
 * @property {Promise<{ code: number | null, signal: NodeJS.Signals | null }>} exited
 * @property {(timeoutMs?: number) => Promise<void>} stop Ends the whole process group.
 * @property {() => void} kill Ends the whole process group at once (SIGKILL), synchronously.
 * @property {() => Promise<string>} logTail The last lines of its log, for error messages.
 */

/** Process groups still running, killed if this process exits without stopping them. */
const liveGroups = new Set();
let exitGuardInstalled = false;

/**
 * Children live in their own process groups, so nothing kills them when this process dies.
 * If it exits without an orderly stop (an uncaught error, or a library calling
 * process.exit), this last-moment hook still takes them down.
 */
function installExitGuard() {
  if (exitGuardInstalled) return;
  exitGuardInstalled = true;
  process.on("exit", () => {
    for (const pid of liveGroups) {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
  });
}

/**
 * Starts a long-running child in its own process group, so that stop() also ends whatever
 * it started itself (npm, node, postgres workers) and a Ctrl-C in the terminal reaches only
 * the orchestrator, which then stops the children in order.
 * @param {ChildOptions} options
 * @returns {Promise<Child>}
 */
export async function startChild(options) {
  await mkdir(dirname(options.logFile), { recursive: true });
  const log = createWriteStream(options.logFile, { flags: options.appendLog ? "a" : "w" });
  await once(log, "open");
  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const spawned = await Promise.race([
    once(child, "spawn").then(() => null),
    once(child, "error").then(([error]) => error),
  ]);
  if (spawned) {
    log.end();
    throw new Error(`Could not start ${options.name}: ${spawned.message}`);
  }

  // A spawned child always has a pid (a failed spawn was rejected above).
  const pid = /** @type {number} */ (child.pid);

  let pending = "";
  /** @param {Buffer} chunk */
  const forward = (chunk) => {
    log.write(chunk);
    if (!options.onLine) return;
    pending += chunk.toString("utf8");
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) options.onLine(line);
  };
  child.stdout.on("data", forward);
  child.stderr.on("data", forward);

  /** @param {NodeJS.Signals} signal */
  const signalGroup = (signal) => {
    try {
      process.kill(-pid, signal);
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== "ESRCH") throw error;
    }
  };

  installExitGuard();
  liveGroups.add(pid);
  let hasExited = false;
  const exited = new Promise((resolve) => {
    child.once("exit", (code, signal) => {
      hasExited = true;
      // What the leader left in its group (a server it started, its workers) goes with it, in
      // the same tick the leader was reaped: while one of them lives, the group's id stays
      // taken, and once none does, the id is never signalled again. Later, the system may hand
      // the same number to an unrelated process that leads a group of its own.
      signalGroup("SIGKILL");
      liveGroups.delete(pid);
      log.end(() => resolve({ code, signal }));
    });
  });

  return {
    name: options.name,
    pid,
    exited,
    async stop(timeoutMs = 10_000) {
      // The leader is gone, and its group with it (the exit handler above): nothing to signal.
      if (hasExited) return;
      signalGroup("SIGTERM");
      let timer;
      const timedOut = new Promise((resolve) => {
        timer = setTimeout(() => resolve(true), timeoutMs);
      });
      const late = await Promise.race([exited.then(() => false), timedOut]);
      clearTimeout(timer);
      // A leader that ignored SIGTERM is killed with its group; one that exited took its group
      // with it.
      if (late) {
        signalGroup("SIGKILL");
        await exited;
      }
    },
    kill: () => {
      if (!hasExited) signalGroup("SIGKILL");
    },
    logTail: () => tailOf(options.logFile),
  };
}

/**
 * Runs a child to completion (a migration, a seed) and throws with the end of its log when
 * it fails, so the person running the demo sees why.
 * @param {ChildOptions} options
 * @param {(child: Child) => void} [track] Told about the child while it runs, so that a
 *   demo stopped during start-up can stop it too.
 * @returns {Promise<void>}
 */
export async function runChild(options, track) {
  const child = await startChild(options);
  track?.(child);
  const { code, signal } = await child.exited;
  if (code !== 0) {
    const tail = await child.logTail();
    throw new Error(
      `${options.name} failed (${signal ?? `exit code ${code}`}); full log: ${options.logFile}\n${tail}`,
    );
  }
}

/**
 * @param {string} file
 * @param {number} [lines]
 */
async function tailOf(file, lines = 25) {
  const text = await readFile(file, "utf8").catch(() => "");
  return text.trimEnd().split("\n").slice(-lines).join("\n");
}
