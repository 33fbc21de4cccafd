/**
 * The sandbox's test clock: real time plus an offset that tests move forward. Everything that
 * reads "now" for charges (creation, expiry, payment, fund release) reads it here, so a test can
 * reach an expiry 30 minutes away in one call instead of waiting.
 */
export class SandboxClock {
  #offsetMs: number;
  readonly #listeners = new Set<() => void>();

  constructor(offsetMs = 0) {
    this.#offsetMs = offsetMs;
  }

  /** Milliseconds since the Unix epoch, as seen by the sandbox. */
  now(): number {
    return Date.now() + this.#offsetMs;
  }

  /** How far the sandbox clock is ahead of real time. */
  get offsetMs(): number {
    return this.#offsetMs;
  }

  /**
   * Moves the clock forward by `ms` and lets listeners (the expiry sweep) react at once.
   * Returns the new "now".
   */
  advance(ms: number): number {
    if (!Number.isFinite(ms) || ms < 0) {
      throw new RangeError("The clock only moves forward: advance by a non-negative number of ms.");
    }
    this.#offsetMs += ms;
    this.#emit();
    return this.now();
  }

  /** Sets the clock to an absolute time that is not in the sandbox's past. */
  set(epochMs: number): number {
    return this.advance(Math.max(0, epochMs - this.now()));
  }

  /** Puts the clock back to real time (used by reset). */
  resetOffset(): void {
    this.#offsetMs = 0;
  }

  /** Registers a callback run after each move of the clock. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #emit(): void {
    for (const listener of this.#listeners) listener();
  }
}
