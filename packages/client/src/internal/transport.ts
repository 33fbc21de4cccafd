import type { Dispatcher } from "undici";
import {
  ConnectionError,
  makeApiError,
  PixError,
  RateLimitError,
  RequestAbortedError,
  ResponseValidationError,
  ServerError,
  TimeoutError,
} from "../errors.js";
import type { RateLimitInfo } from "../models.js";
import { backoffDelay, hintedWaitMs, readRateLimit } from "./backoff.js";
import type { Clock } from "./clock.js";
import { exchange, ExchangeError } from "./exchange.js";
import type { ResolvedConfig } from "./config.js";
import { silentLogger, type Logger } from "./logger.js";
import type { SlidingWindowLimiter } from "./rate-limiter.js";

/**
 * How a call may be retried.
 * - `safe`: reads. Retried on connection errors, timeouts, 5xx and 429.
 * - `idempotent-create`: a create carrying an Idempotency-Key (Variant B). Retried like reads,
 *   always with the same key, so the service answers a repeat with the first charge.
 * - `unsafe-create`: a create without a key (Variant A). Retried only when the request surely
 *   did not reach the service: a refused connection or a 429.
 */
export type RetryMode = "safe" | "idempotent-create" | "unsafe-create";

/** One call through the pipeline. */
export interface CallSpec {
  method: "GET" | "POST";
  /** Path below the base URL, starting with `/`. */
  path: string;
  query?: Record<string, string | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal | undefined;
  retry: RetryMode;
  /** Paces the call (POST /charges); its `maxWaitMs` also bounds 429 waits. */
  limiter?: { limiter: SlidingWindowLimiter; maxWaitMs: number | undefined };
}

/** A parsed 2xx response. */
export interface CallResult {
  status: number;
  body: unknown;
  headers: Record<string, string>;
  requestId?: string;
}

// Errors after which the service may have processed the request. Kept out of the public
// error fields: it is a property of the attempt, and only the charges resource needs it.
const maybeProcessed = new WeakSet<PixError>();

/** Whether the request behind `error` may have reached the service and taken effect. */
export function mayHaveBeenProcessed(error: unknown): boolean {
  return error instanceof PixError && maybeProcessed.has(error);
}

// Failures of the connect phase: nothing was written to the service, so any call may retry.
const CONNECT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
]);
// undici's own headers/body timeouts, set to timeoutMs as a backstop.
const TIMEOUT_CODES = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

function errorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function flattenHeaders(
  raw: Record<string, string | string[] | undefined>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    out[key.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

interface ErrorEnvelope {
  code?: string;
  message?: string;
}

function readErrorEnvelope(text: string): ErrorEnvelope {
  try {
    const parsed: unknown = JSON.parse(text);
    const error = (parsed as { error?: unknown } | null)?.error;
    if (error && typeof error === "object") {
      const { code, message } = error as { code?: unknown; message?: unknown };
      return {
        ...(typeof code === "string" ? { code } : {}),
        ...(typeof message === "string" ? { message } : {}),
      };
    }
  } catch {
    // A non-JSON error body (a proxy's HTML page) still maps by status.
  }
  return {};
}

/**
 * The request pipeline: pace, send, time out, classify, retry. Every call of every resource
 * goes through `call`, so retry, redaction and rate-limit handling live in one place.
 */
export class Transport {
  readonly #config: ResolvedConfig;
  readonly #dispatcher: Dispatcher | undefined;
  readonly #logger: Logger;
  readonly #clock: Clock;
  readonly #authorization: string;
  readonly #random: () => number;
  readonly #verbose: boolean;
  readonly #origin: string;
  readonly #basePath: string;
  /** Last `X-RateLimit-*` values seen on any response. */
  lastRateLimit: RateLimitInfo | undefined;

  constructor(
    config: ResolvedConfig,
    dispatcher: Dispatcher | undefined,
    logger: Logger,
    clock: Clock,
    random: () => number = Math.random,
  ) {
    this.#config = config;
    this.#dispatcher = dispatcher;
    this.#logger = logger;
    this.#clock = clock;
    this.#authorization = `Bearer ${config.apiKey}`;
    this.#random = random;
    this.#verbose = logger !== silentLogger;
    const base = new URL(config.baseUrl);
    this.#origin = base.origin;
    this.#basePath = base.pathname.replace(/\/+$/, "");
  }

  /** Sends `spec`, retrying as its mode allows; resolves with a 2xx or throws a `PixError`. */
  async call(spec: CallSpec): Promise<CallResult> {
    for (let attempt = 0; ; attempt++) {
      const release = spec.limiter
        ? await spec.limiter.limiter.acquire(spec.limiter.maxWaitMs, spec.signal)
        : undefined;
      let error: PixError;
      try {
        return await this.#attempt(spec, attempt);
      } catch (caught) {
        error = caught as PixError;
      } finally {
        release?.();
      }
      const waitMs = this.#retryDelay(spec, error, attempt);
      if (waitMs === undefined) throw error;
      this.#logger.warn(`retrying ${spec.method} ${spec.path} in ${waitMs} ms`, {
        attempt: attempt + 1,
        code: error.code,
        status: error.status,
      });
      try {
        await this.#clock.sleep(waitMs, spec.signal);
      } catch {
        const aborted = new RequestAbortedError(
          `${spec.method} ${spec.path} was aborted by the caller`,
          { code: "request_aborted", cause: error },
        );
        // Aborting between attempts does not undo what an earlier attempt may have done.
        if (mayHaveBeenProcessed(error)) maybeProcessed.add(aborted);
        throw aborted;
      }
    }
  }

  /** The wait before the next attempt, or `undefined` when `error` must reach the caller. */
  #retryDelay(spec: CallSpec, error: PixError, attempt: number): number | undefined {
    if (attempt >= this.#config.maxRetries) return undefined;
    if (error instanceof RateLimitError && error.status === 429) {
      const wait = error.retryAfterMs ?? backoffDelay(attempt, this.#random);
      const maxWait = spec.limiter?.maxWaitMs;
      return maxWait !== undefined && wait > maxWait ? undefined : wait;
    }
    const processed = mayHaveBeenProcessed(error);
    const transient =
      error instanceof ConnectionError ||
      error instanceof TimeoutError ||
      error instanceof ServerError;
    if (!transient) return undefined;
    if (spec.retry === "unsafe-create" && processed) return undefined;
    return backoffDelay(attempt, this.#random);
  }

  #path(spec: CallSpec): string {
    let url = this.#basePath + spec.path;
    if (spec.query) {
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(spec.query)) {
        if (value !== undefined) params.append(key, value);
      }
      const text = params.toString();
      if (text) url += `?${text}`;
    }
    return url;
  }

  async #attempt(spec: CallSpec, attempt: number): Promise<CallResult> {
    const label = `${spec.method} ${spec.path}`;
    if (spec.signal?.aborted) {
      throw new RequestAbortedError(`${label} was aborted by the caller before it was sent`, {
        code: "request_aborted",
      });
    }
    const headers: Record<string, string> = {
      authorization: this.#authorization,
      accept: "application/json",
      "user-agent": "pix-checkout-client/0.1",
      ...spec.headers,
    };
    let body: string | undefined;
    if (spec.body !== undefined) {
      body = JSON.stringify(spec.body);
      headers["content-type"] = "application/json";
    }
    const started = this.#clock.now();
    if (this.#verbose) this.#logger.debug(`→ ${label}`, { attempt });
    let status: number;
    let responseHeaders: Record<string, string>;
    let text: string;
    try {
      const result = await exchange({
        dispatcher: this.#dispatcher,
        origin: this.#origin,
        path: this.#path(spec),
        method: spec.method,
        headers,
        body,
        timeoutMs: this.#config.timeoutMs,
        signal: spec.signal,
      });
      status = result.status;
      responseHeaders = flattenHeaders(result.headers);
      text = result.text;
    } catch (cause) {
      throw this.#transportError(label, cause);
    }
    const requestId = responseHeaders["x-request-id"] ?? responseHeaders["request-id"];
    this.#noteRateLimit(spec, responseHeaders);
    if (this.#verbose) {
      this.#logger.debug(`← ${status} ${label}`, { ms: this.#clock.now() - started, requestId });
    }
    if (status >= 200 && status < 300) {
      return {
        status,
        body: this.#parseJson(label, status, text, responseHeaders, requestId),
        headers: responseHeaders,
        ...(requestId === undefined ? {} : { requestId }),
      };
    }
    const envelope = readErrorEnvelope(text);
    const rate = readRateLimit(responseHeaders);
    const retryAfterMs =
      status === 429 ? hintedWaitMs(responseHeaders, this.#clock.now()) : undefined;
    const error = makeApiError({
      status,
      code: envelope.code,
      message: envelope.message,
      headers: responseHeaders,
      ...(requestId === undefined ? {} : { requestId }),
      ...(rate?.resetAt === undefined ? {} : { resetAt: rate.resetAt }),
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    });
    if (status >= 500) maybeProcessed.add(error);
    this.#logger.info(`${label} failed: ${error.message}`, { status, requestId });
    throw error;
  }

  #parseJson(
    label: string,
    status: number,
    text: string,
    headers: Record<string, string>,
    requestId: string | undefined,
  ): unknown {
    try {
      return JSON.parse(text);
    } catch {
      const error = new ResponseValidationError(
        `${label} answered ${status} with a body that is not JSON (${text.length} bytes)`,
        {
          code: "invalid_response",
          status,
          headers,
          ...(requestId === undefined ? {} : { requestId }),
        },
      );
      maybeProcessed.add(error);
      throw error;
    }
  }

  #noteRateLimit(spec: CallSpec, headers: Record<string, string>): void {
    const info = readRateLimit(headers);
    if (!info) return;
    // Answers to concurrent requests arrive in any order. Within one window (its reset within a
    // second of the last one's) the server's count only goes down, so an answer with more left
    // is older news than the one already noted, and is not the "last" word on the limit.
    if (!isOlderAnswer(info, this.lastRateLimit)) this.lastRateLimit = info;
    if (spec.limiter && info.remaining === 0 && info.resetAt) {
      spec.limiter.limiter.pauseUntil(info.resetAt.getTime());
    }
  }

  #transportError(label: string, failure: unknown): PixError {
    let error: PixError;
    const kind = failure instanceof ExchangeError ? failure.kind : "network";
    const cause =
      failure instanceof ExchangeError && failure.kind === "network" ? failure.cause : failure;
    const code = errorCode(cause);
    if (kind === "timeout" || (code !== undefined && TIMEOUT_CODES.has(code))) {
      error = new TimeoutError(
        `${label} got no complete response within ${this.#config.timeoutMs} ms (timeoutMs)`,
        { code: "timeout", cause },
      );
    } else if (kind === "aborted") {
      error = new RequestAbortedError(`${label} was aborted by the caller`, {
        code: "request_aborted",
        cause,
      });
    } else if (code !== undefined && CONNECT_CODES.has(code)) {
      return new ConnectionError(
        `${label} could not connect to the service (${code}); nothing was sent`,
        { code: "connection_error", cause },
      );
    } else {
      const detail = code ?? (cause instanceof Error ? cause.message : "unknown failure");
      error = new ConnectionError(
        `${label}: the connection broke before a complete response arrived (${detail})`,
        { code: "connection_error", cause },
      );
    }
    maybeProcessed.add(error);
    return error;
  }
}

/** Whether `next` is an older answer of the same rate-limit window than `last` (see above). */
function isOlderAnswer(next: RateLimitInfo, last: RateLimitInfo | undefined): boolean {
  if (!last || next.remaining === undefined || last.remaining === undefined) return false;
  if (!next.resetAt || !last.resetAt) return false;
  const sameWindow = Math.abs(next.resetAt.getTime() - last.resetAt.getTime()) <= 1_000;
  return sameWindow && next.remaining > last.remaining;
}
