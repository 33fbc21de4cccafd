import { redactValue, redact } from "./redact.js";

/** Where the client writes diagnostics. Any object with these four methods works (pino, console). */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

const noop = (): void => {};

/** The default: a library stays quiet unless its host asks for output. */
export const silentLogger: Logger = { debug: noop, info: noop, warn: noop, error: noop };

/**
 * Wraps the caller's logger so every line goes through `redact`, whatever the call site
 * passes. A throwing logger must not break a payment call, so its errors are swallowed.
 */
export function redactingLogger(target: Logger): Logger {
  const wrap =
    (level: keyof Logger) =>
    (message: string, fields?: Record<string, unknown>): void => {
      try {
        const safeFields = fields === undefined ? undefined : redactValue(fields);
        target[level](redact(message), safeFields as Record<string, unknown> | undefined);
      } catch {
        // Logging is best effort.
      }
    };
  return { debug: wrap("debug"), info: wrap("info"), warn: wrap("warn"), error: wrap("error") };
}
