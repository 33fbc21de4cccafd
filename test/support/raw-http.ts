import { Agent, request } from "node:http";

/** One raw HTTP exchange: what a hostile client sends, byte for byte. */
export interface RawRequest {
  method: string;
  /** Path and query, already percent-encoded as the client chooses. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/** What came back: status, headers and the body as text. */
export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** Set when the connection failed instead of answering (for example ECONNRESET). */
  error?: string;
}

// One connection per request: a server may close a socket after refusing an oversized body
// unread, and a kept-alive socket would carry that reset into the next, innocent, case.
const agent = new Agent({ keepAlive: false, maxSockets: 64 });

/**
 * Sends `req` to `origin` with node:http rather than fetch, because fetch refuses some of
 * what hostile clients send (bodies on GET, odd content types without a body, raw bytes).
 * Streaming responses are cut after `maxBytes` so an SSE route cannot hold a case open.
 */
export function sendRaw(
  origin: string,
  req: RawRequest,
  maxBytes = 256 * 1024,
): Promise<RawResponse> {
  const url = new URL(origin);
  return new Promise((resolve) => {
    const outgoing = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method: req.method,
        path: req.path,
        headers: {
          ...(req.body !== undefined ? { "content-length": Buffer.byteLength(req.body) } : {}),
          ...req.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const finish = () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString("utf8"),
          });
        // An event stream stays open by design: its headers and first bytes are the answer.
        if (String(res.headers["content-type"] ?? "").startsWith("text/event-stream")) {
          res.once("data", (chunk: Buffer) => {
            chunks.push(chunk);
            res.destroy();
            finish();
          });
          return;
        }
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size <= maxBytes) chunks.push(chunk);
        });
        res.on("end", finish);
        res.on("error", (error: NodeJS.ErrnoException) =>
          resolve({ status: 0, headers: {}, text: "", error: error.code ?? error.message }),
        );
      },
    );
    // A server may close the connection on a body it refuses before reading it all; that is
    // reported as `error` (status 0) for the caller to judge, not thrown.
    outgoing.on("error", (error: NodeJS.ErrnoException) =>
      resolve({
        status: 0,
        headers: {},
        text: "",
        error: error.code ?? error.message,
      }),
    );
    outgoing.end(req.body);
  });
}

/**
 * Percent-encodes every byte of `text` as UTF-8 except unreserved ASCII. Lone surrogates
 * become U+FFFD, as any client's encoder would make them; `encodeURIComponent` throws instead.
 */
export function percentEncode(text: string): string {
  let out = "";
  for (const byte of Buffer.from(text, "utf8")) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(char)
      ? char
      : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/**
 * Writes `text` into a path the way a careless client would: printable ASCII as is (so
 * broken escapes such as `%E0%A4%A` reach the server), everything else percent-encoded.
 */
export function carelessPath(text: string): string {
  let out = "";
  for (const char of text) {
    out += /^[!-~]$/.test(char) && !"?#/".includes(char) ? char : percentEncode(char);
  }
  return out;
}
