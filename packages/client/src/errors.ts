import { redact, redactValue } from "./internal/redact.js";

/** One field-level problem with a request, named by its path in the caller's input. */
export interface FieldIssue {
  /** Dotted path in the caller's input, e.g. `customer.document` or `billingAddress.zip`. */
  path: string;
  /** What is wrong and what to send instead. */
  message: string;
}

/**
 * A foreign error (from undici, a proxy, the OS) may quote headers or URLs, so it is kept as a
 * redacted copy with its name and code; our own errors are already redacted.
 */
function safeCause(cause: unknown): unknown {
  if (cause instanceof PixError || !(cause instanceof Error)) return cause;
  const copy = new Error(
    redact(cause.message),
    cause.cause === undefined ? undefined : { cause: safeCause(cause.cause) },
  );
  copy.name = cause.name;
  const code = (cause as { code?: unknown }).code;
  if (typeof code === "string") Object.assign(copy, { code });
  copy.stack = redact(cause.stack ?? "");
  return copy;
}

/** Options every error of this package accepts. */
export interface PixErrorOptions {
  code: string;
  status?: number;
  requestId?: string;
  headers?: Record<string, string>;
  cause?: unknown;
}

/**
 * Base of every error this package throws. Branch on `code` (the API's verbatim, or one of the
 * documented client codes), never on `message`. Messages are redacted: they never contain an API
 * key or an Authorization header.
 */
export class PixError extends Error {
  /** Stable code: the API's `error.code` verbatim, or a client code such as `timeout`. */
  readonly code: string;
  /** HTTP status, when a response was received. */
  readonly status?: number;
  /** The response's request id header (`x-request-id` or `request-id`), when present. */
  readonly requestId?: string;
  /** Response headers, redacted, when a response was received. */
  readonly headers?: Record<string, string>;

  constructor(message: string, options: PixErrorOptions) {
    super(
      redact(message),
      options.cause === undefined ? undefined : { cause: safeCause(options.cause) },
    );
    this.name = new.target.name;
    this.code = options.code;
    if (options.status !== undefined) this.status = options.status;
    if (options.requestId !== undefined) this.requestId = options.requestId;
    if (options.headers !== undefined) {
      this.headers = redactValue(options.headers) as Record<string, string>;
    }
  }
}

/** 401: the key is missing, malformed or unknown. Fix the configuration; retrying will not help. */
export class AuthenticationError extends PixError {}

/** 403: the key is disabled or revoked (`api_key_disabled`, `api_key_revoked`). */
export class PermissionError extends PixError {}

/**
 * 400 from the API, or a request the client refused before sending it. `issues` names each
 * field (client-side validation always fills it; API errors carry one issue when the code
 * points at a field).
 */
export class InvalidRequestError extends PixError {
  /** Each problem, by field path in the caller's input. */
  readonly issues: readonly FieldIssue[];

  constructor(message: string, options: PixErrorOptions & { issues?: FieldIssue[] }) {
    super(message, options);
    this.issues = options.issues ?? [];
  }
}

/** 404: no such charge (`charge_not_found`) or route. */
export class NotFoundError extends PixError {}

/** 429, or the client's own limiter refusing to wait longer than `maxWaitMs`. */
export class RateLimitError extends PixError {
  /** When the server says the window resets (from `X-RateLimit-Reset`). */
  readonly resetAt?: Date;
  /** How long the caller should wait before trying again, in ms. */
  readonly retryAfterMs?: number;

  constructor(
    message: string,
    options: PixErrorOptions & { resetAt?: Date; retryAfterMs?: number },
  ) {
    super(message, options);
    if (options.resetAt !== undefined) this.resetAt = options.resetAt;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }
}

/** 5xx after the client's retries (GETs), or on a first attempt that may not be retried. */
export class ServerError extends PixError {}

/** The connection failed or broke (refused, reset, truncated body). Code `connection_error`. */
export class ConnectionError extends PixError {}

/** No complete response within `timeoutMs`. Code `timeout`. */
export class TimeoutError extends PixError {}

/** The caller's `AbortSignal` fired. Code `request_aborted`. */
export class RequestAbortedError extends PixError {}

/**
 * A 2xx response that is not what the spec promises: invalid JSON, missing or mistyped fields,
 * or Variant B's float `amount` disagreeing with `amount_cents`. Code `invalid_response`.
 */
export class ResponseValidationError extends PixError {
  /** What did not match, by path in the response body. */
  readonly issues: readonly FieldIssue[];

  constructor(message: string, options: PixErrorOptions & { issues?: FieldIssue[] }) {
    super(message, { ...options, code: options.code || "invalid_response" });
    this.issues = options.issues ?? [];
  }
}

/** The create call this error stands for, kept so it can be found again. */
export interface UnknownOutcomeDetails {
  method: "pix" | "boleto";
  amountCents: number;
  description?: string;
  /** Name and e-mail as sent; the document only masked (it is personal data and errors get logged). */
  customer?: { name?: string; email?: string; documentMasked?: string };
  /** From just before the first attempt was sent to when the failure was seen (ISO 8601). */
  window: { from: string; to: string };
  /** Variant B only: the key that was sent. Retrying with it cannot create a second charge. */
  idempotencyKey?: string;
}

/**
 * A create whose result the client cannot know: the request may have reached the service and
 * created a charge (timeout, reset after sending, 5xx, unreadable 2xx). The client did NOT
 * retry it blindly. Reconcile with `client.charges.findAfterUnknownOutcome(error)` (Variant A)
 * or retry with `error.details.idempotencyKey` (Variant B). Code `charge_outcome_unknown`;
 * `cause` holds the underlying error.
 */
export class ChargeOutcomeUnknownError extends PixError {
  /** What was being created, and when. */
  readonly details: UnknownOutcomeDetails;

  constructor(message: string, options: PixErrorOptions & { details: UnknownOutcomeDetails }) {
    super(message, { ...options, code: "charge_outcome_unknown" });
    this.details = options.details;
  }
}

/** `findAfterUnknownOutcome` found more than one charge that could be the lost one. */
export class ChargeMatchAmbiguousError extends PixError {
  /** Ids of every matching charge, newest first. */
  readonly candidateIds: readonly string[];

  constructor(message: string, candidateIds: string[]) {
    super(message, { code: "charge_match_ambiguous" });
    this.candidateIds = candidateIds;
  }
}

/** Bad constructor options (wrong key type, plain-http non-loopback URL...). Code `invalid_configuration`. */
export class ConfigurationError extends PixError {
  constructor(message: string) {
    super(message, { code: "invalid_configuration" });
  }
}

/**
 * The service answers in the other variant's shape: the client's `variant` option does not
 * match the account. Code `variant_mismatch`. The message names the value to set.
 */
export class VariantMismatchError extends PixError {
  /** The variant the service's answer looks like. */
  readonly serviceVariant: "a" | "b";
  constructor(configured: "a" | "b", serviceVariant: "a" | "b", evidence: string) {
    super(
      `The payment service answers like Variant ${serviceVariant.toUpperCase()} (${evidence}), but the client is configured with variant "${configured}". Set variant: "${serviceVariant}".`,
      { code: "variant_mismatch" },
    );
    this.serviceVariant = serviceVariant;
  }
}

/** A webhook body that is not one of the five documented events. Code `invalid_webhook`. */
export class WebhookParseError extends PixError {
  /** What did not match, by path in the webhook body. */
  readonly issues: readonly FieldIssue[];

  constructor(message: string, issues: FieldIssue[] = []) {
    super(message, { code: "invalid_webhook" });
    this.issues = issues;
  }
}

/** What the factory needs to know about a non-2xx response. */
export interface ApiErrorInput {
  status: number;
  code: string | undefined;
  message: string | undefined;
  headers: Record<string, string>;
  requestId?: string;
  resetAt?: Date;
  retryAfterMs?: number;
}

const HINTS: Record<string, string> = {
  missing_authorization: "send a secret key (sk_live_...) as apiKey",
  unauthorized: "send a secret key (sk_live_...) as apiKey",
  invalid_authorization: "apiKey must be a secret key starting with sk_live_",
  invalid_api_key:
    "the service does not know this key; copy an active secret key from the dashboard",
  api_key_disabled: "the key is disabled; enable it or use another secret key",
  api_key_revoked: "the key is revoked; create a new secret key in the dashboard",
  rate_limit_exceeded: "slow down; wait for X-RateLimit-Reset",
  invalid_amount: "amountCents must be a positive integer number of cents",
  missing_id: "pass a charge id",
  charge_not_found: "no charge has this id; check it was stored from the create response",
};

/**
 * The one place that maps an HTTP status and an API code to an error class. The API's code is
 * kept verbatim; a body without one gets `api_error`.
 */
export function makeApiError(input: ApiErrorInput): PixError {
  const code = input.code ?? "api_error";
  const hint = HINTS[code];
  const text = input.message ?? `HTTP ${input.status} without an error body`;
  const message = `${text} (${code}, HTTP ${input.status})${hint ? `: ${hint}` : ""}`;
  const options: PixErrorOptions = {
    code,
    status: input.status,
    headers: input.headers,
    ...(input.requestId === undefined ? {} : { requestId: input.requestId }),
  };
  if (input.status === 429 || code === "rate_limit_exceeded") {
    return new RateLimitError(message, {
      ...options,
      ...(input.resetAt === undefined ? {} : { resetAt: input.resetAt }),
      ...(input.retryAfterMs === undefined ? {} : { retryAfterMs: input.retryAfterMs }),
    });
  }
  if (input.status === 401) return new AuthenticationError(message, options);
  if (input.status === 403) return new PermissionError(message, options);
  if (input.status === 404) return new NotFoundError(message, options);
  if (input.status >= 500) return new ServerError(message, options);
  const issues = code === "invalid_amount" ? [{ path: "amountCents", message: text }] : [];
  return new InvalidRequestError(message, { ...options, issues });
}
