import type { ConfigModule } from "@medusajs/framework/types";
import { z } from "zod";
import { PixCheckoutError } from "../../platform/errors";

/**
 * Options of the store stream, written under the plugin's entry in medusa-config:
 * `plugins: [{ resolve: "@pix-checkout/medusa", options: { stream: { ... } } }]`.
 */
export const streamOptionsSchema = z.object({
  maxConnections: z.number().int().min(1).max(100_000).default(2_000),
  idleTimeoutMs: z.number().int().min(5_000).max(3_600_000).default(600_000),
  keepAliveMs: z.number().int().min(1_000).max(30_000).default(15_000),
  pollIntervalMs: z.number().int().min(250).max(60_000).default(1_000),
});

/** Stream options after defaults. */
export type StreamOptions = z.output<typeof streamOptionsSchema>;

const OUR_PLUGIN = /@pix-checkout\/medusa$|[\\/]packages[\\/]medusa[\\/]?$/;

/** Reads and validates `options.stream` of this plugin's entry (defaults when absent). */
export function streamOptions(configModule: ConfigModule): StreamOptions {
  const plugins = (configModule.plugins ?? []) as (
    string | { resolve?: unknown; options?: unknown }
  )[];
  const entry = plugins.find(
    (p) => typeof p === "object" && typeof p.resolve === "string" && OUR_PLUGIN.test(p.resolve),
  ) as { options?: { stream?: unknown } } | undefined;
  const parsed = streamOptionsSchema.safeParse(entry?.options?.stream ?? {});
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `stream.${i.path.join(".")}: ${i.message}`);
    throw new PixCheckoutError(
      "invalid_options",
      `Pix Checkout plugin options are invalid. ${problems.join("; ")}.`,
    );
  }
  return parsed.data;
}
