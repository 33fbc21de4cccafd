import type { ConfigModule } from "@medusajs/framework/types";
import type { z } from "zod";
import { PixCheckoutError } from "./errors";

/** The plugin's entry under `plugins`: its package name, or a path to this package (a monorepo). */
const OUR_PLUGIN = /@pix-checkout\/medusa$|[\\/]packages[\\/]medusa[\\/]?$/;

/**
 * One section of the plugin's own options, `plugins: [{ resolve: "@pix-checkout/medusa",
 * options: { [section]: … } }]`, parsed by `schema` (its defaults when the section is absent).
 * Invalid options throw `invalid_options`, naming every wrong field as `section.field`.
 */
export function pluginOptionSection<S extends z.ZodTypeAny>(
  configModule: ConfigModule | undefined,
  section: string,
  schema: S,
): z.output<S> {
  const plugins = (configModule?.plugins ?? []) as (
    string | { resolve?: unknown; options?: unknown }
  )[];
  const entry = plugins.find(
    (p) => typeof p === "object" && typeof p.resolve === "string" && OUR_PLUGIN.test(p.resolve),
  ) as { options?: Record<string, unknown> } | undefined;
  const parsed = schema.safeParse(entry?.options?.[section] ?? {});
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${section}.${issue.path.join(".")}: ${issue.message}`,
    );
    throw new PixCheckoutError(
      "invalid_options",
      `Pix Checkout plugin options are invalid: ${problems.join("; ")}.`,
    );
  }
  return parsed.data as z.output<S>;
}
