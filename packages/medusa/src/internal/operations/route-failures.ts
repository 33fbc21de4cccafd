import { randomBytes } from "node:crypto";
import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { errorHandler as medusaErrorHandler } from "@medusajs/framework/http";
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils";
import { redact } from "@pix-checkout/client";
import { ERROR_STATUS } from "../platform/errors";
import { isStoreFailure, STORE_RETRY_AFTER_SECONDS } from "../platform/store-failure";
import { createPluginLogger } from "../platform/logger";
import { reportUnexpected } from "../platform/unexpected-error";
import { brokenLinkPage, pageHeaders, storeUnavailablePage } from "../recovery/pages";

/** The plugin's own paths: its store, admin and webhook routes and its public pages. */
const PLUGIN_PATH = /^\/(store\/|admin\/|hooks\/)?pix-checkout(\/|$)/;

/** The plugin's pages a person opens in a browser: they get a page, not JSON. */
const PAGE_PATH = /^\/pix-checkout\/(payment-collection|recovery)\//;

/**
 * Express throws this, with status 400, before any route runs, when a path parameter is not
 * valid percent-encoding (`%`, `%zz`, `%E0%A4%A`).
 */
function isMalformedPath(error: unknown): boolean {
  const err = error as { status?: unknown; message?: unknown } | undefined;
  return (
    error instanceof URIError ||
    (err?.status === 400 &&
      typeof err.message === "string" &&
      err.message.startsWith("Failed to decode param"))
  );
}

/**
 * The app's error handler, registered by the plugin's middlewares.ts (`errorHandler`): for the
 * plugin's own paths it answers with the plugin's error tree instead of Medusa's `500
 * unknown_error`:
 *
 * - the store's database failed, or a lock wait ran out (store-failure.ts): `503
 *   store_unavailable` with `Retry-After`, on every route, page and the webhook (whose
 *   non-2xx makes the payment service deliver it again);
 * - a path Express cannot decode: `400 invalid_path`;
 * - a bug (an error no route answered and Medusa has no answer for: a `TypeError`, a
 *   constraint violation): `500 internal_error`, logged with a fresh error id and its stack,
 *   and the message gives the id (unexpected-error.ts).
 *
 * The pages (payment link, a reminder's links) get a small page in Portuguese instead of JSON
 * for the first two. Medusa's own errors (the plugin's are Medusa errors), Express's HTTP
 * errors, and every other path of the store go to Medusa's own handler unchanged, so Medusa's
 * routes answer exactly what Medusa answers. A store whose own middlewares.ts sets
 * an `errorHandler` replaces this one (Medusa keeps the last loaded, the store's).
 */
export function pixCheckoutErrorHandler() {
  const medusa = medusaErrorHandler();
  return function pixCheckoutErrors(
    error: unknown,
    req: MedusaRequest,
    res: MedusaResponse,
    next: MedusaNextFunction,
  ): void {
    const path = req.path ?? "";
    if (!PLUGIN_PATH.test(path)) {
      medusa(error as Error, req, res, next);
      return;
    }
    // A response already under way (a stream) cannot change its status: Express's own final
    // handler closes the connection, and the element reconnects or polls.
    if (res.headersSent) {
      next(error);
      return;
    }
    const page = PAGE_PATH.test(path);
    if (isMalformedPath(error)) {
      if (page) {
        sendPage(res, brokenLinkPage());
        return;
      }
      res.status(ERROR_STATUS.invalid_path).json({
        code: "invalid_path",
        message:
          "The path is not valid percent-encoding (a broken %-escape); send the id exactly as the API gave it.",
      });
      return;
    }
    if (!isStoreFailure(error)) {
      if (medusaAnswers(error)) {
        medusa(error as Error, req, res, next);
        return;
      }
      // Logged without the path (a reminder's token lives in it); the answer names no table,
      // query or file, only the id the log line carries.
      const errorId = reportUnexpected(loggerOf(req), `${req.method} ${familyOf(path)}`, error);
      res.setHeader("Cache-Control", "no-store");
      res.status(ERROR_STATUS.internal_error).json({
        code: "internal_error",
        message: `The store failed unexpectedly (error id ${errorId}). This is a bug in the store, not a passing failure: asking again will not help. The store's log has the details under this error id; report it to the store.`,
      });
      return;
    }
    // Logged without the path (a reminder's token lives in it) and redacted; the answer names
    // no table, query or host.
    loggerOf(req).error(
      `the store's database failed during ${req.method} ${familyOf(path)}: ${redact(
        String((error as Error)?.message ?? error),
      )}; answered 503 store_unavailable`,
    );
    res.setHeader("Retry-After", String(STORE_RETRY_AFTER_SECONDS));
    res.setHeader("Access-Control-Expose-Headers", "Retry-After");
    res.setHeader("Cache-Control", "no-store");
    if (page) {
      sendPage(
        res,
        storeUnavailablePage(STORE_RETRY_AFTER_SECONDS, randomBytes(16).toString("base64")),
      );
      return;
    }
    res.status(ERROR_STATUS.store_unavailable).json({
      code: "store_unavailable",
      message: `The store's database is unavailable for a moment; nothing was charged or changed. Try again in ${STORE_RETRY_AFTER_SECONDS} seconds.`,
    });
  };
}

/**
 * The Medusa error types Medusa's handler answers with a status of their own and the error's
 * message (every type a `PixCheckoutError` takes is here); a Medusa error of any other type is
 * answered `500 unknown_error`, as an error that is not Medusa's.
 */
const MEDUSA_ANSWERED_TYPES = new Set<string>([
  MedusaError.Types.CONFLICT,
  MedusaError.Types.UNAUTHORIZED,
  MedusaError.Types.FORBIDDEN,
  MedusaError.Types.PAYMENT_AUTHORIZATION_ERROR,
  MedusaError.Types.DUPLICATE_ERROR,
  MedusaError.Types.NOT_ALLOWED,
  MedusaError.Types.INVALID_DATA,
  MedusaError.Types.NOT_FOUND,
  MedusaError.Types.DB_ERROR,
  MedusaError.Types.UNEXPECTED_STATE,
  MedusaError.Types.INVALID_ARGUMENT,
]);

/**
 * Whether Medusa's handler has an answer of its own for this error: a Medusa error (the
 * plugin's `PixCheckoutError` is one) by its type and code, and an HTTP error of Express or
 * body-parser by its status. Anything else Medusa answers `500 unknown_error`, with no trace of
 * which failure it was: that is a bug, and the plugin answers it with an error id.
 */
function medusaAnswers(error: unknown): boolean {
  if (!error || typeof error !== "object") return false;
  const err = error as {
    __isMedusaError?: unknown;
    type?: unknown;
    statusCode?: unknown;
    expose?: unknown;
  };
  if (err.__isMedusaError === true) {
    return typeof err.type === "string" && MEDUSA_ANSWERED_TYPES.has(err.type);
  }
  return typeof err.statusCode === "number" && typeof err.expose === "boolean";
}

function sendPage(
  res: MedusaResponse,
  page: { status: number; html: string; nonce?: string },
): void {
  for (const [name, value] of Object.entries(pageHeaders([], page.nonce))) {
    res.setHeader(name, value);
  }
  res.status(page.status).type("html").send(page.html);
}

/** The route family, never the path itself: `/pix-checkout/recovery/<token>` carries a token. */
function familyOf(path: string): string {
  return path
    .split("/")
    .slice(0, path.startsWith("/pix-checkout/") ? 3 : 4)
    .join("/");
}

function loggerOf(req: MedusaRequest) {
  try {
    return createPluginLogger(req.scope?.resolve(ContainerRegistrationKeys.LOGGER));
  } catch {
    return createPluginLogger(console);
  }
}
