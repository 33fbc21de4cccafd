// Drives the Medusa CLI of the demo app: migrations, the seed and the store server. Each is
// its own process, the way a merchant runs them, with the demo's settings in its environment.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { runChild, startChild } from "./child-process.mjs";
import { demoRoot } from "./paths.mjs";

const medusaCli = createRequire(import.meta.url).resolve("@medusajs/cli/cli.js");

/**
 * @typedef {object} MedusaRun
 * @property {NodeJS.ProcessEnv} env Environment for every Medusa command.
 * @property {string} logDir
 * @property {(child: import("./child-process.mjs").Child) => void} track
 */

/**
 * Runs `medusa db:migrate` (also syncs module links).
 * @param {MedusaRun} run
 */
export function migrate(run) {
  return runChild(medusaCommand(run, "migrate", ["db:migrate"]), run.track);
}

/**
 * Runs the idempotent seed and returns what it wrote for the demo.
 * @param {MedusaRun} run
 * @param {string} outputFile
 * @returns {Promise<import("./index.mjs").SeedResult>}
 */
export async function seed(run, outputFile) {
  const options = medusaCommand(run, "seed", ["exec", "./src/scripts/seed.ts"]);
  options.env = { ...options.env, PIX_DEMO_SEED_OUTPUT: outputFile };
  await runChild(options, run.track);
  return JSON.parse(await readFile(outputFile, "utf8"));
}

/**
 * Runs one pass of the plugin's reminders at `at` (src/scripts/remind.ts) and returns its
 * report; the messages it sends go to the demo's mailbox. Each pass adds to `remind.log`: a
 * clock step never erases what an earlier one wrote.
 * @param {MedusaRun} run
 * @param {Date} at
 * @param {string} outputFile
 * @returns {Promise<{ due: number, sent: number, skipped: number, deferred: number, errors: number }>}
 */
export async function remindAt(run, at, outputFile) {
  const options = medusaCommand(run, "remind", ["exec", "./src/scripts/remind.ts"]);
  options.appendLog = true;
  options.env = {
    ...options.env,
    PIX_DEMO_REMIND_AT: at.toISOString(),
    PIX_DEMO_REMIND_OUTPUT: outputFile,
  };
  await runChild(options, run.track);
  return JSON.parse(await readFile(outputFile, "utf8"));
}

/**
 * Starts `medusa start` (admin served in development mode, so no admin build is needed)
 * and resolves once /health answers.
 * @param {MedusaRun} run
 * @param {{ host: string, port: number }} address
 */
export async function startStore(run, address) {
  const child = await startChild(
    medusaCommand(run, "store", ["start", "--host", address.host, "--port", String(address.port)]),
  );
  try {
    await waitForHealth(`http://${address.host}:${address.port}/health`, child);
  } catch (error) {
    await child.stop();
    throw error;
  }
  return child;
}

/**
 * @param {MedusaRun} run
 * @param {string} name
 * @param {string[]} args
 * @returns {import("./child-process.mjs").ChildOptions}
 */
function medusaCommand(run, name, args) {
  return {
    name: `medusa ${args[0]}`,
    command: process.execPath,
    args: [medusaCli, ...args],
    cwd: demoRoot,
    env: run.env,
    logFile: `${run.logDir}/${name}.log`,
  };
}

/**
 * Polls the health route until it answers 200, or fails as soon as the server exits.
 * @param {string} url
 * @param {import("./child-process.mjs").Child} child
 * @param {number} [timeoutMs]
 */
async function waitForHealth(url, child, timeoutMs = 120_000) {
  /** @type {{ code: number | null } | null} */
  let exited = null;
  void child.exited.then((result) => (exited = result));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ended = /** @type {{ code: number | null } | null} */ (exited);
    if (ended) {
      throw new Error(
        `The store exited during start-up (exit code ${ended.code}):\n${await child.logTail()}`,
      );
    }
    const healthy = await fetch(url, { signal: AbortSignal.timeout(2_000) })
      .then((response) => response.ok)
      .catch(() => false);
    if (healthy) return;
    // Readiness has no event to await across processes; a short poll is the honest option.
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`The store did not answer ${url} within ${timeoutMs / 1000} s.`);
}
