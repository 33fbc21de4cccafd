import type { ConfigModule } from "@medusajs/framework/types";
import { z } from "zod";
import { pluginOptionSection } from "../../platform/plugin-options";

/**
 * Options of the store stream, written under the plugin's entry in medusa-config:
 * `plugins: [{ resolve: "@pix-checkout/medusa", options: { stream: { ... } } }]`.
 */
export const streamOptionsSchema = z.object({
  maxConnections: z.number().int().min(1).max(100_000).default(2_000),
  /**
   * Streams one client (an address as `fairness` says it) may hold open on this instance: a
   * shopper needs one, a household a few; past it the client polls instead (429).
   */
  maxPerClient: z.number().int().min(1).max(10_000).default(10),
  /**
   * Shopper re-checks ("I already paid") one client (an address as `fairness` says it) may have
   * the store send the payment service a minute, on all instances together: each is one API
   * read. Past it that client is told to wait (429 with Retry-After), and every other client
   * still has its own; the payment is still followed by its webhook and reconciliation. A
   * session is re-checked at most once per 10 s anyway, so 12 covers two open sessions.
   */
  refreshesPerClientPerMinute: z.number().int().min(1).max(10_000).default(12),
  idleTimeoutMs: z.number().int().min(5_000).max(3_600_000).default(600_000),
  keepAliveMs: z.number().int().min(1_000).max(30_000).default(15_000),
  pollIntervalMs: z.number().int().min(250).max(60_000).default(1_000),
});

/** Stream options after defaults. */
export type StreamOptions = z.output<typeof streamOptionsSchema>;

/** Reads and validates `options.stream` of this plugin's entry (defaults when absent). */
export function streamOptions(configModule: ConfigModule): StreamOptions {
  return pluginOptionSection(configModule, "stream", streamOptionsSchema);
}
