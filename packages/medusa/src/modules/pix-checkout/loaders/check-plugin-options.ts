import type { LoaderOptions } from "@medusajs/framework/types";
import { fairOptionsSchema } from "../../../internal/create-line/fair-options";
import { alertOptionsSchema } from "../../../internal/operations/alert-options";
import { streamOptionsSchema } from "../../../internal/storefront/live-status/options";
import { notifyOptionsSchema } from "../../../internal/storefront/notify-options";
import { recoveryOptionsSchema } from "../../../internal/checkout/recovery-options";
import { checkPluginOptions } from "../../../internal/platform/plugin-options";

/** Every section of the plugin's own options, by its key. */
export const PLUGIN_OPTION_SECTIONS = {
  fairness: fairOptionsSchema,
  notifications: notifyOptionsSchema,
  stream: streamOptionsSchema,
  alerts: alertOptionsSchema,
  recovery: recoveryOptionsSchema,
};

/**
 * Medusa gives a plugin's modules the plugin entry's `options`, and runs their loaders when it
 * starts (server, worker, `medusa exec`, `db:migrate`). Each section is read where it is used,
 * at a grant, a message or a stream, so a wrong value would otherwise fail only the first
 * checkout that reads it; here it stops the start instead, naming every wrong field.
 */
export default async function checkPluginOptionsOnStart({
  options,
}: LoaderOptions<Record<string, unknown>>): Promise<void> {
  checkPluginOptions(options, PLUGIN_OPTION_SECTIONS);
}
