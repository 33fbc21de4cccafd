import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { ApiError } from "./api-error.js";
import type { RateLimitInfo } from "./rate-limiter.js";

/** Largest request body accepted; larger ones get 413 `payload_too_large`. */
export const BODY_LIMIT_BYTES = 64 * 1024;
// Past this, the sandbox stops draining and drops the connection instead.
const HARD_LIMIT_BYTES = 16 * 1024 * 1024;

/** The spec's security and CORS headers, sent on every response. */
export const BASE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "strict-transport-security": "max-age=63072000; includeSubDomains; preload",
  "cache-control": "no-store, no-cache, must-revalidate",
  "access-control-allow-origin": "*",
  "access-control-allow-headers": "authorization, content-type, x-idempotency-key",
  "access-control-allow-methods": "GET, POST, OPTIONS",
});

function headersFor(
  rate: RateLimitInfo,
  contentType: string | undefined,
  length: number,
  extra?: Readonly<Record<string, string>>,
): Record<string, string | number> {
  const headers: Record<string, string | number> = {
    ...BASE_HEADERS,
    "x-ratelimit-limit": rate.limit,
    "x-ratelimit-remaining": rate.remaining,
    "x-ratelimit-reset": rate.reset,
    "content-length": length,
    // Lets a client quote one request in a bug report, as real APIs allow.
    "x-request-id": `req_${randomUUID()}`,
    ...extra,
  };
  if (contentType !== undefined) headers["content-type"] = contentType;
  return headers;
}

/** Writes a JSON answer with every cross-cutting header. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  rate: RateLimitInfo,
  extra?: Readonly<Record<string, string>>,
): void {
  const payload = Buffer.from(JSON.stringify(body));
  res.writeHead(status, headersFor(rate, "application/json; charset=utf-8", payload.length, extra));
  res.end(payload);
}

/** Writes an HTML page with every cross-cutting header. */
export function sendHtml(
  res: ServerResponse,
  status: number,
  html: string,
  rate: RateLimitInfo,
): void {
  const payload = Buffer.from(html);
  res.writeHead(status, headersFor(rate, "text/html; charset=utf-8", payload.length));
  res.end(payload);
}

/** Writes an empty answer (CORS preflight, 204s). */
export function sendEmpty(res: ServerResponse, status: number, rate: RateLimitInfo): void {
  res.writeHead(status, headersFor(rate, undefined, 0));
  res.end();
}

/** Writes an `ApiError` in the spec's envelope. */
export function sendError(res: ServerResponse, error: ApiError, rate: RateLimitInfo): void {
  if (res.headersSent) {
    // Too late for an envelope: cut the connection so the client sees a failure, not a half answer.
    res.destroy();
    return;
  }
  sendJson(res, error.status, error.toBody(), rate, error.headers);
}

function readRaw(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > HARD_LIMIT_BYTES) {
        req.destroy();
        return;
      }
      // Keep draining an oversized body so the 413 reaches a client still writing.
      if (size > BODY_LIMIT_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on("end", () => {
      if (tooLarge) {
        reject(
          new ApiError(
            413,
            "payload_too_large",
            `The request body exceeds ${BODY_LIMIT_BYTES} bytes. Send a smaller JSON body.`,
          ),
        );
      } else resolve(Buffer.concat(chunks));
    });
    req.on("error", reject);
    // A body cut off by the hard limit (or a client that hung up) never ends; settle anyway.
    req.on("close", () => {
      if (!req.complete)
        reject(new ApiError(400, "invalid_body", "The request body was cut off before its end."));
    });
  });
}

/**
 * Reads and parses a JSON body. With `strict`, the spec's `Content-Type: application/json` is
 * required (415 otherwise); without it (control routes), any content type is read as JSON and
 * an empty body counts as `{}`, so `curl -X POST` works bare.
 */
export async function readJsonBody(req: IncomingMessage, strict: boolean): Promise<unknown> {
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > BODY_LIMIT_BYTES) {
    // Read (and discard) anyway: answering mid-upload would reset the client's connection.
    await readRaw(req).catch(() => undefined);
    throw new ApiError(
      413,
      "payload_too_large",
      `The request body exceeds ${BODY_LIMIT_BYTES} bytes. Send a smaller JSON body.`,
    );
  }
  const type = req.headers["content-type"];
  const isJson = type !== undefined && /^application\/json\s*(;|$)/i.test(type.trim());
  if (strict && !isJson) {
    await readRaw(req).catch(() => undefined);
    throw new ApiError(
      415,
      "unsupported_media_type",
      "Send the body as JSON with the header `Content-Type: application/json`.",
    );
  }
  const raw = await readRaw(req);
  const text = raw.toString("utf8");
  if (text.trim() === "") {
    if (strict)
      throw new ApiError(400, "invalid_json", "The request body is empty; send a JSON object.");
    return {};
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError(
      400,
      "invalid_json",
      "The request body is not valid JSON. Check quotes, commas and braces.",
    );
  }
}
