import { ScheduledTask } from "@vendure/core";
import { PixCheckoutService } from "./pix-checkout.service";

/**
 * Reconciliation every minute: the codes whose webhook never came are asked about (see
 * `PixCheckoutService.reconcile`). Vendure runs scheduled tasks only with a scheduler plugin
 * (its `DefaultSchedulerPlugin`, which also keeps two instances from running one task at
 * once); the lock per charge keeps a pass and a webhook from deciding one code twice.
 */
export const reconcileTask = new ScheduledTask({
  id: "pix-checkout-reconcile",
  description: "Pix Checkout: settles paid codes whose webhook was lost, cancels expired ones",
  schedule: (cron) => cron.every(1).minutes(),
  preventOverlap: true,
  execute: ({ injector }) => injector.get(PixCheckoutService).reconcile(),
});
