import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { loadClientModule } from "../platform/client-port";

/** Bodies above this are not webhooks of this API; refuse them before parsing. */
export const MAX_WEBHOOK_BYTES = 64 * 1024;

/**
 * Compares the URL token with the configured secret in constant time. Both sides are hashed
 * first so their lengths match and the comparison time says nothing about either.
 */
const tokens = new WeakMap<object, string>();

/**
 * Middleware on the webhook route: takes the `?token=` out of the request's URL before anything
 * can log it. Medusa's HTTP access log (morgan) writes `req.originalUrl` when the response
 * ends, so the token would otherwise sit in every access-log line; the route reads it from
 * here instead (`webhookTokenOf`).
 */
export function hideWebhookToken(
  req: { url: string; originalUrl?: string; query?: unknown },
  _res: unknown,
  next: () => void,
): void {
  const given = (req.query as Record<string, unknown> | undefined)?.token;
  if (typeof given === "string") tokens.set(req, given);
  const strip = (url: string) => url.replace(/([?&])token=[^&#]*/g, "$1token=[redacted]");
  req.url = strip(req.url);
  if (typeof req.originalUrl === "string") req.originalUrl = strip(req.originalUrl);
  next();
}

/** The webhook token `hideWebhookToken` took from this request's URL, if any. */
export function webhookTokenOf(req: object): string | undefined {
  return tokens.get(req);
}

export function tokenMatches(given: unknown, secret: string): boolean {
  if (typeof given !== "string") return false;
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(secret).digest();
  return timingSafeEqual(a, b);
}

/** Reads the raw body (Medusa's JSON parser is off for this route), up to `MAX_WEBHOOK_BYTES`. */
export async function readRawBody(req: IncomingMessage): Promise<string | "too_large"> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    size += buffer.length;
    if (size > MAX_WEBHOOK_BYTES) return "too_large";
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** A webhook event after the client's zod validation. */
export interface ParsedWebhook {
  event:
    "charge.paid" | "charge.expired" | "charge.failed" | "transfer.completed" | "transfer.failed";
  data: Record<string, unknown> & { amount: number; status: string; uuid?: string; id?: string };
}

/** The charge id a charge event names: Variant B's `id` when present, else the `uuid`. */
export function chargeIdOf(event: ParsedWebhook): string | null {
  if (!event.event.startsWith("charge.")) return null;
  return (event.data.id as string | undefined) ?? (event.data.uuid as string | undefined) ?? null;
}

/**
 * Where a parsed body holds text PostgreSQL's jsonb cannot store (a NUL character or an
 * unpaired UTF-16 surrogate), as a path like `data.description`; `null` when it has none.
 * Such text is valid JSON but no event of the service carries it, and storing it would fail.
 */
export function unstorableTextPath(value: unknown, path = ""): string | null {
  const unstorable = (text: string) =>
    text.includes("\u0000") || !(text as string & { isWellFormed(): boolean }).isWellFormed();
  if (typeof value === "string") return unstorable(value) ? path || "(body)" : null;
  if (value === null || typeof value !== "object") return null;
  for (const [key, child] of Object.entries(value)) {
    const childPath = path ? `${path}.${key}` : key;
    if (unstorable(key)) return childPath;
    const found = unstorableTextPath(child, childPath);
    if (found) return found;
  }
  return null;
}

/**
 * Parses a body with the client's schema; throws its `WebhookParseError` (code
 * `invalid_webhook`), or an `invalid_webhook` error naming the field with unstorable text.
 */
export async function parseWebhookBody(body: unknown): Promise<ParsedWebhook> {
  const { parseWebhook } = await loadClientModule();
  const event = parseWebhook(body) as ParsedWebhook;
  const path = unstorableTextPath(event);
  if (path) {
    throw Object.assign(
      new Error(
        `Webhook field ${path} holds a NUL character or an unpaired surrogate; no real event does, so it was not stored.`,
      ),
      { code: "invalid_webhook" },
    );
  }
  return event;
}
