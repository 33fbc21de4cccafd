/** Limits of the spec: requests per minute, per key (our documented scope). */
export const RATE_LIMITS = { createCharge: 60, createWithdrawal: 30 } as const;
/** A limited bucket. */
export type RateBucket = keyof typeof RATE_LIMITS;

const WINDOW_MS = 60_000;

/** What the `X-RateLimit-*` headers say. `reset` is a Unix timestamp in seconds. */
export interface RateLimitInfo {
  limit: number;
  remaining: number;
  reset: number;
}

interface Window {
  startedAt: number;
  count: number;
}

/**
 * Fixed one-minute windows per (key, bucket), opened by the first request. Real time is used on
 * purpose, not the test clock: clients compute waits from `X-RateLimit-Reset` against their own
 * clock.
 */
export class RateLimiter {
  readonly #windows = new Map<string, Window>();

  /** Counts one request and reports whether it fits, with the headers to send either way. */
  hit(
    keyHash: string,
    bucket: RateBucket,
    nowMs = Date.now(),
  ): { allowed: boolean; info: RateLimitInfo } {
    const window = this.#current(`${bucket}:${keyHash}`, nowMs, true) as Window;
    const limit = RATE_LIMITS[bucket];
    const allowed = window.count < limit;
    if (allowed) window.count += 1;
    return { allowed, info: this.#info(window, limit) };
  }

  /** The window of a (key, bucket) without counting anything; a fresh one if none is open. */
  peek(keyHash: string | undefined, bucket: RateBucket, nowMs = Date.now()): RateLimitInfo {
    const limit = RATE_LIMITS[bucket];
    const window =
      keyHash === undefined ? undefined : this.#current(`${bucket}:${keyHash}`, nowMs, false);
    return this.#info(window ?? { startedAt: nowMs, count: 0 }, limit);
  }

  /** Forgets every window. */
  clear(): void {
    this.#windows.clear();
  }

  #current(id: string, nowMs: number, create: boolean): Window | undefined {
    let window = this.#windows.get(id);
    if (window && nowMs - window.startedAt >= WINDOW_MS) window = undefined;
    if (!window && create) {
      window = { startedAt: nowMs, count: 0 };
      this.#windows.set(id, window);
    }
    return window;
  }

  #info(window: Window, limit: number): RateLimitInfo {
    return {
      limit,
      remaining: Math.max(0, limit - window.count),
      reset: Math.ceil((window.startedAt + WINDOW_MS) / 1000),
    };
  }
}
