import type { Knex } from "@medusajs/framework/mikro-orm/knex";

/**
 * Everything hostile input must not change: the plugin's charges, their timeline and ledger, and
 * Medusa's carts, orders, payment collections, sessions, payments and captures. Columns that
 * legitimately move without a state change (updated_at, last_checked_at) are left out.
 */
const QUERIES: Record<string, string> = {
  charges: `select charge_id, session_id, status, amount_cents, paid_at, captured_at, flagged, flag_code,
                   received_cents, held_cents, held_reason, captured_cents, owed_cents, owed_reason, returned_cents
            from pix_checkout_charge order by charge_id`,
  chargeEvents: `select count(*)::int as n from pix_checkout_charge_event`,
  ledger: `select count(*)::int as n from pix_checkout_ledger_entry`,
  outbox: `select count(*)::int as n from pix_checkout_outbox`,
  carts: `select id, completed_at, deleted_at from cart order by id`,
  orders: `select id, status, deleted_at from "order" order by id`,
  paymentCollections: `select id, status, captured_amount, authorized_amount from payment_collection order by id`,
  paymentSessions: `select id, status, amount, data::text as data, deleted_at from payment_session order by id`,
  payments: `select id, amount, captured_at, canceled_at from payment order by id`,
  captures: `select count(*)::int as n from capture`,
  refunds: `select count(*)::int as n from refund`,
};

/** A comparable picture of the protected state. */
export type StateSnapshot = Record<string, unknown[]>;

/** Reads every protected table. */
export async function snapshotState(db: Knex): Promise<StateSnapshot> {
  const out: StateSnapshot = {};
  for (const [name, sql] of Object.entries(QUERIES)) {
    const result = await db.raw(sql);
    out[name] = JSON.parse(JSON.stringify(result.rows)) as unknown[];
  }
  return out;
}

/** Webhook deliveries by outcome: the one table a well-formed delivery may add to. */
export async function deliveryOutcomes(db: Knex): Promise<Record<string, number>> {
  const result = await db.raw(
    `select outcome, count(*)::int as n from pix_checkout_webhook_delivery group by outcome`,
  );
  return Object.fromEntries(
    (result.rows as { outcome: string; n: number }[]).map((row) => [row.outcome, row.n]),
  );
}
