import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { CART_ORDER_HOLDS_STOCK } from "../medusa/unpaid-orders";
import {
  unpaidOrderCapReached,
  type Holding,
  type UnpaidOrderCaps,
  type UnpaidOrderHolder,
  type UnpaidOrderRefusal,
} from "./unpaid-order-caps";

const UNPAID = "pix_checkout_unpaid_order";
/** Rows are kept this long: longer than any code lives, boleto grace included. */
const KEPT = "interval '30 days'";

/** A cart about to become an order before its Pix or boleto is paid. */
export interface UnpaidOrderEntry {
  cartId: string;
  sessionId: string;
  clientKey: string;
  emailKey: string;
  /** The payer document's key, when its charge had one. */
  payerKey: string | null;
  /** The cart's units (the sum of its items' quantities). */
  units: number;
}

/**
 * The SQL of `pix_checkout_unpaid_order`: the carts that became orders before they were paid,
 * each with the client, mailbox and payer document it is counted against and its units. Whether
 * one still holds stock is never stored: it is read from Medusa's order each time
 * (medusa/unpaid-orders.ts), so a paid, canceled or expired order stops counting the moment
 * Medusa says so, whichever door moved it.
 */
export class UnpaidOrders {
  constructor(private readonly db: Knex) {}

  /**
   * Counts what the entry's client, mailbox and document already hold in unpaid orders that
   * still hold stock and, unless a cap would be passed (unpaid-order-caps.ts), records the
   * entry. Under one advisory lock per key, taken in one order, so completions arriving
   * together on any instance never pass a cap together. A cart completed again is the same row,
   * never counted twice.
   */
  async admit(entry: UnpaidOrderEntry, caps: UnpaidOrderCaps): Promise<UnpaidOrderRefusal | null> {
    return this.db.transaction(async (trx) => {
      const keys: [UnpaidOrderHolder, string | null][] = [
        ["client", entry.clientKey],
        ["email", entry.emailKey],
        ["document", entry.payerKey],
      ];
      const locks = keys
        .filter((k): k is [UnpaidOrderHolder, string] => k[1] !== null)
        .map(([holder, key]) => `pix_checkout_unpaid:${holder}:${key}`)
        .sort();
      for (const lock of locks) {
        await trx.raw(`select pg_advisory_xact_lock(hashtext(?))`, [lock]);
      }
      const result = (await trx.raw(
        `select
           count(*) filter (where u.client_key = ?) as client_orders,
           coalesce(sum(u.units) filter (where u.client_key = ?), 0) as client_units,
           count(*) filter (where u.email_key = ?) as email_orders,
           coalesce(sum(u.units) filter (where u.email_key = ?), 0) as email_units,
           count(*) filter (where u.payer_key = ?) as document_orders,
           coalesce(sum(u.units) filter (where u.payer_key = ?), 0) as document_units
         from ${UNPAID} u
         where u.cart_id <> ?
           and (u.client_key = ? or u.email_key = ? or u.payer_key = ?)
           and ${CART_ORDER_HOLDS_STOCK}`,
        [
          entry.clientKey,
          entry.clientKey,
          entry.emailKey,
          entry.emailKey,
          entry.payerKey,
          entry.payerKey,
          entry.cartId,
          entry.clientKey,
          entry.emailKey,
          entry.payerKey,
        ],
      )) as { rows: Record<string, string | number>[] };
      const r = result.rows[0] ?? {};
      const holding = (holder: UnpaidOrderHolder): Holding => ({
        orders: Number(r[`${holder}_orders`] ?? 0),
        units: Number(r[`${holder}_units`] ?? 0),
      });
      const refusal = unpaidOrderCapReached(
        {
          client: holding("client"),
          email: holding("email"),
          ...(entry.payerKey ? { document: holding("document") } : {}),
        },
        entry.units,
        caps,
      );
      if (refusal) return refusal;
      await trx(UNPAID)
        .insert({
          cart_id: entry.cartId,
          session_id: entry.sessionId,
          client_key: entry.clientKey,
          email_key: entry.emailKey,
          payer_key: entry.payerKey,
          units: entry.units,
          placed_at: trx.raw("now()"),
        })
        .onConflict("cart_id")
        .merge();
      return null;
    });
  }

  /**
   * The cart's order no longer counts against its client, mailbox and document: no code will
   * ever be asked of it (its create failed) and the merchant keeps it, or it was ended.
   */
  async release(cartId: string): Promise<void> {
    await this.db(UNPAID).where({ cart_id: cartId }).delete();
  }

  /** Drops rows older than any code lives, at most `limit` of them. */
  async prune(limit: number): Promise<number> {
    const deleted = await this.db(UNPAID)
      .whereIn(
        "cart_id",
        this.db(UNPAID)
          .select("cart_id")
          .where("placed_at", "<", this.db.raw(`now() - ${KEPT}`))
          .limit(limit),
      )
      .delete();
    return Number(deleted);
  }
}
