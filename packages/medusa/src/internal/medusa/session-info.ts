import type { Knex } from "@medusajs/framework/mikro-orm/knex";

/** What `sessionInfo` reads of a payment session. */
export interface SessionInfo {
  payment_collection_id: string;
  provider_id: string;
  status: string;
  /** Its amount as Medusa holds it (raw decimal, fractions of a cent included). */
  amount: string | null;
  /** The sales channel of the cart the session pays for, or of the order whose own it is. */
  sales_channel_id: string | null;
}

/**
 * The payment collection and provider id of a payment session, and the sales channel of what
 * it pays for: the cart's, or, for an order's own collection (an order edit's difference, a
 * converted draft), the order's. A raw read of Medusa's own tables, because the provider only
 * has the payment module's container (no Query) when it creates a charge.
 */
export async function sessionInfo(db: Knex, sessionId: string): Promise<SessionInfo | undefined> {
  return db("payment_session as ps")
    .leftJoin("cart_payment_collection as cpc", function () {
      this.on("cpc.payment_collection_id", "=", "ps.payment_collection_id").andOnNull(
        "cpc.deleted_at",
      );
    })
    .leftJoin("cart as c", "c.id", "cpc.cart_id")
    .leftJoin("order_payment_collection as opc", function () {
      this.on("opc.payment_collection_id", "=", "ps.payment_collection_id").andOnNull(
        "opc.deleted_at",
      );
    })
    .leftJoin("order as o", "o.id", "opc.order_id")
    .select(
      "ps.payment_collection_id",
      "ps.provider_id",
      "ps.status",
      db.raw("coalesce(ps.raw_amount->>'value', ps.amount::text) as amount"),
      db.raw("coalesce(c.sales_channel_id, o.sales_channel_id) as sales_channel_id"),
    )
    .where("ps.id", sessionId)
    .first();
}
