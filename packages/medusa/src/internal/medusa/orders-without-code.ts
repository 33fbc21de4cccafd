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
 * The failed creates whose order the merchant keeps without a code: `ordersWithoutCode`'s rows,
 * counted the same way by `countOrdersWithoutCode`. One bound value, the spent-slot code.
 */
const KEPT_WITHOUT_CODE = `
   from pix_checkout_create_request r
   join cart_payment_collection cpc
     on cpc.payment_collection_id = r.payment_collection_id and cpc.deleted_at is null
   join order_cart oc on oc.cart_id = cpc.cart_id and oc.deleted_at is null
   join "order" o on o.id = oc.order_id and o.deleted_at is null and o.canceled_at is null
   join payment_collection pc
     on pc.id = r.payment_collection_id and pc.deleted_at is null
    and pc.status in ('not_paid', 'awaiting')
  where r.state = 'failed' and r.failure_decided_at is not null
    and r.error_code is distinct from ?
    and r.done_at > now() - interval '30 days'
    and not exists (
      select 1 from pix_checkout_charge c
       where c.payment_collection_id = r.payment_collection_id and c.deleted_at is null
         and (c.held_cents > 0 or c.captured_cents > 0
              or (c.status = 'pending' and c.superseded_at is null)))`;

/**
 * Orders whose cart became an order while its code waited in the create line, whose create then
 * failed, and which the merchant keeps (`cancelOrderOnExpiry` off; settlement/failed-creates.ts):
 * still open, their collection unpaid and no code of it holding money or still payable. Read
 * from Medusa's own tables each time, so an order the merchant canceled, or paid another way,
 * leaves the list the moment Medusa says so. Failed creates of the last 30 days (the create
 * line keeps no older ones). `spentSendCode`: the error code of the create line's rows that only
 * keep a spent slot (create-line/queue.ts `SPENT_SEND`), which are no session's request.
 */
export async function ordersWithoutCode(
  db: Knex,
  limit: number,
  spentSendCode: string,
): Promise<OrderWithoutCode[]> {
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
    [spentSendCode, limit],
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
export async function countOrdersWithoutCode(db: Knex, spentSendCode: string): Promise<number> {
  const result = await db.raw<{ rows: { n: string }[] }>(
    `select count(*) as n ${KEPT_WITHOUT_CODE}`,
    [spentSendCode],
  );
  return Number(result.rows[0]?.n ?? 0);
}
