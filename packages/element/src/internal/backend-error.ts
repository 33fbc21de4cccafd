import type { PixErrorCode } from "../events.js";

/** A failed call to the store backend; `code` is stable, `message` is for people. */
export class BackendError extends Error {
  override readonly name = "BackendError";
  constructor(
    readonly code: PixErrorCode,
    message: string,
    readonly status?: number,
    /** Seconds the backend asked us to wait (`Retry-After`): 429s (10 when unreadable), 503s. */
    readonly retryAfter?: number,
  ) {
    super(message);
  }

  /** Errors that retrying will not fix: stop and say so. */
  get fatal(): boolean {
    return (
      this.code === "not_found" || this.code === "unauthorized" || this.code === "bad_response"
    );
  }
}
