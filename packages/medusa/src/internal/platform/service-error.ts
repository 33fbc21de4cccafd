import { PixCheckoutError } from "./errors";
import { redact } from "@pix-checkout/client";

/**
 * Turns a client error into this plugin's error, keeping the API's `code` verbatim. Auth
 * problems are the merchant's configuration, not the shopper's input, so they say what to
 * check in medusa-config; the message never carries the key.
 */
export function toServiceError(error: unknown): PixCheckoutError {
  if (error instanceof PixCheckoutError) return error;
  const err = error as { code?: unknown; status?: unknown; message?: unknown };
  const code = typeof err.code === "string" ? err.code : "payment_service_error";
  const status = typeof err.status === "number" ? err.status : undefined;
  const message = redact(typeof err.message === "string" ? err.message : "unknown error");
  if (code === "variant_mismatch") {
    // The merchant's configuration, not the shopper's input; the client's message names the
    // `variant` value to set.
    return new PixCheckoutError(
      code,
      `Pix Checkout is configured with the wrong API variant: ${message} (provider option \`variant\` in medusa-config).`,
      502,
    );
  }
  if (status === 401 || status === 403) {
    return new PixCheckoutError(
      code,
      `The payment service rejected the API key (${code}). Check the provider's apiKey in medusa-config.`,
      502,
    );
  }
  if (isTransient(code, status)) {
    // A passing upstream failure is not the shopper's fault and a retry is safe (no charge code
    // was shown, so nothing can be paid twice). The plugin's routes answer 503; through a
    // Medusa workflow it becomes a 409 CONFLICT, whose body says to retry (see errors.ts).
    return new PixCheckoutError(
      code,
      `The payment service is busy or did not answer (${code}); nothing was charged. Try again in a few seconds.`,
      503,
    );
  }
  if (status === 400 || code === "invalid_request") {
    return new PixCheckoutError(code, `The payment service refused the charge: ${message}`, 400);
  }
  return new PixCheckoutError(
    code,
    `The payment service could not be reached or failed (${code}): ${message}`,
    502,
  );
}

/** Client codes of failures that pass: the service was slow, unreachable, busy or rate limited. */
const TRANSIENT_CODES = new Set([
  "charge_outcome_unknown",
  "connection_error",
  "timeout",
  "rate_limit_exceeded",
  "client_rate_limited",
]);

function isTransient(code: string, status: number | undefined): boolean {
  return TRANSIENT_CODES.has(code) || status === 429 || (status !== undefined && status >= 500);
}
