import type { ReactiveController, ReactiveControllerHost } from "lit";
import type { CheckoutSession } from "../session.js";
import type { Backend } from "./backend.js";
import { BackendError, asFailure } from "./backend-error.js";
import { isFinal } from "./status-mapping.js";

/** First polling delay; each quiet poll waits `POLL_FACTOR` times longer, up to `POLL_MAX_MS`. */
export const POLL_START_MS = 2_000;
export const POLL_MAX_MS = 15_000;
export const POLL_FACTOR = 1.5;

/**
 * Delay before poll number `attempt` (0-based), with ±10% jitter so that shoppers
 * dropped together (a deploy, a network blip) do not come back in lockstep.
 */
export function pollDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(POLL_MAX_MS, POLL_START_MS * POLL_FACTOR ** attempt);
  return Math.round(Math.min(POLL_MAX_MS, base * (0.9 + 0.2 * random())));
}

/** What the controller reports to its host. */
export interface StatusCallbacks {
  /** A session arrived; `receivedAt` is the local clock at arrival, for skew correction. */
  onSession(session: CheckoutSession, receivedAt: number): void;
  /** A call failed. Fatal errors (`error.fatal`) stop the controller; others are retried. */
  onError(error: BackendError): void;
  /** Waits between polls; tests inject one to observe the delays. Must settle on abort. */
  wait?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Silence after which a stream counts as dead; tests shorten it. */
  streamIdleMs?: number;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });

/**
 * Keeps a session's status live: one GET for the first paint, then the stream, with
 * polling (2 s backing off to 15 s) when the stream is not offered or breaks. Pauses
 * while the page is hidden, starts over on `visibilitychange` and `online` (the shopper
 * coming back from the bank app is the moment that matters), stops at final states
 * and when the host disconnects. One AbortController owns all in-flight work.
 */
export class StatusController implements ReactiveController {
  #abort: AbortController | null = null;
  #backend: Backend | null = null;
  #done = false;
  /** Owns the page listeners while the host is connected; null while it is not. */
  #listening: AbortController | null = null;
  #streamWorks = true;

  constructor(
    host: ReactiveControllerHost,
    private readonly callbacks: StatusCallbacks,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    const { signal } = (this.#listening = new AbortController());
    document.addEventListener("visibilitychange", this.#wake, { signal });
    window.addEventListener("online", this.#wake, { signal });
    // Moved in the DOM: pick up where the disconnect left off.
    this.retry();
  }

  hostDisconnected(): void {
    this.#listening?.abort();
    this.#listening = null;
    this.#stop();
  }

  /** Follows the session behind `backend` from scratch (or nothing, with null). */
  watch(backend: Backend | null): void {
    // Fetch the stream code while the first status GET is in flight.
    if (backend) void import("./stream.js").catch(() => {});
    this.#backend = backend;
    this.#done = false;
    this.#streamWorks = true;
    this.#start();
  }

  /** Starts over now: the retry button, and coming back to the page. */
  retry(): void {
    // A removed element asks nothing, even when a late answer or timer calls this.
    if (!this.#done && this.#listening) this.#start();
  }

  /**
   * Asks the backend to re-check the charge; the answer goes through `onSession`.
   * Throws a BackendError (`rate_limited` carries `retryAfter`).
   */
  async refresh(): Promise<void> {
    const backend = this.#backend;
    if (!backend) return;
    let session: CheckoutSession;
    try {
      // Its own deadline: the upstream re-check may be slow, but not forever.
      session = await backend.refresh(AbortSignal.timeout(20_000));
    } catch (error) {
      throw asFailure(error);
    }
    // The element may follow another session by now; this answer is not about it.
    if (backend === this.#backend) this.#deliver(session);
  }

  #wake = () => {
    if (document.hidden) this.#stop();
    else this.retry();
  };

  #start() {
    this.#stop();
    if (!this.#backend || document.hidden) return;
    const abort = new AbortController();
    this.#abort = abort;
    void this.#run(this.#backend, abort.signal);
  }

  #stop() {
    this.#abort?.abort();
    this.#abort = null;
  }

  /** Hands `session` on, unless the watch it was fetched for has ended (`signal` aborted). */
  #deliver(session: CheckoutSession, signal?: AbortSignal) {
    // An answer already on its way when the element moved to another session (or started
    // over) arrives after the abort: showing it would put another session on screen.
    if (this.#done || signal?.aborted) return;
    this.callbacks.onSession(session, Date.now());
    if (isFinal(session)) {
      this.#done = true;
      this.#stop();
    }
  }

  async #run(backend: Backend, signal: AbortSignal) {
    for (let attempt = 0, patience = 0; ;) {
      let asked = 0;
      try {
        const session = await backend.get(signal);
        this.#deliver(session, signal);
        patience = 0;
        // A stream that carried events was healthy: reconnect soon rather than backing off. A
        // paid code waiting on its order's news backs off: the store may have none to give.
        if (
          !this.#done &&
          (await this.#follow(backend, signal, session)) &&
          session.status != "paid"
        )
          attempt = 0;
      } catch (error) {
        if (signal.aborted) return;
        const failure = asFailure(error);
        // A store asking for patience (a 503 or 429 with Retry-After) once says nothing: a
        // second time in a row, the shopper reads that the store is slow to answer.
        if (!failure.retryAfter || patience++) this.callbacks.onError(failure);
        // Retrying cannot find a session that does not exist; the host's retry button can.
        if (failure.fatal) return;
        // As long as the store asks, up to a minute.
        asked = Math.min(60_000, (failure.retryAfter ?? 0) * 1000);
      }
      if (this.#done || signal.aborted) return;
      // Never sooner than the polls' backoff, which keeps growing while the store is down.
      await (this.callbacks.wait ?? sleep)(Math.max(asked, pollDelay(attempt++)), signal);
      if (signal.aborted) return;
    }
  }

  /**
   * Follows the stream until it closes, if the backend streams; answers how many sessions it
   * carried. `read` is the session the status read just gave, which a page without a stream
   * (polling) still reports as shown.
   */
  async #follow(backend: Backend, signal: AbortSignal, read: CheckoutSession): Promise<number> {
    try {
      const { followStream } = await import("./stream.js");
      const [events, streams] = await followStream(
        backend,
        signal,
        this.callbacks.streamIdleMs,
        (session) => {
          this.#deliver(session, signal);
          return this.#done;
        },
        read,
        this.#streamWorks,
      );
      this.#streamWorks = streams;
      return events;
    } catch {
      // The stream code did not load (offline, say): poll this round, try again the next.
      return 0;
    }
  }
}
