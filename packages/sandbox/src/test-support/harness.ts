import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { startSandbox, type Sandbox, type SandboxOptions } from "../index.js";

/** A response as tests look at it. */
export interface Reply {
  status: number;
  statusText: string;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
  text: string;
}

/** A sandbox plus a tiny HTTP helper bound to it. */
export interface Harness {
  sandbox: Sandbox;
  /** Calls the API (`/v1/...` or any path) with the default key unless `key: null`. */
  call(
    method: string,
    path: string,
    options?: {
      body?: unknown;
      key?: string | null;
      headers?: Record<string, string>;
      raw?: string;
    },
  ): Promise<Reply>;
  /** Calls a control route without auth. */
  control(method: string, path: string, body?: unknown): Promise<Reply>;
  /** Creates a Pix charge with sensible defaults and returns its body. */
  createPix(amount?: number, extra?: Record<string, unknown>): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** The variant's id of a create/read body. */
  idOf(body: { uuid?: string; id?: string }): string;
  close(): Promise<void>;
}

/** Starts a sandbox on an ephemeral port. */
export async function startHarness(options: SandboxOptions): Promise<Harness> {
  const sandbox = await startSandbox(options);
  const call: Harness["call"] = async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.key !== null)
      headers.authorization ??= `Bearer ${options.key ?? sandbox.defaultKey}`;
    let body: string | undefined = options.raw;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers["content-type"] ??= "application/json";
    }
    const response = await fetch(`${sandbox.url}${path}`, { method, headers, body: body ?? null });
    const text = await response.text();
    let parsed: unknown = undefined;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
      body: parsed,
      text,
    };
  };
  const idOf = (body: { uuid?: string; id?: string }): string =>
    (options.variant === "a" ? body.uuid : body.id) as string;
  return {
    sandbox,
    call,
    control: (method, path, body) =>
      call(method, `/__sandbox${path}`, { key: null, ...(body === undefined ? {} : { body }) }),
    async createPix(amount = 1990, extra = {}) {
      const reply = await call("POST", "/v1/charges", {
        body: { amount, ...(options.variant === "a" ? { payment_method: "pix" } : {}), ...extra },
      });
      if (reply.status !== 201) throw new Error(`create failed: ${reply.text}`);
      return reply.body;
    },
    idOf,
    close: () => sandbox.close(),
  };
}

/** One request a webhook receiver got. */
export interface Received {
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  headers: IncomingMessage["headers"];
}

/** A local webhook receiver whose answers tests script, and whose deliveries tests await. */
export interface Receiver {
  url: string;
  received: Received[];
  /** Status codes for the next requests, in order; after them, 200. */
  script: number[];
  /** Resolves when `count` requests have arrived. */
  waitFor(count: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** Starts a webhook receiver on an ephemeral port. */
export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const waiters: Array<{ count: number; resolve: (value: Received[]) => void }> = [];
  const receiver: Receiver = {
    url: "",
    received,
    script: [],
    waitFor(count) {
      if (received.length >= count) return Promise.resolve(received);
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({
        body: JSON.parse(Buffer.concat(chunks).toString("utf8")),
        headers: req.headers,
      });
      res.writeHead(receiver.script.shift() ?? 200).end();
      for (const waiter of [...waiters]) {
        if (received.length >= waiter.count) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(received);
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}

/** A valid boleto body (Variant A), overridable per field. */
export function boletoBody(
  overrides: {
    customer?: Record<string, unknown>;
    billing_address?: Record<string, unknown>;
    amount?: number;
  } = {},
) {
  return {
    amount: overrides.amount ?? 4990,
    payment_method: "boleto",
    description: "Order 1001",
    customer: {
      name: "Ana Souza",
      email: "ana@example.com",
      document: "123.456.789-09",
      phone: "(11) 98765-4321",
      ...overrides.customer,
    },
    billing_address: {
      zip: "01310-100",
      state: "SP",
      city: "São Paulo",
      street: "Avenida Paulista",
      neighborhood: "Bela Vista",
      number: "1000",
      ...overrides.billing_address,
    },
  };
}
