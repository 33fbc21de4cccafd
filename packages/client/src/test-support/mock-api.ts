import { MockAgent } from "undici";
import { PixClient } from "../client.js";
import type { PixClientOptions } from "../internal/config.js";
import type { Logger } from "../internal/logger.js";
import { FakeClock } from "./fake-clock.js";
import { BASE_URL, ORIGIN, TEST_KEY } from "./fixtures.js";

/** A request the mock API saw. */
export interface SeenRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

function plainHeaders(headers: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (headers && typeof (headers as Headers).forEach === "function" && !Array.isArray(headers)) {
    (headers as Headers).forEach((value, key) => {
      out[key.toLowerCase()] = value;
    });
    return out;
  }
  if (Array.isArray(headers)) {
    for (let i = 0; i < headers.length; i += 2)
      out[String(headers[i]).toLowerCase()] = String(headers[i + 1]);
    return out;
  }
  for (const [key, value] of Object.entries((headers ?? {}) as Record<string, unknown>)) {
    out[key.toLowerCase()] = String(value);
  }
  return out;
}

/** Records what a mock saw; use inside `.reply((opts) => ...)` callbacks. */
export function record(
  seen: SeenRequest[],
  opts: { method: string; path: string; headers?: unknown; body?: unknown },
): SeenRequest {
  const text = typeof opts.body === "string" ? opts.body : undefined;
  const entry: SeenRequest = {
    method: opts.method,
    path: opts.path,
    headers: plainHeaders(opts.headers),
    body: text ? (JSON.parse(text) as unknown) : undefined,
  };
  seen.push(entry);
  return entry;
}

/** A client wired to a MockAgent that refuses real network access. */
export function mockClient(
  variant: "a" | "b",
  options: Partial<PixClientOptions> & { logger?: Logger } = {},
): { client: PixClient; agent: MockAgent; pool: ReturnType<MockAgent["get"]>; clock: FakeClock } {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const clock = new FakeClock();
  const client = new PixClient({
    apiKey: TEST_KEY,
    baseUrl: BASE_URL,
    variant,
    dispatcher: agent,
    clock,
    ...options,
  });
  return { client, agent, pool: agent.get(ORIGIN), clock };
}

/** A logger that keeps every line, for redaction tests. */
export function capturingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const push =
    (level: string) =>
    (message: string, fields?: Record<string, unknown>): void => {
      lines.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`);
    };
  return {
    lines,
    debug: push("debug"),
    info: push("info"),
    warn: push("warn"),
    error: push("error"),
  };
}
