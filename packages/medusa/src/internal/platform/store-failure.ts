/**
 * The one place that says whether an error is a failure of the store's own database (or of a
 * lock the store waits on), not of the caller's input, the payment service or the plugin's
 * code. The provider (core/errors.ts) and the plugin's routes (route-failures.ts) both ask here,
 * so "the store's database is away" is one answer, `503 store_unavailable`, wherever it shows.
 * It is decided by what the error says (a SQLSTATE, a driver's code or message), never by what
 * it lacks: an error without a code is not the database's for lacking one (a `TypeError` is a
 * bug, and a bug answered "try again" is retried by every storefront and hides there; see
 * unexpected-error.ts).
 */

/**
 * Postgres SQLSTATEs that mean "not now", never "not this request": a lost or refused
 * connection (class 08), too many connections or no memory/disk (53), the server shutting down
 * or a statement or lock timeout (57, 55P03), a deadlock or serialization failure that a retry
 * resolves (40001, 40P01), and an I/O error (58).
 */
const PASSING_SQLSTATE = /^(08|53|57|58)[0-9A-Z]{3}$|^(55P03|40001|40P01)$/;

/** Node's socket errors on the way to Postgres (a cut, a refused or timed-out connection). */
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "ECONNABORTED",
]);

/**
 * What node-postgres, knex/tarn and MikroORM say when a connection is lost or none can be had:
 * they carry no SQLSTATE, only these messages (or names).
 */
const CONNECTION_MESSAGE =
  /Connection terminated|Client has encountered a connection error|Connection ended unexpectedly|timeout exceeded when trying to connect|Timeout acquiring a connection|Unable to acquire a connection|connect ECONNREFUSED|read ECONNRESET|Client was closed and is not queryable|Cannot use a pool after calling end|the database system is (starting up|shutting down)|terminating connection due to/i;

const CONNECTION_NAMES = new Set(["KnexTimeoutError", "ConnectionException", "TimeoutError"]);

/** The shape of the payment client's and the plugin's own codes (`connection_error`, ...). */
const SERVICE_CODE = /^[a-z][a-z0-9_]*$/;

/** Medusa's locking module rejects a wait that ran out with exactly this message (lock-held.ts). */
const LOCK_WAIT_MESSAGE = "Timed-out acquiring lock.";

/**
 * A failure of the store's own database or a lock timeout: the same request may succeed in a
 * few seconds, and nothing was changed by this one (a statement that failed rolled back).
 * Follows `cause`/`originalError` (MikroORM, Medusa workflows and AggregateError wrap the
 * driver's error) a few levels deep. Anything else (a bug, a caller's bad input, the payment
 * service) is not this, so it is never hidden behind "try again".
 */
export function isStoreFailure(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== "object" || depth > 4) return false;
  const err = error as {
    code?: unknown;
    sqlState?: unknown;
    name?: unknown;
    message?: unknown;
    cause?: unknown;
    originalError?: unknown;
    errors?: unknown;
  };
  // The payment client's (and the plugin's own) errors carry a snake_case code: a socket error
  // under one of those is the payment service's, not the store's.
  if (typeof err.code === "string" && SERVICE_CODE.test(err.code)) return false;
  for (const code of [err.code, err.sqlState]) {
    if (typeof code !== "string") continue;
    if (PASSING_SQLSTATE.test(code) || SOCKET_CODES.has(code)) return true;
  }
  if (typeof err.name === "string" && CONNECTION_NAMES.has(err.name)) {
    if (err.name !== "TimeoutError" || /connection|acquir/i.test(String(err.message))) return true;
  }
  if (typeof err.message === "string") {
    if (err.message === LOCK_WAIT_MESSAGE || CONNECTION_MESSAGE.test(err.message)) return true;
  }
  if (Array.isArray(err.errors) && err.errors.some((inner) => isStoreFailure(inner, depth + 1))) {
    return true;
  }
  return isStoreFailure(err.cause, depth + 1) || isStoreFailure(err.originalError, depth + 1);
}

/**
 * An error of the payment service's client (or the plugin's own): it carries a snake_case
 * `code` (`connection_error`, `invalid_request`, the API's own), which service-error.ts turns
 * into the plugin's answer. A Postgres error's SQLSTATE (`23505`, `P0001`), a socket's
 * (`ECONNRESET`) and Node's (`ERR_INVALID_ARG_TYPE`) are not of that shape; Medusa's own errors
 * (whose codes look the same) are not the service's either.
 */
export function isPaymentServiceError(error: unknown): boolean {
  if (!error || typeof error !== "object") return false;
  if ((error as { __isMedusaError?: unknown }).__isMedusaError === true) return false;
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && SERVICE_CODE.test(code);
}

/**
 * How long a caller waits before asking again after `503 store_unavailable`, in seconds (the
 * `Retry-After` header). A database that fails over, or a pool that reconnects, is back within
 * a few seconds; a shorter wait only adds load to a database that is catching up.
 */
export const STORE_RETRY_AFTER_SECONDS = 3;
