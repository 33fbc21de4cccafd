/**
 * The one error type of the sandbox. Every failure, whether from the API routes, the control
 * routes or the request pipeline itself, is thrown as an `ApiError` and written by the pipeline
 * as the spec's envelope `{ "error": { "code", "message", ...extra } }`.
 */
export class ApiError extends Error {
  /** HTTP status of the answer. */
  readonly status: number;
  /** Stable, machine-readable code (the spec's verbatim where the spec names one). */
  readonly code: string;
  /** Extra fields merged into the `error` object, such as `param` or `issues`. */
  readonly extra: Readonly<Record<string, unknown>> | undefined;
  /** Extra response headers, such as `Allow` on a 405. */
  readonly headers: Readonly<Record<string, string>> | undefined;

  constructor(
    status: number,
    code: string,
    message: string,
    options: { extra?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.extra = options.extra;
    this.headers = options.headers;
  }

  /** The JSON body the pipeline writes for this error. */
  toBody(): { error: Record<string, unknown> } {
    return { error: { code: this.code, message: this.message, ...this.extra } };
  }
}

/** Anything thrown that is not an `ApiError` is a sandbox bug: answer 500 in the envelope. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError(
    500,
    "internal_error",
    "The sandbox failed unexpectedly. Please report this with the request you sent.",
  );
}
