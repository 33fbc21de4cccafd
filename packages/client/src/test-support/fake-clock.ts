import type { Clock } from "../internal/clock.js";

interface Timer {
  at: number;
  resolve: () => void;
}

/**
 * A clock for tests. `sleep` never waits for real time: pending sleeps are fired one per
 * event-loop turn, earliest first, jumping `now()` forward to each deadline. That lets a
 * minute of rate limiting run in milliseconds while requests still interleave naturally.
 */
export class FakeClock implements Clock {
  #now: number;
  #timers: Timer[] = [];
  #draining = false;
  /** Every duration passed to `sleep`, in call order. */
  readonly sleeps: number[] = [];

  constructor(start = Date.parse("2026-03-01T12:00:00Z")) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.sleeps.push(ms);
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      this.#timers.push({ at: this.#now + Math.max(0, ms), resolve });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#draining) return;
    this.#draining = true;
    setImmediate(() => this.#fireOne());
  }

  #fireOne(): void {
    this.#draining = false;
    this.#timers.sort((a, b) => a.at - b.at);
    const timer = this.#timers.shift();
    if (!timer) return;
    this.#now = Math.max(this.#now, timer.at);
    timer.resolve();
    if (this.#timers.length > 0) this.#schedule();
  }
}
