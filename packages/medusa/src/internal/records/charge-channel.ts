import type { Knex } from "@medusajs/framework/mikro-orm/knex";

/**
 * The Postgres channel the charge table's trigger notifies (payload: the session id); every
 * instance's live-status hub listens to it (storefront/live-status/hub.ts).
 */
export const CHARGE_CHANNEL = "pix_checkout_charge";

/**
 * Tells every instance's streams that the order these charges pay changed (their cart became an
 * order, a capture went on the order's transactions), so the pages of every code of the same
 * collection re-read their view. The charge table's trigger announces the ledger's own changes;
 * an order's news lives in Medusa's tables, which it does not watch. Called after the change
 * committed, never inside its transaction, so a page that re-reads finds it. Best effort: a
 * notice lost costs a page the order's line until its next read, never a wrong one.
 */
export async function announceOrderNews(db: Knex, chargeIds: readonly string[]): Promise<void> {
  if (chargeIds.length === 0) return;
  await db
    .raw(
      `select pg_notify(?, s.session_id)
         from pix_checkout_charge c
         join pix_checkout_charge s on s.payment_collection_id = c.payment_collection_id
        where c.charge_id = any(?) and c.deleted_at is null and s.deleted_at is null`,
      [CHARGE_CHANNEL, [...new Set(chargeIds)]],
    )
    .catch(() => undefined);
}
