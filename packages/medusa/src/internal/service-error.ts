import { MedusaError } from "@medusajs/framework/utils";
import { PixCheckoutError } from "./errors";
import { redactString } from "./redact";

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
  const message = redactString(typeof err.message === "string" ? err.message : "unknown error");
  if (status === 401 || status === 403) {
    return new PixCheckoutError(
      MedusaError.Types.UNEXPECTED_STATE,
      code,
      `The payment service rejected the API key (${code}). Check the provider's apiKey in medusa-config.`,
    );
  }
  if (status === 400 || code === "invalid_request") {
    return new PixCheckoutError(
      MedusaError.Types.INVALID_DATA,
      code,
      `The payment service refused the charge: ${message}`,
    );
  }
  return new PixCheckoutError(
    MedusaError.Types.UNEXPECTED_STATE,
    code,
    `The payment service could not be reached or failed (${code}): ${message}`,
  );
}
