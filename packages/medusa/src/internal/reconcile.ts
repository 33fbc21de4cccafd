import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import { processDelivery } from "./process-delivery";
import { keyOfProviderId, providerByKey, registeredProviders } from "./provider-registry";
import { redactString } from "./redact";
import { captureOnce, completeCartIfNeeded, settleCharge, type SettleContext } from "./settle";
import type { ParsedWebhook } from "./webhook-intake";

/** Charges and deliveries handled per run, so one run stays short. */
const BATCH = 100;
/** A delivery still `received` after this long lost its in-process worker (crash, deploy). */
const STALE_DELIVERY_MS = 30_000;

/** What one reconciliation run did. */
export interface ReconcileReport {
  checked: number;
  settled: number;
  deliveriesRetried: number;
  cartsCompleted: number;
  errors: number;
}

/**
 * One reconciliation pass, through the same state machine as webhooks:
 * 1. pending (or locally canceled) charges not checked within their provider's
 *    `reconcileIntervalMinutes`, or past expiry, are asked about;
 * 2. paid charges whose capture never finished (no claim, or a lapsed one) are captured;
 * 3. deliveries that were never processed, did not match yet, or failed are retried;
 * 4. paid carts that failed to become orders (pay-first) are completed.
 */
export async function reconcileOnce(
  ctx: SettleContext,
  now = new Date(),
): Promise<ReconcileReport> {
  const report: ReconcileReport = {
    checked: 0,
    settled: 0,
    deliveriesRetried: 0,
    cartsCompleted: 0,
    errors: 0,
  };
  const configModule = ctx.container.resolve(ContainerRegistrationKeys.CONFIG_MODULE);
  const providers = registeredProviders(configModule);
  if (providers.length === 0) return report;
  const shortest = Math.min(...providers.map((p) => p.options.reconcileIntervalMinutes));
  const due = await ctx.store.dueForReconciliation(
    new Date(now.getTime() - shortest * 60_000),
    now,
    BATCH,
  );
  for (const row of due) {
    const provider = providers.find((p) => p.key === keyOfProviderId(row.provider_id));
    if (!provider) continue;
    const interval = provider.options.reconcileIntervalMinutes * 60_000;
    const overdue =
      !row.last_checked_at ||
      now.getTime() - new Date(row.last_checked_at).getTime() >= interval ||
      (row.expires_at !== null && new Date(row.expires_at) < now);
    if (!overdue) continue;
    report.checked += 1;
    try {
      const result = await settleCharge(ctx, row.charge_id, "reconcile");
      if (result.outcome === "processed") report.settled += 1;
    } catch (error) {
      report.errors += 1;
      ctx.logger.warn(
        `reconciliation of charge ${row.charge_id} failed: ${redactString((error as Error).message)}`,
      );
    }
  }
  // Paid is final, so a capture that never finished needs no new question to the API.
  for (const row of await ctx.store.paidNotCaptured(BATCH)) {
    report.checked += 1;
    try {
      const result = await captureOnce(ctx, row, "reconcile");
      if (result.outcome === "processed") report.settled += 1;
    } catch (error) {
      report.errors += 1;
      ctx.logger.warn(
        `capturing paid charge ${row.charge_id} failed: ${redactString((error as Error).message)}`,
      );
    }
  }
  const deliveries = await ctx.store.unfinishedDeliveries(
    new Date(now.getTime() - STALE_DELIVERY_MS),
    BATCH,
  );
  for (const delivery of deliveries) {
    try {
      const provider = providerByKey(configModule, String(delivery.provider_key));
      const body = (
        typeof delivery.body === "string" ? JSON.parse(delivery.body) : delivery.body
      ) as ParsedWebhook;
      await processDelivery(ctx, String(delivery.id), provider, body);
      report.deliveriesRetried += 1;
    } catch (error) {
      report.errors += 1;
      ctx.logger.warn(
        `retrying delivery ${String(delivery.id)} failed: ${redactString((error as Error).message)}`,
      );
    }
  }
  for (const row of await ctx.store.awaitingCartCompletion(BATCH)) {
    const outcome = await completeCartIfNeeded(ctx, row, "reconcile").catch(() => "failed");
    if (outcome === "completed") report.cartsCompleted += 1;
    if (outcome === "failed") report.errors += 1;
    if (outcome === "has_order" || outcome === "no_cart") {
      // Someone else (the storefront's own cart.complete) finished it, or the cart is gone:
      // either way there is nothing left to retry.
      await ctx.store.addEvent({
        chargeId: row.charge_id,
        kind: "cart_completed",
        source: "reconcile",
        detail: { by: outcome === "has_order" ? "another request" : "no cart left to complete" },
      });
    }
  }
  return report;
}
