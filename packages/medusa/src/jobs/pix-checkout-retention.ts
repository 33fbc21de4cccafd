import type { MedusaContainer } from "@medusajs/framework/types";
import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import { registeredProviders } from "../internal/platform/provider-registry";
import {
  retentionDaysOf,
  runRetention,
  type RetentionReport,
} from "../internal/operations/retention";
import { settleContext } from "../internal/settlement/context";
import { runAlone } from "../internal/records/job-lock";
import { redact } from "@pix-checkout/client";
import { pruneMailWindows } from "../internal/storefront/mail-window";
import { notifyOptions } from "../internal/storefront/notify-options";

/** One instance at a time; a second one has nothing to add. */
export const RETENTION_LOCK = "pix-checkout:retention";

/**
 * Hourly: deletes the finished webhook deliveries of charges finished more than `retentionDays`
 * ago and compacts their timelines (README "Retention"). Kept out of the 15 s reconciliation
 * pass so that pass stays the size of what is due, and so a first run over years of history
 * (up to a minute of short batches) never delays a check. Returns the run's report, or null
 * when retention is off or another instance holds the lock.
 */
export default async function pixCheckoutRetention(
  container: MedusaContainer,
): Promise<RetentionReport | null> {
  const ctx = settleContext(container);
  const config = container.resolve(ContainerRegistrationKeys.CONFIG_MODULE);
  // Message windows are a rate limit, not history: pruned whatever `retentionDays` says.
  await pruneMailWindows(ctx.db, notifyOptions(config).codeMailWindowMinutes).catch(
    (error: unknown) =>
      ctx.logger.warn(
        `pruning message windows failed: ${redact((error as Error)?.message ?? String(error))}`,
      ),
  );
  const days = retentionDaysOf(registeredProviders(config));
  if (days === false) return null;
  try {
    const run = await runAlone(
      container,
      ctx.db,
      RETENTION_LOCK,
      (signal) => runRetention(ctx.db, days, { signal }),
      { waitSeconds: 1, deadHolderSeconds: 30, passSeconds: 600 },
    );
    if (!run.ran) {
      ctx.logger.debug("retention skipped: another instance holds the lock");
      return null;
    }
    const report = run.value;
    if (report.charges + report.deliveries + report.events > 0) {
      ctx.logger.info(
        `retention: compacted ${report.charges} charges finished over ${days} days ago (${report.events} events, ${report.deliveries} deliveries deleted)${report.more ? "; more next hour" : ""}`,
      );
    }
    return report;
  } catch (error) {
    // Every other failure is real, and a pass that fails every 15 s must be seen.
    ctx.logger.error(
      `a retention run failed: ${redact((error as Error)?.message ?? String(error))}`,
    );
    throw error;
  }
}

/** Medusa scheduled-job config (jobs run in worker mode only): at minute 23 of every hour. */
export const config = {
  name: "pix-checkout-retention",
  schedule: "23 * * * *",
};
