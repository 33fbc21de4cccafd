import type { LoaderOptions } from "@medusajs/framework/types";
import { fairOptionsSchema } from "../../../internal/create-line/fair-options";
import { alertOptionsSchema } from "../../../internal/operations/alert-options";
import { streamOptionsSchema } from "../../../internal/storefront/live-status/options";
import { notifyOptionsSchema } from "../../../internal/storefront/notify-options";
import { recoveryOptionsSchema } from "../../../internal/checkout/recovery-options";
import { bankCalendar, setStoreBankCalendar } from "../../../internal/platform/business-days";
import {
  calendarOptionsSchema,
  type CalendarOptions,
} from "../../../internal/platform/calendar-options";
import { checkPluginOptions } from "../../../internal/platform/plugin-options";

/** Every section of the plugin's own options, by its key. */
export const PLUGIN_OPTION_SECTIONS = {
  fairness: fairOptionsSchema,
  notifications: notifyOptionsSchema,
  stream: streamOptionsSchema,
  alerts: alertOptionsSchema,
  recovery: recoveryOptionsSchema,
  calendar: calendarOptionsSchema,
};

/**
 * Medusa gives a plugin's modules the plugin entry's `options`, and runs their loaders when it
 * starts (server, worker, `medusa exec`, `db:migrate`). Each section is read where it is used,
 * at a grant, a message or a stream, so a wrong value would otherwise fail only the first
 * checkout that reads it; here it stops the start instead, naming every wrong field.
 *
 * `calendar` is the one section read here rather than where it is used: its extra holidays
 * become the process's bank calendar (internal/platform/business-days.ts), which every count of
 * business days uses from then on.
 */
export default async function checkPluginOptionsOnStart({
  options,
}: LoaderOptions<Record<string, unknown>>): Promise<void> {
  const parsed = checkPluginOptions(options, PLUGIN_OPTION_SECTIONS);
  const { extraHolidays } = parsed.calendar as CalendarOptions;
  setStoreBankCalendar(bankCalendar({ extraHolidays }));
}
