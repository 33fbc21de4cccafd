import type { Knex } from "@medusajs/framework/mikro-orm/knex";

/**
 * Frees the locks of Medusa's `locking-postgres` provider whose expiry has passed.
 *
 * That provider keeps a lock taken with `acquire` (every cart workflow's `acquireLockStep`, and
 * the plugin's cart lock) as a row of its `locking` table with an `expiration`, and its `acquire`
 * refuses any row of another owner, lapsed or not (read in 2.21.2 and the 2.22 snapshot). A
 * holder that never released, because its process was killed or its release met the database
 * restarting, leaves the cart locked for good: the chaos run saw a shopper's every "add shipping"
 * answered 500 for minutes after a Postgres restart, and such a cart, paid by Pix, could never
 * become an order. With `locking-redis` the key simply expires; this makes the rows do the same.
 *
 * Only rows whose own `expiration` has passed are deleted, by the database's clock; a row without
 * one (a lock taken with no expiry) is left. Returns the keys freed. A store without the table
 * (no `locking-postgres`) costs one catalog lookup.
 */
export async function freeLapsedLocks(db: Knex): Promise<string[]> {
  const table = await db.raw<{ rows: { name: string | null }[] }>(
    `select to_regclass('locking')::text as name`,
  );
  if (!table.rows[0]?.name) return [];
  const freed = await db.raw<{ rows: { id: string }[] }>(
    `delete from locking where expiration is not null and expiration < now() returning id`,
  );
  return freed.rows.map((row) => row.id);
}
