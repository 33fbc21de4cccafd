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
  return checkPluginOptions(entry?.options, { [section]: schema })[section] as z.output<S>;
}

/**
 * Parses each named section of the plugin's options (`options[section]`, `{}` when absent) and
 * returns them after defaults. Throws one `invalid_options` naming every wrong field of every
 * section as `section.field`.
 */
export function checkPluginOptions(
  options: Record<string, unknown> | undefined,
  schemas: Record<string, z.ZodTypeAny>,
): Record<string, unknown> {
  const parsed: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [section, schema] of Object.entries(schemas)) {
    const result = schema.safeParse(options?.[section] ?? {});
    if (result.success) parsed[section] = result.data;
    else {
      for (const issue of result.error.issues) {
        problems.push(`${[section, ...issue.path].join(".")}: ${issue.message}`);
      }
    }
  }
  if (problems.length > 0) {
    throw new PixCheckoutError(
      "invalid_options",
      `Pix Checkout plugin options are invalid: ${problems.join("; ")}.`,
    );
  }
  return parsed;
}
