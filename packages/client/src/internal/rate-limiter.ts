import type { Clock } from "./clock.js";
import { RateLimitError, RequestAbortedError } from "../errors.js";

function aborted(): RequestAbortedError {
  return new RequestAbortedError(
    "Aborted by the caller while waiting for a create slot; nothing was sent",
    {
      code: "request_aborted",
    },
  );
}

interface Slot {
  /** When the request finished; `undefined` while it is in flight. */
  doneAt: number | undefined;
}

interface Waiter {
  resolve: (release: () => void) => void;
  reject: (error: unknown) => void;
  deadline: number | undefined;
}

/**
 * A sliding-window limiter: at most `limit` requests whose window is still open, where a
 * request's window closes `windowMs` after its RESPONSE arrived. Counting from the response
 * (not the send) is what makes the guarantee hold against a server that counts arrivals:
 * the server saw request N before we saw its response, so request N + limit, sent at least
 * `windowMs` after that response, reaches the server more than `windowMs` after request N did.
 *
 * Waiters are served first in, first out. A waiter with a `maxWaitMs` is refused at once when
 * even the earliest possible slot is later than that, and refused when its deadline passes.
 */
export class SlidingWindowLimiter {
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #clock: Clock;
  #slots: Slot[] = [];
  readonly #queue: Waiter[] = [];
  #pausedUntil = 0;
  #timerAt: number | undefined;

  constructor(limit: number, windowMs: number, clock: Clock) {
    this.#limit = limit;
    this.#windowMs = windowMs;
    this.#clock = clock;
  }

  /** Requests counted in the current window (in flight or finished less than a window ago). */
  get inWindow(): number {
    this.#prune(this.#clock.now());
    return this.#slots.length;
  }

  /**
   * Waits for a slot and returns its release function, which the caller must call once the
   * response (or failure) arrived.
   */
  acquire(maxWaitMs?: number, signal?: AbortSignal): Promise<() => void> {
    const now = this.#clock.now();
    if (signal?.aborted) return Promise.reject(aborted());
    if (maxWaitMs !== undefined) {
      const earliest = this.#estimateGrantAt(now);
      if (earliest - now > maxWaitMs) {
        return Promise.reject(this.#refusal(earliest - now, maxWaitMs));
      }
    }
    return new Promise<() => void>((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        deadline: maxWaitMs === undefined ? undefined : now + maxWaitMs,
      };
      this.#queue.push(waiter);
      if (waiter.deadline !== undefined) this.#watchDeadline(waiter, maxWaitMs ?? 0);
      signal?.addEventListener(
        "abort",
        () => {
          const index = this.#queue.indexOf(waiter);
          if (index === -1) return;
          this.#queue.splice(index, 1);
          reject(aborted());
        },
        { once: true },
      );
      this.#pump();
    });
  }

  /**
   * Holds every waiter until `until` (epoch ms), e.g. when the server reported
   * `X-RateLimit-Remaining: 0`. Capped at one window from now, so a wrong clock on either side
   * cannot stall the client for long.
   */
  pauseUntil(until: number): void {
    const cap = this.#clock.now() + this.#windowMs;
    this.#pausedUntil = Math.max(this.#pausedUntil, Math.min(until, cap));
    this.#pump();
  }

  #watchDeadline(waiter: Waiter, maxWaitMs: number): void {
    void this.#clock.sleep(maxWaitMs).then(() => {
      const index = this.#queue.indexOf(waiter);
      if (index === -1) return;
      this.#queue.splice(index, 1);
      waiter.reject(
        this.#refusal(this.#estimateGrantAt(this.#clock.now()) - this.#clock.now(), maxWaitMs),
      );
    });
  }

  #refusal(waitMs: number, maxWaitMs: number): RateLimitError {
    const retryAfterMs = Math.max(0, Math.ceil(waitMs));
    return new RateLimitError(
      `The client's create limiter would need about ${retryAfterMs} ms for a slot, more than maxWaitMs (${maxWaitMs} ms); try again later or raise createRateLimit.maxWaitMs`,
      { code: "client_rate_limited", retryAfterMs },
    );
  }

  #prune(now: number): void {
    this.#slots = this.#slots.filter(
      (slot) => slot.doneAt === undefined || slot.doneAt + this.#windowMs > now,
    );
  }

  /** Lower bound of when the next enqueued waiter could get a slot. */
  #estimateGrantAt(now: number): number {
    this.#prune(now);
    const ahead = this.#queue.length;
    const free = this.#limit - this.#slots.length;
    let at = now;
    if (ahead >= free) {
      // In-flight requests cannot finish before now, so their windows close a window from now.
      const closes = this.#slots
        .map((slot) => (slot.doneAt ?? now) + this.#windowMs)
        .sort((a, b) => a - b);
      const index = ahead - free;
      const round = Math.floor(index / this.#limit);
      at = (closes[index % this.#limit] ?? now + this.#windowMs) + round * this.#windowMs;
    }
    return Math.max(at, this.#pausedUntil);
  }

  #pump(): void {
    const now = this.#clock.now();
    this.#prune(now);
    while (this.#queue.length > 0 && now >= this.#pausedUntil && this.#slots.length < this.#limit) {
      const waiter = this.#queue.shift() as Waiter;
      const slot: Slot = { doneAt: undefined };
      this.#slots.push(slot);
      let released = false;
      waiter.resolve(() => {
        if (released) return;
        released = true;
        slot.doneAt = this.#clock.now();
        this.#pump();
      });
    }
    if (this.#queue.length === 0) return;
    // Blocked: wake when the pause ends or the oldest finished window closes. If every slot is
    // still in flight, a release will call #pump again.
    const closes = this.#slots
      .filter((slot) => slot.doneAt !== undefined)
      .map((slot) => (slot.doneAt as number) + this.#windowMs);
    const candidates = [...closes];
    if (now < this.#pausedUntil) candidates.push(this.#pausedUntil);
    if (candidates.length === 0) return;
    const wakeAt = Math.min(...candidates);
    if (this.#timerAt !== undefined && this.#timerAt <= wakeAt) return;
    this.#timerAt = wakeAt;
    void this.#clock.sleep(wakeAt - now).then(() => {
      if (this.#timerAt === wakeAt) this.#timerAt = undefined;
      this.#pump();
    });
  }
}
