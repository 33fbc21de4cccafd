import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A loopback HTTP proxy in front of the sandbox's `/v1` API that counts what passes. */
export interface CountingProxy {
  /** Base URL to give the plugin instead of the sandbox's (`.../v1`). */
  baseUrl: string;
  /** Every request that went through, as `METHOD /path`. */
  calls: string[];
  /** The same requests with when each arrived (ms since the epoch), to count them by window. */
  arrivals: { call: string; at: number }[];
  close(): Promise<void>;
}

/**
 * Forwards every request to `targetOrigin` unchanged and records it, so a test can say how
 * many payment-API calls the plugin made: the real sandbox still answers.
 */
export async function startCountingProxy(targetOrigin: string): Promise<CountingProxy> {
  const calls: string[] = [];
  const arrivals: { call: string; at: number }[] = [];
  const server: Server = createServer(async (req, res) => {
    const call = `${req.method} ${(req.url ?? "").split("?")[0]}`;
    calls.push(call);
    arrivals.push({ call, at: Date.now() });
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (name === "host" || name === "connection" || value === undefined) continue;
      headers.set(name, Array.isArray(value) ? value.join(", ") : value);
    }
    try {
      const upstream = await fetch(`${targetOrigin}${req.url ?? "/"}`, {
        method: req.method,
        headers,
        ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
      });
      const body = Buffer.from(await upstream.arrayBuffer());
      const out: Record<string, string> = {};
      upstream.headers.forEach((value, name) => {
        if (name !== "content-encoding" && name !== "transfer-encoding") out[name] = value;
      });
      out["content-length"] = String(body.length);
      res.writeHead(upstream.status, out).end(body);
    } catch {
      res.writeHead(502).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    calls,
    arrivals,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
