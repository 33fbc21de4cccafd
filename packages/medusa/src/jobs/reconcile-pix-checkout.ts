import type { MedusaContainer } from "@medusajs/framework/types";
import { Modules } from "@medusajs/framework/utils";
import { reconcileOnce, type ReconcileReport } from "../internal/reconcile";
import { settleContext } from "../internal/settle";

/** Lock key shared by every instance; with locking-redis (or -postgres) only one runs a pass. */
export const RECONCILE_LOCK = "pix-checkout:reconcile";

/**
 * Re-checks overdue and expired charges and retries unprocessed webhook deliveries. Runs
 * every minute; each charge is only asked about once per `reconcileIntervalMinutes`.
 * Returns the run's report, or null when another instance holds the lock.
 */
export default async function reconcilePixCheckout(
  container: MedusaContainer,
): Promise<ReconcileReport | null> {
  const ctx = settleContext(container);
  const locking = container.resolve(Modules.LOCKING);
  try {
    return await locking.execute(RECONCILE_LOCK, () => reconcileOnce(ctx), {
      timeout: 1,
      expire: 300,
    });
  } catch (error) {
    if (/timed?-?out|lock/i.test((error as Error).message)) {
      ctx.logger.debug("reconciliation skipped: another instance holds the lock");
      return null;
    }
    throw error;
  }
}

/** Medusa scheduled-job config (jobs run in worker mode only). */
export const config = {
  name: "pix-checkout-reconcile",
  schedule: "* * * * *",
};
