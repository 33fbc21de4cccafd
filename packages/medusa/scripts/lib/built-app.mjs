// The mechanics shared by everything that stands a throwaway Medusa app up around the BUILT
// plugin (the benches, the scale tests, the admin screenshots): the app directory, the medusa
// CLI, a database of its own, `medusa start` until /health answers, and stopping it again.
// What each app is made of (medusa-config, seed, topology) stays with its caller.
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** packages/medusa, whose node_modules the throwaway apps resolve Medusa and the plugin from. */
export const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const require = createRequire(path.join(packageDir, "package.json"));
const cli = require.resolve("@medusajs/cli/cli.js");
/** @type {typeof import("@medusajs/framework/mikro-orm/knex")} */
const { knex } = require("@medusajs/framework/mikro-orm/knex");

/**
 * Writes `files` (path relative to `dir` → content), creating their folders.
 * @param {string} dir
 * @param {Record<string, string>} files
 */
export function writeFiles(dir, files) {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
}

/**
 * Recreates `dir` as a Medusa project named `name` holding `files` (medusa-config, seed, …).
 * @param {string} dir
 * @param {string} name
 * @param {Record<string, string>} files
 */
export function writeApp(dir, name, files) {
  rmSync(dir, { recursive: true, force: true });
  writeFiles(dir, {
    // The CLI recognises a Medusa project by this dependency.
    "package.json": JSON.stringify({
      name,
      private: true,
      dependencies: { "@medusajs/medusa": "2.21.2", "@medusajs/framework": "2.21.2" },
    }),
    ...files,
  });
}

/**
 * Runs `medusa <args>` to completion and resolves with its output; a failure rejects with the
 * tail of that output, which is all that says why.
 * @param {string[]} args
 * @param {{ cwd: string, env: NodeJS.ProcessEnv }} options
 * @returns {Promise<string>}
 */
export function medusa(args, { cwd, env }) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("exit", (code) =>
      code === 0
        ? resolve(out)
        : reject(new Error(`medusa ${args[0]} failed:\n${out.slice(-3000)}`)),
    );
  });
}

/**
 * @param {string} pgUrl
 * @param {(admin: import("@medusajs/framework/mikro-orm/knex").Knex) => Promise<unknown>} work
 */
async function onMaintenanceDb(pgUrl, work) {
  const admin = knex({ client: "pg", connection: `${pgUrl}/postgres` });
  try {
    await work(admin);
  } finally {
    await admin.destroy();
  }
}

/**
 * Creates database `name` on the server at `pgUrl`, dropping a leftover of that name first.
 * @param {string} pgUrl
 * @param {string} name
 */
export function createDatabase(pgUrl, name) {
  return onMaintenanceDb(pgUrl, async (admin) => {
    await admin.raw(`drop database if exists ${name}`);
    await admin.raw(`create database ${name}`);
  });
}

/**
 * Drops database `name`, closing the connections still open on it.
 * @param {string} pgUrl
 * @param {string} name
 */
export function dropDatabase(pgUrl, name) {
  return onMaintenanceDb(pgUrl, (admin) =>
    admin.raw(`drop database if exists ${name} with (force)`),
  );
}

/**
 * Starts `medusa start` in `cwd` on `port` and resolves once /health answers. If it exits or is
 * not healthy within 120 s, it is stopped and the start rejects with the tail of its stderr.
 * @param {{ cwd: string, env: NodeJS.ProcessEnv, port: number, label?: string }} options
 * @returns {Promise<{ url: string, child: import("node:child_process").ChildProcess }>}
 */
export async function startMedusa({ cwd, env, port, label = "medusa start" }) {
  const child = spawn(process.execPath, [cli, "start"], {
    cwd,
    env: { ...env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let err = "";
  child.stderr.on("data", (d) => (err = (err + d).slice(-3000)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${label} exited:\n${err}`);
      try {
        if ((await fetch(`${url}/health`)).ok) return { url, child };
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`${label} not healthy in 120 s`);
      await new Promise((r) => setTimeout(r, 250));
    }
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
}

/**
 * Stops `child` with SIGTERM, or SIGKILL if it is still running 10 s later.
 * @param {import("node:child_process").ChildProcess} child
 * @returns {Promise<void>}
 */
export function stopProcess(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const kill = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", () => (clearTimeout(kill), resolve()));
    child.kill("SIGTERM");
  });
}
