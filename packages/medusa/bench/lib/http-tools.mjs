// Tools the benches share: a counting proxy in front of the sandbox, an SSE reader, percentiles.
import http, { createServer } from "node:http";
import net from "node:net";

/** A proxy in front of the sandbox API that counts calls by `METHOD /path-shape`. */
export async function countingProxy(target) {
  const calls = [];
  /** Each answer's HTTP status, in order. */
  const statuses = [];
  /** When each `POST /charges` arrived (ms, `performance.now()`). */
  const createTimes = [];
  const server = createServer(async (req, res) => {
    if (req.method === "POST" && /\/charges$/.test(req.url.split("?")[0])) {
      createTimes.push(performance.now());
    }
    calls.push(
      `${req.method} ${req.url.split("?")[0].replace(/[0-9a-f-]{36}|ch_svc_\w+/g, ":id")}`,
    );
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const headers = { ...req.headers };
    delete headers.host;
    delete headers.connection;
    const upstream = await fetch(target + req.url, {
      method: req.method,
      headers,
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    const body = Buffer.from(await upstream.arrayBuffer());
    statuses.push(upstream.status);
    // The rate-limit headers matter to the client's own limiter.
    const passed = { "content-type": upstream.headers.get("content-type") ?? "application/json" };
    for (const name of [
      "x-ratelimit-limit",
      "x-ratelimit-remaining",
      "x-ratelimit-reset",
      "retry-after",
    ]) {
      const value = upstream.headers.get(name);
      if (value !== null) passed[name] = value;
    }
    res.writeHead(upstream.status, passed);
    res.end(body);
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    calls,
    statuses,
    createTimes,
    close: () => server.close(),
  };
}

/**
 * Opens an SSE stream; `onEvent(json)` per data event. Resolves once the headers arrived.
 * `localAddress` binds the client's socket (127.0.0.2, ...), so the store sees that client.
 */
export function openStream(url, key, onEvent, localAddress) {
  return new Promise((resolve, reject) => {
    const req = http.get(
      url,
      {
        headers: { "x-publishable-api-key": key },
        agent: false,
        ...(localAddress ? { localAddress } : {}),
      },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`));
        let buffer = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          buffer += chunk;
          let cut;
          while ((cut = buffer.indexOf("\n\n")) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const line = block.split("\n").find((l) => l.startsWith("data: "));
            if (line) onEvent(JSON.parse(line.slice(6)));
          }
        });
        res.on("error", () => undefined);
        resolve(req);
      },
    );
    req.on("error", reject);
  });
}

/** The p-th percentile of an ascending array (nearest rank). */
export const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** The most of `times` (ms, any order) that fall within any `windowMs`. */
export function maxInWindow(times, windowMs) {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end += 1) {
    while (sorted[end] - sorted[start] >= windowMs) start += 1;
    best = Math.max(best, end - start + 1);
  }
  return best;
}

const agents = new Map();

/**
 * `POST` of a JSON body from `localAddress` (127.0.0.2, ...), so the store sees that client.
 * Resolves with `{ status, headers, json() }`.
 */
export function postFrom(localAddress, url, body, headers = {}) {
  let agent = agents.get(localAddress);
  if (!agent) {
    agent = new http.Agent({ keepAlive: true, localAddress });
    agents.set(localAddress, agent);
  }
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: "POST",
        agent,
        headers: {
          ...headers,
          "content-type": "application/json",
          "content-length": payload.length,
        },
      },
      (res) => {
        const chunks = [];
        res.on("data", (chunk) => chunks.push(chunk));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          resolve({
            status: res.statusCode,
            headers: { get: (name) => res.headers[name.toLowerCase()] ?? null },
            json: async () => JSON.parse(text),
            text: async () => text,
          });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

/** Closes the sockets `postFrom` keeps open. */
export function closeClients() {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}

/**
 * A port nothing listens on now. Benches take free ports rather than fixed ones: on a machine
 * where another checkout runs the same bench, a fixed port is already taken, and the bench
 * would talk to the other run's store.
 */
export async function freePort() {
  const [port] = await freePorts(1);
  return port;
}

/**
 * `count` distinct ports nothing listens on now: all are held open together before any is let go,
 * so two stores of one bench never get the same one.
 */
export async function freePorts(count) {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise((resolve, reject) => {
          const server = net.createServer();
          server.once("error", reject);
          server.listen(0, "127.0.0.1", () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((server) => server.address().port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}
