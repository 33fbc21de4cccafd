import type { Knex } from "@medusajs/framework/mikro-orm/knex";

/** What `sessionInfo` reads of a payment session. */
export interface SessionInfo {
  payment_collection_id: string;
  provider_id: string;
  status: string;
  sales_channel_id: string | null;
}

/**
 * The payment collection and provider id of a payment session, and the sales channel of the
 * cart it pays for, if a cart does: a raw read of Medusa's own tables, because the provider
 * only has the payment module's container (no Query) when it creates a charge.
 */
export async function sessionInfo(db: Knex, sessionId: string): Promise<SessionInfo | undefined> {
  return db("payment_session as ps")
    .leftJoin("cart_payment_collection as cpc", function () {
      this.on("cpc.payment_collection_id", "=", "ps.payment_collection_id").andOnNull(
        "cpc.deleted_at",
      );
    })
    .leftJoin("cart as c", "c.id", "cpc.cart_id")
    .select("ps.payment_collection_id", "ps.provider_id", "ps.status", "c.sales_channel_id")
    .where("ps.id", sessionId)
    .first();
}
