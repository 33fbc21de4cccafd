// The infrastructure `npm run chaos` owns, so it can break it without touching anything else on
// the machine: a PostgreSQL cluster and a Redis on ports of their own, and a "black hole" in
// front of the payment service that can make every call time out.
import { spawn, spawnSync } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, chownSync, rmSync } from "node:fs";
import { once } from "node:events";
import { connect, createServer } from "node:net";
import { join } from "node:path";

/** A port the OS says is free right now on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The machine's PostgreSQL binaries (Debian keeps them under /usr/lib/postgresql/<v>/bin). */
function pgBin(name) {
  const found = spawnSync(
    "sh",
    ["-c", `ls -d /usr/lib/postgresql/*/bin/${name} | sort -V | tail -1`],
    {
      encoding: "utf8",
    },
  ).stdout.trim();
  if (!found) throw new Error(`${name} not found: install PostgreSQL (Debian: postgresql)`);
  return found;
}

/** Runs a PostgreSQL binary as the `postgres` user when we are root (Postgres refuses root). */
function asPostgres(bin, args, options = {}) {
  const root = process.getuid?.() === 0;
  const [command, argv] = root ? ["runuser", ["-u", "postgres", "--", bin, ...args]] : [bin, args];
  const result = spawnSync(command, argv, { encoding: "utf8", ...options });
  if (result.status !== 0) {
    throw new Error(`${bin} ${args.join(" ")} failed: ${result.stderr || result.stdout}`);
  }
  return result.stdout;
}

/**
 * A PostgreSQL cluster in `dir` on `port` (trust auth, user postgres, loopback only).
 * `restart()` is a fast shutdown and start: every connection is dropped, LISTEN included.
 */
export async function startPostgres(dir, port, logFile) {
  mkdirSync(dir, { recursive: true });
  if (process.getuid?.() === 0) {
    const { uid, gid } = userIds("postgres");
    chownSync(dir, uid, gid);
    // The log lives beside the run's other logs, which root owns.
    spawnSync("touch", [logFile]);
    chownSync(logFile, uid, gid);
  }
  if (!existsSync(join(dir, "PG_VERSION"))) {
    asPostgres(pgBin("initdb"), ["-D", dir, "-U", "postgres", "--auth=trust", "-E", "UTF8"]);
  }
  const ctl = (...args) => asPostgres(pgBin("pg_ctl"), ["-D", dir, ...args]);
  const options = `-p ${port} -c listen_addresses=localhost -c unix_socket_directories=${dir} -c max_connections=300 -c fsync=off`;
  ctl("-l", logFile, "-o", options, "-w", "start");
  return {
    url: `postgres://postgres@localhost:${port}`,
    restart: () =>
      asPostgresAsync(pgBin("pg_ctl"), [
        "-D",
        dir,
        "-l",
        logFile,
        "-o",
        options,
        "-m",
        "fast",
        "-w",
        "restart",
      ]),
    stop: () => {
      try {
        ctl("-m", "immediate", "-w", "stop");
      } catch {
        // already stopped
      }
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The same, without blocking the event loop (the run's balancer lives in this process). */
function asPostgresAsync(bin, args) {
  const root = process.getuid?.() === 0;
  const [command, argv] = root ? ["runuser", ["-u", "postgres", "--", bin, ...args]] : [bin, args];
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.once("exit", (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${bin} ${args.join(" ")}: ${output}`)),
    );
  });
}

function userIds(name) {
  const out = spawnSync("id", ["-u", name], { encoding: "utf8" }).stdout.trim();
  const group = spawnSync("id", ["-g", name], { encoding: "utf8" }).stdout.trim();
  return { uid: Number(out), gid: Number(group) };
}

/**
 * A Redis without persistence on `port`. `restart()` kills it (SIGKILL) and starts an empty
 * one: events, jobs and locks in flight are gone, as when a Redis host dies.
 */
export async function startRedis(port, logFile) {
  let child;
  const out = createWriteStream(logFile, { flags: "a" });
  const start = async () => {
    child = spawn(
      "redis-server",
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    for (let i = 0; i < 100; i += 1) {
      if (await canConnect(port)) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`redis-server did not listen on ${port}`);
  };
  const kill = async () => {
    if (!child || child.exitCode !== null) return;
    const exited = once(child, "exit");
    child.kill("SIGKILL");
    await exited;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    restart: async () => {
      await kill();
      await start();
    },
    stop: kill,
  };
}

function canConnect(port) {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * A TCP relay to `target` that can turn into a black hole: while `down`, it accepts
 * connections and never answers (every call of the store times out). Back `up`, new
 * connections relay again.
 */
export async function startBlackHole(target) {
  let down = false;
  const held = new Set();
  const server = createServer((socket) => {
    if (down) {
      held.add(socket);
      socket.on("error", () => undefined);
      socket.once("close", () => held.delete(socket));
      return;
    }
    const upstream = connect(target, "127.0.0.1");
    const pair = [socket, upstream];
    for (const s of pair) {
      s.on("error", () => pair.forEach((x) => x.destroy()));
      s.once("close", () => pair.forEach((x) => x.destroy()));
      held.add(s);
      s.once("close", () => held.delete(s));
    }
    socket.pipe(upstream);
    upstream.pipe(socket);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: server.address().port,
    /** Calls in flight are cut; every call from now on hangs until `up()`. */
    down: () => {
      down = true;
      for (const s of [...held]) s.destroy();
    },
    /** New connections relay again; the hanging ones are dropped (their callers time out). */
    up: () => {
      down = false;
      for (const s of [...held]) s.destroy();
    },
    close: () =>
      new Promise((resolve) => {
        for (const s of [...held]) s.destroy();
        server.close(() => resolve());
      }),
  };
}
