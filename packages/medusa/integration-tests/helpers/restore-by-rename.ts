import { createRequire } from "node:module";
import { Client } from "pg";

/*
 * Medusa's test runner gives every test a fresh copy of its file's migrated database: it drops
 * the used one and copies the template again (@medusajs/test-utils, postgres-template.js). On
 * PostgreSQL a DROP DATABASE waits for the server to let go of every file of it, which under two
 * or three stores writing at once took about a second a test, most of the suites' restore time.
 *
 * Here the used database is renamed aside instead (a catalog update, no files touched), the copy
 * is made under the name the app connects to, and the old copies are dropped one after another
 * on a connection of their own, while the next test runs; the last ones when the file drops its
 * template. The test sees what it saw before: a database equal to the template, under the same
 * name, with nobody connected to it.
 *
 * The runner's version is pinned (packages/medusa/package.json); if its restore ever moves, this
 * throws at load rather than silently restoring the slow way.
 */

type Templates = {
  restorePostgresDatabaseFromTemplate: (names: {
    databaseName: string;
    templateName: string;
  }) => Promise<void>;
  dropPostgresDatabaseTemplate: (templateName: string) => Promise<void>;
};

const PATCHED = Symbol.for("pix-checkout.restore-by-rename");
const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Where the restores connect: the server as it was when the runner loaded, as the runner's own
 * restore reads it (a suite may point DB_PORT at a proxy it cuts later; the restores must not go
 * through it).
 */
let server: { host: string; user: string; password?: string; port: number; database: string };

/** A connection to the server's maintenance database; a failure of it never goes uncaught. */
function connection(): Client {
  const client = new Client(server);
  client.on("error", () => undefined);
  return client;
}

/** One connection for the restores, made on first use. */
let restoring: Promise<Client> | null = null;
function restoreClient(): Promise<Client> {
  restoring ??= (async () => {
    const client = connection();
    client.on("error", () => (restoring = null));
    client.on("end", () => (restoring = null));
    await client.connect();
    return client;
  })().catch((error: unknown) => {
    restoring = null;
    throw error;
  });
  return restoring;
}

/** The used copies waiting to be dropped, and the chain that drops them one at a time. */
let dropping: Promise<void> = Promise.resolve();
function dropLater(name: string): void {
  dropping = dropping.then(async () => {
    const client = connection();
    try {
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${quote(name)} WITH (FORCE)`);
    } catch {
      // A copy left behind costs disk, not a test: the file's template drop retries it.
      leftBehind.add(name);
    } finally {
      await client.end().catch(() => undefined);
    }
  });
}
const leftBehind = new Set<string>();

let asideCount = 0;

async function terminate(client: Client, databaseName: string): Promise<void> {
  await client.query(
    `select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`,
    [databaseName],
  );
}

async function restoreByRename({
  databaseName,
  templateName,
}: {
  databaseName: string;
  templateName: string;
}): Promise<void> {
  const client = await restoreClient();
  const exists = await client.query(`select 1 from pg_database where datname = $1`, [databaseName]);
  if (exists.rowCount) {
    await client.query(`alter database ${quote(databaseName)} with allow_connections false`);
    const aside = `${databaseName}-used-${process.pid}-${++asideCount}`;
    // A backend terminated a moment ago may still be leaving: the rename waits for it.
    for (let attempt = 0; ; attempt++) {
      await terminate(client, databaseName);
      try {
        await client.query(`alter database ${quote(databaseName)} rename to ${quote(aside)}`);
        break;
      } catch (error) {
        if (attempt >= 20 || !/being accessed by other users/.test(String(error))) throw error;
        await new Promise((resolve) => setTimeout(resolve, 25 * (attempt + 1)));
      }
    }
    dropLater(aside);
  }
  await terminate(client, templateName);
  await client.query(`create database ${quote(databaseName)} with template ${quote(templateName)}`);
}

/** Replaces the runner's restore with restoreByRename, once per process. */
export function restoreTestDatabasesByRename(): void {
  const registry = globalThis as { [PATCHED]?: boolean };
  if (registry[PATCHED]) return;
  server = {
    host: process.env.DB_HOST ?? "localhost",
    user: process.env.DB_USERNAME ?? "postgres",
    ...(process.env.DB_PASSWORD ? { password: process.env.DB_PASSWORD } : {}),
    port: Number(process.env.DB_PORT ?? 5432),
    database: process.env.DB_WAITINGROOM_DATABASE ?? "postgres",
  };
  const require = createRequire(__filename);
  const templates =
    require("@medusajs/test-utils/dist/medusa-test-runner-utils/postgres-template") as Templates;
  if (
    typeof templates.restorePostgresDatabaseFromTemplate !== "function" ||
    typeof templates.dropPostgresDatabaseTemplate !== "function"
  ) {
    throw new Error(
      "@medusajs/test-utils no longer exports its database restore where restore-by-rename.ts expects it; update the helper for the new version.",
    );
  }
  const dropTemplate = templates.dropPostgresDatabaseTemplate;
  templates.restorePostgresDatabaseFromTemplate = restoreByRename;
  templates.dropPostgresDatabaseTemplate = async (templateName) => {
    await dropping;
    for (const name of leftBehind) dropLater(name);
    leftBehind.clear();
    await dropping;
    const client = await restoring?.catch(() => null);
    restoring = null;
    await client?.end().catch(() => undefined);
    await dropTemplate(templateName);
  };
  registry[PATCHED] = true;
}
