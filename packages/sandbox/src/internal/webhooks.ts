import { newOpaqueId } from "./ids.js";
import { chance, drawMs, type Faults } from "./faults.js";

/** The five event kinds of the spec. */
export type WebhookEventKind =
  "charge.paid" | "charge.expired" | "charge.failed" | "transfer.completed" | "transfer.failed";

/** The spec's envelope. */
export interface WebhookEnvelope {
  event: WebhookEventKind;
  data: Record<string, unknown>;
}

/** One line of the delivery log (`GET /__sandbox/webhooks`): one attempt to one URL. */
export interface DeliveryLogEntry {
  /** Id of this attempt. */
  id: string;
  /** Id shared by every attempt (and duplicate) of the same event to the same URL. */
  event_id: string;
  event: WebhookEventKind;
  url: string;
  attempt: number;
  status_code: number | null;
  error: string | null;
  delivered_at: string;
  /** When the next attempt is due, or null when this was the last one. */
  next_retry_at: string | null;
  body: WebhookEnvelope;
}

/** Retry and timeout settings. */
export interface WebhookSettings {
  /** Delay before each retry; its length + 1 is the number of attempts. */
  retryDelaysMs: readonly number[];
  /** A receiver that has not answered within this time counts as failed. */
  timeoutMs: number;
}

/** Default backoff: attempts at +0, +1 s, +5 s, +30 s, +2 min, +10 min (six in all). */
export const DEFAULT_RETRY_DELAYS_MS = [1_000, 5_000, 30_000, 120_000, 600_000] as const;
/** The spec's acknowledgement window. */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 5_000;

const REORDER_WINDOW_MS = 250;
const LOG_LIMIT = 1_000;

/**
 * POSTs events to every target URL, retries with backoff when a receiver answers other than 2xx
 * or not within the timeout, applies webhook faults, and keeps a delivery log (newest last,
 * capped at 1,000 attempts). Retries run on real timers: they model the network, not the
 * business clock.
 */
export class WebhookDispatcher {
  readonly log: DeliveryLogEntry[] = [];
  readonly urls: string[];
  readonly #settings: WebhookSettings;
  readonly #getFaults: () => Faults;
  readonly #now: () => number;
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #controllers = new Set<AbortController>();
  readonly #waiters = new Set<() => void>();
  #reorderBuffer: Array<() => void> = [];
  #inFlight = 0;
  #closed = false;
  // Bumped by reset, so attempts of forgotten events neither log nor retry.
  #generation = 0;

  constructor(options: {
    urls: string[];
    settings: WebhookSettings;
    getFaults: () => Faults;
    now: () => number;
  }) {
    this.urls = [...options.urls];
    this.#settings = options.settings;
    this.#getFaults = options.getFaults;
    this.#now = options.now;
  }

  /** Sends one event to every configured URL (in the background). */
  emit(envelope: WebhookEnvelope): void {
    for (const url of this.urls) {
      const eventId = newOpaqueId("evt");
      const faults = this.#getFaults();
      if (chance(faults.webhook_drop_rate)) {
        this.#record({
          eventId,
          envelope,
          url,
          attempt: 1,
          statusCode: null,
          error: "dropped by fault injection",
          nextRetryAt: null,
        });
        continue;
      }
      const copies = chance(faults.webhook_duplicate_rate) ? 2 : 1;
      for (let copy = 0; copy < copies; copy++) {
        const start = () =>
          this.#schedule(
            drawMs(faults.webhook_delay_ms),
            () => void this.#attempt(eventId, envelope, url, 1, this.#generation),
          );
        if (faults.webhook_reorder) this.#bufferForReorder(start);
        else start();
      }
    }
  }

  /** Resolves once nothing is in flight or scheduled (used by tests and by close). */
  idle(): Promise<void> {
    if (this.#isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.add(resolve));
  }

  /** Forgets the log and cancels pending deliveries (reset). */
  clear(): void {
    this.#generation += 1;
    this.#cancelAll();
    this.log.length = 0;
  }

  /** Stops every timer and aborts requests in flight. */
  close(): void {
    this.#closed = true;
    this.#cancelAll();
  }

  #cancelAll(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    for (const controller of this.#controllers) controller.abort();
    this.#reorderBuffer = [];
    this.#notifyIfIdle();
  }

  // Events that arrive within one short window are released together, last first.
  #bufferForReorder(start: () => void): void {
    this.#reorderBuffer.push(start);
    if (this.#reorderBuffer.length > 1) return;
    this.#schedule(REORDER_WINDOW_MS, () => {
      const batch = this.#reorderBuffer.reverse();
      this.#reorderBuffer = [];
      for (const run of batch) run();
    });
  }

  #schedule(delayMs: number, run: () => void): void {
    if (this.#closed) return;
    if (delayMs <= 0) {
      run();
      return;
    }
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      run();
      this.#notifyIfIdle();
    }, delayMs);
    this.#timers.add(timer);
  }

  async #attempt(
    eventId: string,
    envelope: WebhookEnvelope,
    url: string,
    attempt: number,
    generation: number,
  ): Promise<void> {
    if (this.#closed || generation !== this.#generation) return;
    this.#inFlight += 1;
    const controller = new AbortController();
    this.#controllers.add(controller);
    const timeout = setTimeout(
      () => controller.abort(new Error("timeout")),
      this.#settings.timeoutMs,
    );
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", "user-agent": "pix-sandbox-webhooks/1" },
        body: JSON.stringify(envelope),
        signal: controller.signal,
      });
      statusCode = response.status;
      // Drain so the connection can be reused; the body itself does not matter.
      await response.arrayBuffer().catch(() => undefined);
      if (statusCode < 200 || statusCode > 299) error = `receiver answered ${statusCode}`;
    } catch (cause) {
      error = controller.signal.aborted
        ? `no answer within ${this.#settings.timeoutMs} ms`
        : `could not connect: ${cause instanceof Error ? (cause.cause instanceof Error ? cause.cause.message : cause.message) : String(cause)}`;
    } finally {
      clearTimeout(timeout);
      this.#controllers.delete(controller);
    }
    this.#inFlight -= 1;
    if (generation !== this.#generation) {
      this.#notifyIfIdle();
      return;
    }
    const retryDelay = error === null ? undefined : this.#settings.retryDelaysMs[attempt - 1];
    const nextRetryAt = retryDelay === undefined || this.#closed ? null : this.#now() + retryDelay;
    this.#record({ eventId, envelope, url, attempt, statusCode, error, nextRetryAt });
    if (retryDelay !== undefined && !this.#closed) {
      this.#schedule(
        retryDelay,
        () => void this.#attempt(eventId, envelope, url, attempt + 1, generation),
      );
    }
    this.#notifyIfIdle();
  }

  #record(input: {
    eventId: string;
    envelope: WebhookEnvelope;
    url: string;
    attempt: number;
    statusCode: number | null;
    error: string | null;
    nextRetryAt: number | null;
  }): void {
    this.log.push({
      id: newOpaqueId("whd"),
      event_id: input.eventId,
      event: input.envelope.event,
      url: input.url,
      attempt: input.attempt,
      status_code: input.statusCode,
      error: input.error,
      delivered_at: new Date(this.#now()).toISOString(),
      next_retry_at: input.nextRetryAt === null ? null : new Date(input.nextRetryAt).toISOString(),
      body: input.envelope,
    });
    if (this.log.length > LOG_LIMIT) this.log.splice(0, this.log.length - LOG_LIMIT);
  }

  #isIdle(): boolean {
    return this.#inFlight === 0 && this.#timers.size === 0;
  }

  #notifyIfIdle(): void {
    if (!this.#isIdle()) return;
    for (const resolve of this.#waiters) resolve();
    this.#waiters.clear();
  }
}
