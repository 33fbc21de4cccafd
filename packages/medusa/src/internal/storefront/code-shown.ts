import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import type { MedusaContainer } from "@medusajs/framework/types";
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils";
import { CHARGE_EVENTS, chargeEventData } from "../records/charge-lifecycle";
import { Charges, type ChargeRow } from "../records/charges";
import { ChargeChecks } from "../records/charge-checks";
import { shouldExpedite, WATCHED_CHECK_MS } from "../checkout/check-schedule";

/**
 * The shopper's own page showed this charge's code (it sent `POST …/sessions/:id/shown`):
 * records it once, and on that first time emits `pix_checkout.charge.shown`, on which the
 * code's message may go out (see notification.ts). A code no page ever showed is never mailed
 * unless an order of its cart exists: whoever made the cart chose its e-mail.
 */
export async function codeShown(scope: MedusaContainer, row: ChargeRow): Promise<void> {
  if (row.shown_at || row.status !== "pending") return;
  const charges = new Charges(scope.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION));
  if (!(await charges.markShown(row.charge_id)) || !scope.hasRegistration(Modules.EVENT_BUS))
    return;
  await scope
    .resolve<{ emit(event: { name: string; data: unknown }): Promise<unknown> }>(Modules.EVENT_BUS)
    .emit({ name: CHARGE_EVENTS.shown, data: chargeEventData(row, "provider") });
}

/**
 * A shopper is looking at this pending Pix code (its page posts `…/shown` while the code is on
 * screen): if its webhook is lost, reconciliation asks within `WATCHED_CHECK_MS`. Only this
 * POST pulls a check forward, never a GET (a status read or the stream), and at most once a
 * window per charge however often it is posted (check-schedule.ts), so a session id in the
 * wrong hands cannot make the store call the payment API more often than that.
 */
export async function codeWatched(scope: MedusaContainer, row: ChargeRow): Promise<void> {
  if (row.method !== "pix" || row.status !== "pending" || !shouldExpedite(row.charge_id)) return;
  await new ChargeChecks(
    scope.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION),
  ).expediteCheck(row.charge_id, WATCHED_CHECK_MS);
}
