import { redact, redactValue } from "@pix-checkout/client";

/** The logger shape Medusa injects (`logger` in every container). */
export interface MedusaLoggerLike {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, error?: unknown): void;
  debug?(message: string): void;
}

/** A logger whose every line has already been through `redact`. */
export interface PluginLogger {
  debug(message: string, meta?: unknown): void;
  info(message: string, meta?: unknown): void;
  warn(message: string, meta?: unknown): void;
  error(message: string, meta?: unknown): void;
}

function line(message: string, meta: unknown): string {
  const text = `[pix-checkout] ${redact(message)}`;
  return meta === undefined ? text : `${text} ${JSON.stringify(redactValue(meta))}`;
}

/**
 * Wraps Medusa's logger so nothing the plugin (or the client it drives) logs can carry an
 * API key or a payer document: every line goes through the one redaction function.
 */
export function createPluginLogger(logger: MedusaLoggerLike | undefined): PluginLogger {
  return {
    debug: (message, meta) => logger?.debug?.(line(message, meta)),
    info: (message, meta) => logger?.info(line(message, meta)),
    warn: (message, meta) => logger?.warn(line(message, meta)),
    error: (message, meta) => logger?.error(line(message, meta)),
  };
}
