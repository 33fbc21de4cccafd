import { redact } from "@pix-checkout/client";
import { PixCheckoutError } from "../../../internal/platform/errors";
import { isPaymentServiceError, isStoreFailure } from "../../../internal/platform/store-failure";
import { toServiceError } from "../../../internal/platform/service-error";
import { ChargeBoundElsewhereError } from "../../../internal/records/charges";
import type { PluginLogger } from "../../../internal/platform/logger";
import { reportUnexpected } from "../../../internal/platform/unexpected-error";

/**
 * When the failure came: before the shopper saw a code (nothing can have been paid, and the
 * message says so), or after (authorize, cancel, refund: a payment may well be made).
 */
export type ProviderStage = "before_code" | "after_code";

/**
 * The provider's one translation of a failure into the answer Medusa passes on: the plugin's
 * own errors as they are; the payment API's with its code (service-error.ts); the plugin's
 * tables missing as `plugin_not_installed` (fail closed: no code is shown, and no payment is
 * believed on the API's word alone, without the plugin's record of it); a failure of the
 * store's database (a lost connection, a timeout, a lock, a serialization failure: by its
 * SQLSTATE or driver code, store-failure.ts) as a retryable `store_unavailable`. Anything else
 * (a `TypeError`, a constraint violation, an exception a trigger raised) is a bug: logged with
 * an error id and its stack, and answered `500 internal_error` with that id, never "try again".
 */
export function providerError(
  error: unknown,
  logger: PluginLogger,
  stage: ProviderStage,
): PixCheckoutError {
  if (error instanceof PixCheckoutError) return error;
  if (error instanceof ChargeBoundElsewhereError) {
    logger.error(redact(error.message));
    return new PixCheckoutError(
      "charge_bound_elsewhere",
      "This payment could not be prepared; nothing was charged. Try again in a few seconds.",
    );
  }
  if (isMissingTable(error)) {
    reportMissingTables(logger);
    return new PixCheckoutError(
      "plugin_not_installed",
      "Pix Checkout is not set up in this store yet (its tables are missing); nothing was charged or recorded. The store adds @pix-checkout/medusa to `plugins` in medusa-config and runs `npx medusa db:migrate`.",
    );
  }
  if (isStoreFailure(error)) {
    logger.error(
      `could not record charge bookkeeping: ${redact((error as Error)?.message ?? String(error))}`,
    );
    return new PixCheckoutError(
      "store_unavailable",
      stage === "before_code"
        ? "The store could not record this payment (database unavailable); nothing was charged. Try again in a few seconds."
        : "The store could not record this payment's state (database unavailable). Nothing is lost: a payment already made is kept and settled when the database is back. Try again in a few seconds.",
    );
  }
  if (isPaymentServiceError(error)) return toServiceError(error);
  const errorId = reportUnexpected(logger, `a payment provider method (${stage})`, error);
  return new PixCheckoutError(
    "internal_error",
    stage === "before_code"
      ? `The store failed unexpectedly while preparing this payment (error id ${errorId}); nothing was charged. This is a bug in the store, not a passing failure: asking again will not help. The store's log has the details under this error id; report it to the store.`
      : `The store failed unexpectedly while handling this payment (error id ${errorId}). A payment already made is kept. This is a bug in the store, not a passing failure: asking again will not help. The store's log has the details under this error id; report it to the store.`,
  );
}

let missingTablesReported = false;

function reportMissingTables(logger: PluginLogger): void {
  if (missingTablesReported) return;
  missingTablesReported = true;
  logger.error(
    "the plugin's tables are missing: add @pix-checkout/medusa to `plugins` in medusa-config and run `npx medusa db:migrate`. Until then every Pix and boleto session is refused.",
  );
}

/** Postgres `undefined_table` (42P01): the plugin's migrations never ran. */
function isMissingTable(error: unknown): boolean {
  const err = error as { code?: unknown; message?: unknown };
  return (
    err?.code === "42P01" ||
    (typeof err?.message === "string" &&
      /relation "pix_checkout_[a-z_]+" does not exist/.test(err.message))
  );
}
