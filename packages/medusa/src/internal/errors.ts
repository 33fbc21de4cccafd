import { MedusaError } from "@medusajs/framework/utils";

/** Stable codes of the errors this plugin raises itself; API errors keep the API's own code. */
export type PixCheckoutErrorCode =
  | "invalid_options"
  | "invalid_amount"
  | "unsupported_currency"
  | "missing_payer_data"
  | "invalid_payer_data"
  | "charge_not_found"
  | "refund_not_supported"
  | "invalid_webhook"
  | "webhook_unauthorized"
  | "provider_not_found"
  | "payment_service_error";

/**
 * The one error class of this package. It extends MedusaError so Medusa's error handler maps
 * `type` to an HTTP status (INVALID_DATA → 400, NOT_FOUND → 404) instead of a 500, and it
 * carries a stable `code` that callers branch on.
 */
export class PixCheckoutError extends MedusaError {
  /** Stable machine-readable code (the API's own code when the API reported the error). */
  override readonly code: string;

  constructor(type: string, code: PixCheckoutErrorCode | string, message: string) {
    super(type, message, code);
    this.name = "PixCheckoutError";
    this.code = code;
  }
}

/** A caller-fixable problem (bad amount, missing payer field): Medusa answers it with a 400. */
export function invalidData(code: PixCheckoutErrorCode, message: string): PixCheckoutError {
  return new PixCheckoutError(MedusaError.Types.INVALID_DATA, code, message);
}
