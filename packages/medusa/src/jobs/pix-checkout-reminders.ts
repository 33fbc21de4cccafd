import type { MedusaContainer } from "@medusajs/framework/types";
import { redact } from "@pix-checkout/client";
import { remindOnce, type ReminderReport } from "../internal/recovery/send-reminders";
import { recoveryOptions } from "../internal/checkout/recovery-options";
import { settleContext } from "../internal/settlement/context";

/**
 * Sends the reminders that are due (plugin option `recovery`; off by default). Every 30 s, so a
 * Pix code's "10 minutes left" goes within half a minute of its time. Instances need no lock
 * between them: each claims different charges (`skip locked`), and each step is sent once
 * (records/reminders.ts). A pass with nothing due is one indexed probe. Returns the pass's
 * report, or null when reminders are off.
 */
export default async function pixCheckoutReminders(
  container: MedusaContainer,
): Promise<ReminderReport | null> {
  const ctx = settleContext(container);
  if (!recoveryOptions(ctx.config).enabled) return null;
  try {
    const report = await remindOnce(ctx, new Date());
    if (report.sent + report.skipped > 0) {
      ctx.logger.info(
        `reminders: ${report.sent} sent, ${report.skipped} not needed, ${report.deferred} later`,
      );
    }
    return report;
  } catch (error) {
    ctx.logger.error(
      `a reminders pass failed: ${redact((error as Error)?.message ?? String(error))}`,
    );
    throw error;
  }
}

/** Medusa scheduled-job config (jobs run in worker mode only). */
export const config = {
  name: "pix-checkout-reminders",
  schedule: { interval: 30_000 },
};
