// The infrastructure `npm run chaos` owns, so it can break it without touching anything else on
// the machine: a PostgreSQL cluster and a Redis on ports of their own, and a "black hole" in
// front of the payment service that can make every call time out.
import { spawn, spawnSync } from "node:child_process";
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  chownSync,
  rmSync,
  writeFileSync,
} from "node:fs";
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

/**
 * Makes sure a Debian package's binary is on the PATH: present, installed from the Debian
 * archive when we are root, or an error that says what to install. Only the run that needs it
 * calls this (the Sentinel mode needs `redis-sentinel`; `npm test` never does).
 */
export function ensureDebianBinary(binary, pkg) {
  const onPath = () =>
    spawnSync("sh", ["-c", `command -v ${binary}`], { stdio: "ignore" }).status === 0;
  if (onPath()) return;
  if (process.getuid?.() !== 0) {
    throw new Error(`${binary} not found: install it (Debian: sudo apt-get install -y ${pkg})`);
  }
  console.log(`${binary} not found: installing ${pkg} from the Debian archive`);
  const result = spawnSync(
    "sh",
    ["-c", `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${pkg}`],
    { stdio: "inherit" },
  );
  if (result.status !== 0 || !onPath()) throw new Error(`could not install ${pkg}`);
}

/** One command to a Redis or a sentinel on `port`, through `redis-cli`; resolves its output. */
export function redisCli(port, ...args) {
  return new Promise((resolve, reject) => {
    const child = spawn("redis-cli", ["-h", "127.0.0.1", "-p", String(port), "--raw", ...args], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0
        ? resolve(output.trim())
        : reject(new Error(`redis-cli ${args.join(" ")}: ${output}`)),
    );
  });
}

/** The sentinels' name for the primary they watch. */
export const SENTINEL_MASTER = "chaos";
/** How long a primary may not answer before a sentinel calls it down (Redis's default is 30 s). */
export const SENTINEL_DOWN_AFTER_MS = 5_000;

/**
 * Redis behind Sentinel, on loopback ports of its own, in `dir`: a primary, a replica and three
 * sentinels (quorum 2), no persistence. `failover()` kills the current primary (SIGKILL), waits
 * until the sentinels name another one, then starts the dead node again, empty, once the new
 * primary is named (so it cannot be taken for the primary and sync the replica from nothing);
 * the sentinels make it a replica of the new one. It resolves what it measured.
 */
export async function startRedisSentinel(dir, logFile) {
  mkdirSync(dir, { recursive: true });
  const out = createWriteStream(logFile, { flags: "a" });
  const nodes = [];
  const startNode = async (node) => {
    const args = [
      "--port",
      String(node.port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
    ];
    args.push("--dir", dir, "--dbfilename", `node-${node.port}.rdb`);
    if (node.replicaOf) args.push("--replicaof", "127.0.0.1", String(node.replicaOf));
    node.child = spawn("redis-server", args, { stdio: ["ignore", "pipe", "pipe"] });
    node.child.stdout.pipe(out, { end: false });
    node.child.stderr.pipe(out, { end: false });
    await listening(node.port, "redis-server");
  };
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  nodes.push({ port: primaryPort }, { port: replicaPort, replicaOf: primaryPort });
  for (const node of nodes) await startNode(node);
  const sentinels = [];
  for (let i = 0; i < 3; i += 1) {
    const port = await freePort();
    const conf = join(dir, `sentinel-${port}.conf`);
    // Sentinel rewrites its file as it learns the topology, so each has one of its own.
    writeFileSync(
      conf,
      [
        `port ${port}`,
        "bind 127.0.0.1",
        `dir ${dir}`,
        `sentinel monitor ${SENTINEL_MASTER} 127.0.0.1 ${primaryPort} 2`,
        `sentinel down-after-milliseconds ${SENTINEL_MASTER} ${SENTINEL_DOWN_AFTER_MS}`,
        `sentinel failover-timeout ${SENTINEL_MASTER} 30000`,
        `sentinel parallel-syncs ${SENTINEL_MASTER} 1`,
        "",
      ].join("\n"),
    );
    const child = spawn("redis-sentinel", [conf], { stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    sentinels.push({ port, child });
    await listening(port, "redis-sentinel");
  }
  /** The primary the sentinels name now (asked of the first one that answers). */
  const primary = async () => {
    for (const s of sentinels) {
      try {
        const [, port] = (
          await redisCli(s.port, "sentinel", "get-master-addr-by-name", SENTINEL_MASTER)
        ).split("\n");
        if (port) return Number(port);
      } catch {
        // ask the next one
      }
    }
    return undefined;
  };
  // The replica is in sync and every sentinel knows it before the run relies on a failover.
  for (let i = 0; ; i += 1) {
    const known = await Promise.all(
      sentinels.map((s) =>
        redisCli(s.port, "sentinel", "replicas", SENTINEL_MASTER).catch(() => ""),
      ),
    );
    const link = await redisCli(replicaPort, "info", "replication").catch(() => "");
    if (
      known.every((k) => k.includes(String(replicaPort))) &&
      link.includes("master_link_status:up")
    )
      break;
    if (i > 300) throw new Error("the Sentinel setup did not settle in 30 s");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const kill = async (node) => {
    if (!node.child || node.child.exitCode !== null) return;
    const exited = once(node.child, "exit");
    node.child.kill("SIGKILL");
    await exited;
  };
  return {
    master: SENTINEL_MASTER,
    sentinels: sentinels.map((s) => ({ host: "127.0.0.1", port: s.port })),
    primary,
    /**
     * SIGKILL the primary; resolves `{ from, to, promotedMs, replicaBackMs }`: the ports, how
     * long until the sentinels named the new primary, and until the old node was its replica.
     */
    failover: async () => {
      const from = await primary();
      const node = nodes.find((n) => n.port === from);
      if (!node) throw new Error(`no node of ours is the primary (${from})`);
      const t0 = Date.now();
      await kill(node);
      let to;
      while (!to || to === from) {
        if (Date.now() - t0 > 120_000) throw new Error("no sentinel promoted a replica in 120 s");
        await new Promise((resolve) => setTimeout(resolve, 100));
        to = await primary();
      }
      const promotedMs = Date.now() - t0;
      // Back as a replica of the new primary (the sentinels would reconfigure it anyway; saying
      // so at start keeps it from serving as an empty primary for a moment).
      node.replicaOf = to;
      await startNode(node);
      for (;;) {
        const link = await redisCli(node.port, "info", "replication").catch(() => "");
        if (link.includes("master_link_status:up")) break;
        if (Date.now() - t0 > 180_000)
          throw new Error(`the old primary did not rejoin as a replica`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      return { from, to, promotedMs, replicaBackMs: Date.now() - t0 };
    },
    stop: async () => {
      for (const s of sentinels) if (s.child.exitCode === null) s.child.kill("SIGKILL");
      for (const node of nodes) await kill(node);
    },
  };
}

async function listening(port, what) {
  for (let i = 0; i < 100; i += 1) {
    if (await canConnect(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} did not listen on ${port}`);
}
