import { createServer, type IncomingMessage, type Server } from "node:http";
import { request } from "undici";

/**
 * A loopback proxy in front of the sandbox that lets the first `drop` requests reach it and
 * then cuts the client's connection instead of answering: the request was processed, the
 * response is lost. Later requests pass through untouched.
 */
export interface LossyProxy {
  baseUrl: string;
  /** Requests forwarded so far. */
  forwarded(): number;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => resolve(body));
    req.on("error", reject);
  });
}

export async function startLossyProxy(target: string, drop: number): Promise<LossyProxy> {
  let count = 0;
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const headers: Record<string, string> = {};
      for (const [key, value] of Object.entries(req.headers)) {
        if (typeof value === "string" && key !== "host" && key !== "connection")
          headers[key] = value;
      }
      const upstream = await request(`${target}${req.url ?? ""}`, {
        method: (req.method ?? "GET") as "GET",
        headers,
        body: body === "" ? undefined : body,
      });
      const text = await upstream.body.text();
      count++;
      if (count <= drop) {
        req.socket.destroy();
        return;
      }
      res.writeHead(upstream.statusCode, {
        "content-type": "application/json",
        ...pick(upstream.headers),
      });
      res.end(text);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    forwarded: () => count,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function pick(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    if (key.startsWith("x-ratelimit") && typeof value === "string") out[key] = value;
  }
  return out;
}
