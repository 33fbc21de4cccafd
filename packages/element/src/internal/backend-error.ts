import type { PixErrorCode } from "../events.js";
import type { Lang } from "../localize/index.js";

/** A failed call to the store backend; `code` is stable, `message` is for people. */
export class BackendError extends Error {
  /** The shopper's words for this failure, by language, when the generic ones would mislead. */
  declare readonly say?: Record<Lang, string>;
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

/** A failure as a BackendError: anything else thrown on the way (a timeout, say) is `network`. */
export const asFailure = (error: unknown): BackendError =>
  error instanceof BackendError ? error : new BackendError("network", `${error}`);
