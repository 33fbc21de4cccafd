import type { Knex } from "@medusajs/framework/mikro-orm/knex";

/** Captured charges looked at per pass: the net's cost stays flat however many sales a store has. */
const SCAN = 2_000;

/** Where the last pass of this process stopped (a cache: any instance may start from the top). */
let cursor = "";

/**
 * Charges whose money is captured for an order Medusa has since canceled, which the
 * `order.canceled` subscriber should have made owed back: reconciliation's net under that
 * subscriber failing (its collection was busy) or never running (the event was lost). One raw
 * read of Medusa's `order_payment_collection` and `order`, as the collection snapshot reads
 * them, over the plugin's partial index of captured charges, a slice of it per pass, wrapping
 * around: every captured charge is looked at again within a few passes.
 */
export async function capturedOfCanceledOrders(db: Knex, limit: number): Promise<string[]> {
  const result = await db.raw<{ rows: { id: string; charge_id: string; canceled: boolean }[] }>(
    `select c.id, c.charge_id,
            exists (select 1 from order_payment_collection opc
                      join "order" o on o.id = opc.order_id and o.deleted_at is null
                     where opc.payment_collection_id = c.payment_collection_id
                       and opc.deleted_at is null and o.canceled_at is not null) as canceled
       from pix_checkout_charge c
      where c.deleted_at is null and c.captured_cents > 0 and c.id > ?
      order by c.id limit ?`,
    [cursor, SCAN],
  );
  const rows = result.rows;
  cursor = rows.length < SCAN ? "" : rows[rows.length - 1]!.id;
  return rows
    .filter((row) => row.canceled)
    .slice(0, limit)
    .map((row) => row.charge_id);
}
