import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import type { MedusaContainer } from "@medusajs/framework/types";
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils";
import { CHARGE_EVENTS, chargeEventData } from "../records/charge-lifecycle";
import { Charges, type ChargeRow } from "../records/charges";

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
