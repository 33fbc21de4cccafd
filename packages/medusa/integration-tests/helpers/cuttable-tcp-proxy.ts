import { execFileSync } from "node:child_process";
import { createServer, connect, type Server, type Socket } from "node:net";

/** A loopback TCP proxy in front of Postgres that a test can cut and restore. */
export interface CuttableTcpProxy {
  /** The port to give Medusa instead of Postgres's own (as `DB_PORT`). */
  port: number;
  /** Resolves once the proxy listens (await it in a `beforeAll` before Medusa boots). */
  ready: Promise<void>;
  /**
   * Ends every connection through the proxy (as a network cut or a failover does) and refuses
   * new ones until `restore()`: Medusa's pool loses its connections and cannot make others.
   */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

/**
 * A loopback port free right now, found synchronously (a child process binds port 0 and prints
 * what it got): a suite must set `DB_PORT` before `medusaIntegrationTestRunner` reads it, at
 * the module's top level, where CommonJS test files cannot await.
 */
export function freeLoopbackPortSync(): number {
  const script =
    "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
  return Number(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }));
}

/**
 * Forwards connections on `port` (loopback) to Postgres on `targetPort`. It starts listening at
 * once; `ready` says when it does.
 */
export function startCuttableTcpProxy(
  targetPort: number,
  port: number,
  host = "127.0.0.1",
): CuttableTcpProxy {
  const open = new Set<Socket>();
  let isCut = false;
  const server: Server = createServer((client) => {
    if (isCut) {
      client.destroy();
      return;
    }
    const upstream = connect(targetPort, host);
    open.add(client);
    open.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  const ready = new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  return {
    port,
    ready,
    cut() {
      isCut = true;
      for (const socket of open) socket.destroy();
      open.clear();
    },
    restore() {
      isCut = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
