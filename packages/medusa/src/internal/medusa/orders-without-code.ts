import type { Knex } from "@medusajs/framework/mikro-orm/knex";

/** An order kept for the merchant although its Pix or boleto code could never be made. */
export interface OrderWithoutCode {
  order: { id: string; display_id: number | null; email: string | null };
  session_id: string;
  method: "pix" | "boleto";
  /** Integer cents the code would have asked. */
  amount_cents: number;
  /** Why the create failed (the service's code, or the plugin's). */
  error_code: string | null;
  failed_at: string;
}

/**
 * The failed creates whose order the merchant keeps without a code (`kept_order_id`, on its
 * partial index), one per order (its latest): `ordersWithoutCode`'s rows, counted the same way
 * by `countOrdersWithoutCode`.
 */
const KEPT_WITHOUT_CODE = `
   from (select distinct on (r.kept_order_id) r.*
           from pix_checkout_create_request r
          where r.kept_order_id is not null
          order by r.kept_order_id, r.done_at desc) r
   join "order" o on o.id = r.kept_order_id and o.deleted_at is null and o.canceled_at is null
   join payment_collection pc
     on pc.id = r.payment_collection_id and pc.deleted_at is null
    and pc.status in ('not_paid', 'awaiting')
  where not exists (
      select 1 from pix_checkout_charge c
       where c.payment_collection_id = r.payment_collection_id and c.deleted_at is null
         and (c.held_cents > 0 or c.captured_cents > 0
              or (c.status = 'pending' and c.superseded_at is null)))`;

/**
 * Orders whose cart became an order while its code waited in the create line, whose create then
 * failed, and which the merchant keeps (`cancelOrderOnExpiry` off; settlement/failed-creates.ts):
 * still open, their collection unpaid and no code of it holding money or still payable. Read
 * from Medusa's own tables each time, so an order the merchant canceled, or paid another way,
 * leaves the list the moment Medusa says so. The create line keeps such a row past its one-day
 * retention for as long as it names the order (create-line/queue.ts `prune`).
 */
export async function ordersWithoutCode(db: Knex, limit: number): Promise<OrderWithoutCode[]> {
  const result = await db.raw<{
    rows: {
      order_id: string;
      display_id: number | null;
      email: string | null;
      session_id: string;
      method: "pix" | "boleto";
      amount_cents: string;
      error_code: string | null;
      done_at: Date;
    }[];
  }>(
    `select o.id as order_id, o.display_id, o.email, r.session_id, r.method, r.amount_cents,
            r.error_code, r.done_at ${KEPT_WITHOUT_CODE}
      order by r.done_at desc
      limit ?`,
    [limit],
  );
  return result.rows.map((row) => ({
    order: { id: row.order_id, display_id: row.display_id, email: row.email },
    session_id: row.session_id,
    method: row.method,
    amount_cents: Number(row.amount_cents),
    error_code: row.error_code,
    failed_at: new Date(row.done_at).toISOString(),
  }));
}

/**
 * How many rows `ordersWithoutCode` would list without a limit: what the health card's
 * "Precisa de atenção" line and the overview's "esperando por você" count of them.
 */
export async function countOrdersWithoutCode(db: Knex): Promise<number> {
  const result = await db.raw<{ rows: { n: string }[] }>(
    `select count(*) as n ${KEPT_WITHOUT_CODE}`,
  );
  return Number(result.rows[0]?.n ?? 0);
}
