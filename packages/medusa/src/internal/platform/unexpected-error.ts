import { randomUUID } from "node:crypto";
import { redact, redactValue } from "@pix-checkout/client";
import type { PluginLogger } from "./logger";

/** How many `cause`s deep the log line follows a wrapped error. */
const CAUSE_DEPTH = 3;

/**
 * Logs a failure that is nobody's input, not the payment service's and not the store's
 * database (store-failure.ts): a bug. Its stack goes to the log under a fresh error id, redacted
 * (no API key, token or password); the answer, a `500 internal_error`, gives only the id, so a
 * shopper or a storefront can report it and the merchant can find the line. Answers the id.
 *
 * A bug is never answered "try again": every storefront asks a passing failure again (three
 * times, for `store_unavailable`), which only repeats the bug and hides it behind patience.
 */
export function reportUnexpected(logger: PluginLogger, where: string, error: unknown): string {
  const errorId = randomUUID();
  logger.error(
    `unexpected error ${errorId} in ${where}, answered 500 internal_error (a bug to report, not a passing failure): ${describe(error, 0)}`,
  );
  return errorId;
}

/** The error's stack (or name and message), then its causes', each redacted. */
function describe(error: unknown, depth: number): string {
  if (!(error instanceof Error)) {
    if (error === null || typeof error !== "object") return redact(String(error));
    // A thrown object that is not an Error (a library's plain object): its fields, redacted.
    try {
      return JSON.stringify(redactValue(error));
    } catch {
      return "a thrown object that cannot be printed";
    }
  }
  const own = redact(error.stack ?? `${error.name}: ${error.message}`);
  const cause = (error as { cause?: unknown }).cause;
  return cause !== undefined && depth < CAUSE_DEPTH
    ? `${own}\ncaused by: ${describe(cause, depth + 1)}`
    : own;
}
