#!/usr/bin/env node
// Makes a fresh machine able to run the suites: a system Chromium for the browser tests
// (no test tool may download its own) and a reachable PostgreSQL for Medusa's runner.
import { execSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import net from "node:net";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

function ensureChromium() {
  if (existsSync(CHROMIUM)) return console.log(`chromium: ${CHROMIUM}`);
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (!isRoot) {
    console.error(
      `chromium: not found at ${CHROMIUM}. Install it (Debian: sudo apt-get install -y chromium) ` +
        `or set CHROMIUM_PATH to a Chromium binary.`,
    );
    process.exit(1);
  }
  console.log("chromium: installing from the Debian archive");
  execSync("apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium", {
    stdio: "inherit",
  });
}

function canConnect(host, port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 1500 });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => (socket.destroy(), resolve(false)));
  });
}

async function ensurePostgres() {
  const host = process.env.DB_HOST ?? "localhost";
  const port = Number(process.env.DB_PORT ?? 5432);
  if (await canConnect(host, port)) return console.log(`postgres: ${host}:${port}`);
  // A machine with a stopped cluster (Debian's pg_ctlcluster) gets it started; otherwise say what to do.
  const started = spawnSync("sh", [
    "-c",
    "command -v pg_ctlcluster >/dev/null && pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql | head -1) main start",
  ]);
  if (started.status === 0 && (await canConnect(host, port))) {
    return console.log(`postgres: started ${host}:${port}`);
  }
  console.error(
    `postgres: nothing answers at ${host}:${port}. Start a PostgreSQL there (trust auth, user postgres) ` +
      `or set DB_HOST/DB_PORT.`,
  );
  process.exit(1);
}

ensureChromium();
await ensurePostgres();
