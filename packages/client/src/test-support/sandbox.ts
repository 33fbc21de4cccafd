import { createServer, type IncomingMessage, type Server } from "node:http";
import { request } from "undici";

/** POSTs to a sandbox control route and returns the parsed answer. */
export async function control(
  url: string,
  path: string,
  body: unknown = {},
  method = "POST",
): Promise<unknown> {
  const response = await request(`${url}/__sandbox/${path}`, {
    method: method as "POST",
    headers: { "content-type": "application/json" },
    body: method === "GET" || method === "DELETE" ? undefined : JSON.stringify(body),
  });
  const text = await response.body.text();
  if (response.statusCode >= 400)
    throw new Error(`control ${path} -> ${response.statusCode} ${text}`);
  return text ? (JSON.parse(text) as unknown) : undefined;
}

/** A real webhook receiver on loopback: answers 200 and hands each body to whoever waits. */
export interface Receiver {
  url: string;
  /** Resolves with the next body whose `event` and `data.uuid` match. */
  next(event: string, uuid: string): Promise<string>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const bodies: string[] = [];
  const waiters: Array<{ event: string; uuid: string; resolve: (body: string) => void }> = [];
  const matches = (body: string, event: string, uuid: string): boolean => {
    const parsed = JSON.parse(body) as { event?: string; data?: { uuid?: string } };
    return parsed.event === event && parsed.data?.uuid === uuid;
  };
  const deliver = (body: string): void => {
    const index = waiters.findIndex((waiter) => matches(body, waiter.event, waiter.uuid));
    if (index >= 0) waiters.splice(index, 1)[0]?.resolve(body);
    else bodies.push(body);
  };
  const server: Server = createServer((req: IncomingMessage, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      res.writeHead(200).end();
      deliver(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    next: (event, uuid) => {
      const index = bodies.findIndex((body) => matches(body, event, uuid));
      if (index >= 0) return Promise.resolve(bodies.splice(index, 1)[0] as string);
      return new Promise((resolve) => waiters.push({ event, uuid, resolve }));
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
