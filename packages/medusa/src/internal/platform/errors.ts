import type { MedusaResponse } from "@medusajs/framework/http";
import { MedusaError } from "@medusajs/framework/utils";
import { STORE_RETRY_AFTER_SECONDS } from "./store-failure";

/**
 * The plugin's one error tree: every code a route of this plugin answers, or the provider
 * raises through Medusa, with the HTTP status it carries. Store, admin and webhook routes
 * share it, so a code means the same thing (and the same status) wherever it appears, and
 * the README's error table is this list. Errors reported by the payment API keep the API's
 * own code (see service-error.ts).
 */
export const ERROR_STATUS = {
  // The caller sent something to fix.
  invalid_amount: 400,
  unsupported_currency: 400,
  missing_payer_data: 400,
  invalid_payer_data: 400,
  invalid_session_id: 400,
  invalid_charge_id: 400,
  invalid_order_id: 400,
  invalid_query: 400,
  invalid_limit: 400,
  invalid_filters: 400,
  invalid_period: 400,
  invalid_webhook: 400,
  // A path Express cannot decode (a broken percent-escape such as `%` or `%E0%A4%A`).
  invalid_path: 400,
  // A session's money is found through the plugin's records of that session, never through an
  // id in its data: a session the plugin never asked money on has none.
  session_has_no_charge: 400,
  invalid_cart_id: 400,
  invalid_payment_method: 400,
  reserved_cart_metadata: 400,
  invalid_pix_discount: 400,
  cart_completed: 400,
  // A cart that cannot become an order never takes a place in the create line.
  cart_empty: 400,
  cart_email_missing: 400,
  cart_address_missing: 400,
  // An order's own collection (an order edit's difference, a converted draft) needs the
  // customer's e-mail on the order, as a cart does.
  order_email_missing: 400,
  // Refused so no money is asked for twice or recorded as moved when it did not move.
  collection_already_paid: 400,
  refund_not_supported: 400,
  // A capture of a Pix or boleto that settlement did not start (the admin's Capture button).
  capture_not_started: 400,
  invalid_refund: 400,
  invalid_note: 400,
  charge_not_held: 400,
  webhook_unauthorized: 401,
  // Nothing by that name (or not for this caller).
  session_not_found: 404,
  order_not_found: 404,
  cart_not_found: 404,
  charge_not_found: 404,
  provider_not_found: 404,
  qr_not_available: 404,
  // A file of the payment page's element that does not exist (the page's `/pix-checkout/assets/`).
  asset_not_found: 404,
  payload_too_large: 413,
  // Passing: nothing was charged or changed; the same request may be sent again.
  charge_bound_elsewhere: 409,
  collection_busy: 409,
  // Money waiting for the merchant's decision is not closed by resolving its note.
  charge_needs_decision: 409,
  qr_not_ready: 409,
  // An order's own collection that can no longer be paid: Medusa canceled it, its order is
  // canceled, or the order owes nothing now.
  collection_canceled: 409,
  // "Cobrar por Pix" on an order that already has a collection to pay: send its link instead.
  collection_exists: 409,
  order_canceled: 409,
  nothing_owed: 409,
  // A session request on an order's collection that would replace the shopper's live code,
  // from someone who cannot show the code it renews (checkout/session-tie.ts).
  payment_code_in_progress: 409,
  // A new session of a collection whose paid code Medusa has not captured yet (settlement
  // retries it): Medusa would first delete that code's session.
  payment_capture_pending: 409,
  // Pix returned by the MED (docs/ledger.md): a mark or outcome that would move money that is
  // not where it says.
  med_not_contestable: 409,
  med_already_open: 409,
  med_amount_exceeds_captured: 409,
  med_not_open: 409,
  invalid_med: 400,
  refresh_rate_limited: 429,
  too_many_waiting_creates: 429,
  // An order placed before payment reserves stock: one client, mailbox or CPF holds a few.
  too_many_unpaid_orders: 429,
  too_many_streams: 429,
  payment_service_unavailable: 502,
  // The plugin's tables are missing: nothing is shown or believed without its records.
  plugin_not_installed: 503,
  // The store's own database failed or a lock wait ran out: nothing was charged or changed,
  // and the same request may be sent again after `Retry-After` (store-failure.ts). Through a
  // Medusa workflow (session create, cart completion) Medusa answers it as its 409.
  store_unavailable: 503,
  stream_limit_reached: 503,
  // A bug: not the caller's input, the payment service or the store's database. Logged with a
  // fresh error id, which the message gives; asking again does not help, so no storefront
  // retries it (unexpected-error.ts). Through Medusa's session and completion routes too.
  internal_error: 500,
  // The merchant's configuration or an unexpected answer; logged, not the caller's input.
  invalid_options: 500,
  capture_not_recorded: 500,
  create_input_gone: 500,
  payment_service_error: 502,
} as const satisfies Record<string, number>;

/** Stable codes of the errors this plugin raises itself; API errors keep the API's own code. */
export type PixCheckoutErrorCode = keyof typeof ERROR_STATUS;

/** The Medusa error type that makes Medusa's handler answer with (about) this status. */
function medusaTypeFor(status: number): string {
  if (status === 400 || status === 413) return MedusaError.Types.INVALID_DATA;
  if (status === 401) return MedusaError.Types.UNAUTHORIZED;
  if (status === 404) return MedusaError.Types.NOT_FOUND;
  // Medusa has no 429/502/503 type that keeps a message; CONFLICT (409, "you may retry")
  // is the one that tells a client the same request may succeed later.
  if (status === 409 || status === 429 || status === 503) return MedusaError.Types.CONFLICT;
  return MedusaError.Types.UNEXPECTED_STATE;
}

/**
 * The one error class of this package. It extends MedusaError so Medusa's handler maps it to
 * an HTTP status instead of a 500 when it crosses a Medusa workflow, and it carries a stable
 * `code` callers branch on and the `status` this plugin's own routes answer with.
 */
export class PixCheckoutError extends MedusaError {
  /** Stable machine-readable code (the API's own code when the API reported the error). */
  override readonly code: string;
  /** The HTTP status of this error in the plugin's own routes. */
  readonly status: number;

  constructor(code: PixCheckoutErrorCode, message: string);
  /** An error named by the payment API's own code, with the status to answer it with. */
  constructor(code: string, message: string, status: number);
  constructor(code: string, message: string, status?: number) {
    const resolved = status ?? ERROR_STATUS[code as PixCheckoutErrorCode] ?? 500;
    super(medusaTypeFor(resolved), message, code);
    this.name = "PixCheckoutError";
    this.code = code;
    this.status = resolved;
  }
}

/** Answers a request of the plugin's own routes with `{ code, message }` and the code's status. */
export function sendError(
  res: MedusaResponse,
  code: PixCheckoutErrorCode,
  message: string,
  extra: Record<string, unknown> = {},
): void {
  retryAfterFor(res, code);
  res.status(ERROR_STATUS[code]).json({ code, message, ...extra });
}

/** `store_unavailable` always says when to ask again, whichever route answers it. */
function retryAfterFor(res: MedusaResponse, code: string): void {
  if (code !== "store_unavailable") return;
  res.setHeader("Retry-After", String(STORE_RETRY_AFTER_SECONDS));
  // The element on a storefront's own origin reads it (CORS hides other headers).
  res.setHeader("Access-Control-Expose-Headers", "Retry-After");
}

/** Answers with a raised error: its own status and code; anything else is a 500 with no detail. */
export function sendRaised(res: MedusaResponse, error: unknown): void {
  if (error instanceof PixCheckoutError) {
    retryAfterFor(res, error.code);
    res.status(error.status).json({ code: error.code, message: error.message });
    return;
  }
  throw error;
}
