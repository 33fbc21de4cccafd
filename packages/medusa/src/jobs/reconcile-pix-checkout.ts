import type { MedusaContainer } from "@medusajs/framework/types";
import { reconcileOnce, type ReconcileReport } from "../internal/settlement/reconcile";
import { settleContext } from "../internal/settlement/context";
import { runAlone } from "../internal/records/job-lock";
import { freeLapsedLocks } from "../internal/medusa/lapsed-locks";
import { redact } from "@pix-checkout/client";

/**
 * Lock key shared by every instance; with locking-redis (or -postgres), or on Medusa before 2.21
 * (the plugin's own lease in Postgres: records/job-lock.ts), only one runs a pass.
 */
export const RECONCILE_LOCK = "pix-checkout:reconcile";

/**
 * A pass skips when another holds the key past a second. A worker killed mid-pass keeps the
 * others out for 30 s at most (two runs of the schedule), not for the longest pass's 300 s.
 */
export const RECONCILE_LIMITS = { waitSeconds: 1, deadHolderSeconds: 30, passSeconds: 300 };

/**
 * Frees Medusa's lapsed `locking-postgres` locks (medusa/lapsed-locks.ts: a cart they hold can
 * neither be paid for nor become an order), then re-checks charges whose check is due and
 * retries unprocessed webhook deliveries. Runs every 15 s, so a young charge's early checks
 * (15 s, 30 s, 1 min, 2 min of age) happen on time; a run with nothing due costs four indexed
 * queries and the lapsed-lock sweep. Each charge carries its own schedule
 * (`next_check_at`), so the run's frequency does not change how often the API is asked.
 * Returns the run's report, or null when another instance holds the lock.
 */
export default async function reconcilePixCheckout(
  container: MedusaContainer,
): Promise<ReconcileReport | null> {
  const ctx = settleContext(container);
  await freeLapsedLocks(ctx.db).then(
    (keys) => {
      if (keys.length === 0) return;
      ctx.logger.warn(
        `freed ${keys.length} lock(s) of locking-postgres past their expiry that their holder never released (${keys.slice(0, 10).join(", ")}${keys.length > 10 ? ", …" : ""}): a cart's checkout would have been refused until then`,
      );
    },
    (error: unknown) =>
      ctx.logger.warn(
        `freeing lapsed locks failed: ${redact((error as Error)?.message ?? String(error))}`,
      ),
  );
  try {
    const run = await runAlone(
      container,
      ctx.db,
      RECONCILE_LOCK,
      (signal) => reconcileOnce(ctx, new Date(), signal),
      RECONCILE_LIMITS,
    );
    if (run.ran) return run.value;
    ctx.logger.debug("reconciliation skipped: another instance holds the lock");
    return null;
  } catch (error) {
    // Every other failure is real, and a pass that fails every 15 s must be seen.
    ctx.logger.error(
      `a reconciliation pass failed: ${redact((error as Error)?.message ?? String(error))}`,
    );
    throw error;
  }
}

/** Medusa scheduled-job config (jobs run in worker mode only). */
export const config = {
  name: "pix-checkout-reconcile",
  schedule: { interval: 15_000 },
};
