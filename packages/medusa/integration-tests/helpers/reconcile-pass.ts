import type { MedusaContainer } from "@medusajs/framework/types";
import { Modules } from "@medusajs/framework/utils";
import { reconcileOnce, type ReconcileReport } from "../../src/internal/settlement/reconcile";
import { settleContext } from "../../src/internal/settlement/context";
import { RECONCILE_LOCK } from "../../src/jobs/reconcile-pix-checkout";

/**
 * One reconciliation pass at `now`, under the scheduled job's lock. The test app runs that job
 * on its own every 15 s in the same process; without the lock, a pass the job started mid-test
 * would still be checking rows while the test counts them. Waiting for the lock is what a
 * second instance does in production, so the test sees passes one at a time, as a store does.
 */
export async function reconcilePass(
  container: MedusaContainer,
  now?: Date,
): Promise<ReconcileReport> {
  const locking = container.resolve(Modules.LOCKING);
  return locking.execute(RECONCILE_LOCK, () => reconcileOnce(settleContext(container), now), {
    timeout: 120,
    expire: 300,
  });
}
