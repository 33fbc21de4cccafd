import type { MedusaContainer } from "@medusajs/framework/types";
import type { INotificationModuleService } from "@medusajs/framework/types";
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { redact } from "@pix-checkout/client";
import { healthReport, REFUND_DEADLINE_LINE } from "../internal/operations/health";
import { owedNearDeadline } from "../internal/operations/refund-deadlines";
import { chargeDeadlineLines } from "../internal/operations/refund-deadline-alerts";
import { ordersOfCharges } from "../internal/medusa/charge-orders";
import { readRegionProviders } from "../internal/medusa/region-providers";
import { alertOptions } from "../internal/operations/alert-options";
import { evaluateAlerts, type AlertEvaluation } from "../internal/operations/health-alerts";
import { createPluginLogger } from "../internal/platform/logger";
import { registeredProviders } from "../internal/platform/provider-registry";
import { probeStoreRedis } from "../internal/operations/redis-health";

/**
 * Reads the health card and tells the merchant of a line that turned bad or recovered and held
 * (README "Alerts"). Every worker runs it; the alert table decides which one sends each alert.
 * It only reads the checkout's tables and the service's balance, and never throws: an alert
 * that could not be sent is logged and tried again by a later run. Returns what the run did,
 * or null when alerts are off or the card could not be read.
 */
export async function evaluateHealthAlerts(
  container: MedusaContainer,
): Promise<AlertEvaluation | null> {
  const config = container.resolve(ContainerRegistrationKeys.CONFIG_MODULE);
  const options = alertOptions(config);
  if (!options.enabled) return null;
  const logger = createPluginLogger(container.resolve(ContainerRegistrationKeys.LOGGER));
  const db = container.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION);
  try {
    const regions = await readRegionProviders(container, (message) => logger.warn(message));
    // The store's Redis as this worker sees it: a failover it went through is told once it is
    // back (a Redis that stays down also stops the jobs that would say so).
    const redis = await probeStoreRedis(container);
    const report = await healthReport(db, registeredProviders(config), logger, regions, redis);
    const events = container.resolve(Modules.EVENT_BUS);
    const notifications = container.resolve<INotificationModuleService>(Modules.NOTIFICATION);
    // The devolução clock is told per charge (once at 15 days left, once at 5), not by the
    // card's line that counts them, so no one hears of the same money twice.
    const near = await owedNearDeadline(db, new Date(report.checked_at));
    const orders = near.length > 0 ? await ordersOfCharges(container, near) : new Map();
    return await evaluateAlerts(
      report.lines.filter((line) => line.id !== REFUND_DEADLINE_LINE),
      options,
      {
        db,
        logger,
        emit: (event) => events.emit(event),
        notify: (list) => notifications.createNotifications(list),
      },
      chargeDeadlineLines(near, orders),
    );
  } catch (error) {
    logger.warn(
      `health alerts could not be evaluated; the next run tries again: ${redact((error as Error)?.message ?? String(error))}`,
    );
    return null;
  }
}

export default async function pixCheckoutHealthAlerts(container: MedusaContainer): Promise<void> {
  await evaluateHealthAlerts(container);
}

/** Medusa scheduled-job config (jobs run in worker mode only): every minute. */
export const config = {
  name: "pix-checkout-health-alerts",
  schedule: { interval: 60_000 },
};
