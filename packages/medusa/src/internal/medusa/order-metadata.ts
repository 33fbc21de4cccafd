import type { Knex } from "@medusajs/framework/mikro-orm/knex";

/**
 * A placed order's `metadata` (null when it has none, undefined when there is no such order).
 * One raw read by the order's primary key: it runs on every `order.placed`, the store's card
 * orders too, so it is one indexed statement, not Query's reads (bench/store-cost.mjs measures
 * what the plugin adds to the store's own routes).
 */
export async function metadataOfOrder(
  db: Knex,
  orderId: string,
): Promise<Record<string, unknown> | null | undefined> {
  const { rows } = await db.raw<{ rows: { metadata: unknown }[] }>(
    `select o.metadata from "order" o where o.id = ? and o.deleted_at is null`,
    [orderId],
  );
  if (rows.length === 0) return undefined;
  const metadata = rows[0]!.metadata;
  return typeof metadata === "object" && metadata !== null && !Array.isArray(metadata)
    ? (metadata as Record<string, unknown>)
    : null;
}
