import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { toCents } from "../platform/money";

/**
 * The amount of one of Medusa's captures, in integer cents (null when there is no such capture).
 * A raw read of the payment module's `capture` table, as the collection snapshot reads it: the
 * provider's `capturePayment` runs in the payment module's own container, and Medusa passes it
 * only the capture's id.
 */
export async function captureCents(db: Knex, captureId: string): Promise<number | null> {
  const result = await db.raw<{ rows: { amount: string | null; amount_num: string | null }[] }>(
    `select raw_amount->>'value' as amount, amount::text as amount_num
       from capture where id = ? and deleted_at is null`,
    [captureId],
  );
  const row = result.rows[0];
  const amount = row?.amount ?? row?.amount_num;
  return amount ? toCents(amount) : null;
}
