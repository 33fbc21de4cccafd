// Boots the demo store for one suite on ports nobody else is using, so a developer's running
// demo (9000 / 5173 / 4010) is left alone, with a database of its own.
import { createServer } from "node:net";
import pg from "pg";
import { startDemo } from "@pix-checkout/demo";

/** The PostgreSQL server suites make their own databases on (DB_HOST, DB_PORT). */
export const postgresServer = `postgres://postgres@${process.env.DB_HOST ?? "localhost"}:${process.env.DB_PORT ?? 5432}`;

/**
 * Drops a suite's own database on `postgresServer`, ending its connections first.
 * @param {string} name
 */
export async function dropDatabase(name) {
  const client = new pg.Client({ connectionString: `${postgresServer}/postgres` });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/** A port the OS says is free right now on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/**
 * The database the suite uses: `DATABASE_URL`'s server with `name` as the database (so the
 * developer's own database is never touched), else the demo's own discovery with `name`.
 * @param {string} name
 */
function databaseOptions(name) {
  const configured = process.env.DATABASE_URL;
  if (!configured) return { databaseName: name };
  const url = new URL(configured);
  url.pathname = `/${name}`;
  return { databaseUrl: url.toString() };
}

/**
 * Starts the whole demo (store, sandbox in memory, storefront) on free ports.
 * @param {{ databaseName: string, log?: (line: string) => void, extraStoreOrigins?: string[], buyerDocument?: "boleto" | "every_order" }} options
 * @returns {Promise<import("@pix-checkout/demo").Demo>}
 */
export async function startE2eDemo(options) {
  // The store's `buyerDocument` option (apps/demo/medusa-config.ts reads it at boot).
  if (options.buyerDocument) process.env.PIX_CHECKOUT_BUYER_DOCUMENT = options.buyerDocument;
  const [store, storefront, sandbox, embeddedPostgres, mailSmtp, mailWeb] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  return startDemo({
    ports: { store, storefront, sandbox, embeddedPostgres, mailSmtp, mailWeb },
    // A mailbox of the suite's own, apart from a developer's demo.
    mailDirectory: `mail-${options.databaseName}`,
    ...databaseOptions(options.databaseName),
    sandboxStatePath: null,
    ...(options.extraStoreOrigins ? { extraStoreOrigins: options.extraStoreOrigins } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
}
