import type { RateLimitInfo } from "../models.js";

const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 8_000;
/** Never wait longer than this on a server hint; a reset hours away means a confused clock. */
export const MAX_HINTED_WAIT_MS = 60_000;

/**
 * Exponential backoff with jitter for retry number `attempt` (0-based). The jitter spreads
 * clients that failed together, so they do not come back together.
 */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** attempt);
  return Math.round(ceiling * (0.75 + random() * 0.25));
}

function readInt(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d+$/.test(value.trim())) return undefined;
  return Number(value.trim());
}

/** Reads `X-RateLimit-Limit`, `-Remaining` and `-Reset` (Unix seconds); absent ones stay undefined. */
export function readRateLimit(headers: Record<string, string>): RateLimitInfo | undefined {
  const limit = readInt(headers["x-ratelimit-limit"]);
  const remaining = readInt(headers["x-ratelimit-remaining"]);
  const reset = readInt(headers["x-ratelimit-reset"]);
  if (limit === undefined && remaining === undefined && reset === undefined) return undefined;
  return {
    ...(limit === undefined ? {} : { limit }),
    ...(remaining === undefined ? {} : { remaining }),
    ...(reset === undefined ? {} : { resetAt: new Date(reset * 1000) }),
  };
}

/**
 * How long a 429 asks us to wait: `Retry-After` (seconds) first, then `X-RateLimit-Reset`.
 * `undefined` when the server gave no usable hint, and the caller falls back to backoff.
 * The API may ask us to wait; we defer to that, within MAX_HINTED_WAIT_MS.
 */
export function hintedWaitMs(headers: Record<string, string>, now: number): number | undefined {
  const retryAfter = readInt(headers["retry-after"]);
  if (retryAfter !== undefined) return Math.min(retryAfter * 1000, MAX_HINTED_WAIT_MS);
  const reset = readInt(headers["x-ratelimit-reset"]);
  if (reset === undefined) return undefined;
  const wait = reset * 1000 - now;
  if (wait < 0 || wait > MAX_HINTED_WAIT_MS) return undefined;
  // The reset is a whole second; a little slack keeps us from arriving a few ms early.
  return wait + 50;
}
