/**
 * `@pix-checkout/client`: a typed client for the Brazilian payment-collection API (Pix and
 * boleto), both spec variants behind one normalized model. Everything public is exported here;
 * nothing under `internal/` is importable.
 */
export { PixClient, type VerifiedChargeEvent, type VerifiedTransferEvent } from "./client.js";
export type { PixClientOptions } from "./internal/config.js";
export type { Logger } from "./internal/logger.js";
export type { Clock } from "./internal/clock.js";
export type { PagePromise } from "./internal/pagination.js";
export type { FindAfterUnknownOutcomeOptions } from "./resources/charges.js";
export type { Charges } from "./resources/charges.js";
export type { Transactions } from "./resources/transactions.js";
export type { BalanceResource } from "./resources/balance.js";
export type { Withdrawals } from "./resources/withdrawals.js";
export {
  AuthenticationError,
  ChargeMatchAmbiguousError,
  ChargeOutcomeUnknownError,
  ConfigurationError,
  ConnectionError,
  InvalidRequestError,
  NotFoundError,
  PermissionError,
  PixError,
  RateLimitError,
  RequestAbortedError,
  ResponseValidationError,
  ServerError,
  TimeoutError,
  VariantMismatchError,
  WebhookParseError,
  type FieldIssue,
  type UnknownOutcomeDetails,
} from "./errors.js";
export * from "./models.js";
export {
  isChargeEvent,
  parseWebhook,
  WEBHOOK_EVENTS,
  type ChargeWebhookEvent,
  type TransferWebhookEvent,
  type WebhookEvent,
} from "./webhooks.js";
export { maskDocument, redact, redactValue } from "./internal/redact.js";
