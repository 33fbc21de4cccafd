import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { sessionCentsOf, toCents } from "../platform/money";

/** What Medusa holds of a payment collection, as the snapshot reads it. */
export interface MedusaSide {
  /**
   * Sessions Medusa still holds, of every provider, with their amounts in cents (rounded
   * half-up, as charges are).
   */
  liveSessions: { id: string; providerId: string; amountCents: number }[];
  /**
   * Payments Medusa made from the collection's sessions, of every provider; `captured` when
   * Medusa holds any capture of it, `canceled` once Medusa canceled it, and its captures, each
   * by id with its amount in cents.
   */
  payments: {
    sessionId: string;
    providerId: string;
    captured: boolean;
    canceled: boolean;
    captures: { id: string; cents: number }[];
  }[];
  /**
   * The collection's order (`canceledAt` once canceled): the order it belongs to (an order
   * edit's, a claim's, a draft's), or the one its cart became.
   */
  order: { id: string; status: string; canceledAt: Date | null } | null;
  cartId: string | null;
  /**
   * The collection itself: what it asks (Medusa's amount, in cents rounded half-up as charges
   * are) and whether Medusa canceled it; null when Medusa holds no such collection.
   */
  collection: { amountCents: number; canceled: boolean } | null;
}

interface SideRow {
  sessions:
    | {
        id: string;
        provider_id: string;
        amount: string | null;
        amount_num: string | number | null;
      }[]
    | null;
  payments:
    | {
        session_id: string;
        provider_id: string;
        captured: boolean;
        canceled: boolean;
        captures:
          { id: string; amount: string | null; amount_num: string | number | null }[] | null;
      }[]
    | null;
  cart_id: string | null;
  order: { id: string; status: string; canceled_at: string | null } | null;
  collection: { amount: string | null; amount_num: string | number | null; status: string } | null;
}

/**
 * The id of the order a payment collection belongs to, as an SQL expression of the named
 * binding `:pc`: the order it is linked to (an order edit's, a claim's, a draft's, or the one its
 * cart became), else the order of its cart. Null while the cart is no order.
 */
export const ORDER_ID_OF_COLLECTION = `coalesce(
           (select opc.order_id from order_payment_collection opc
             where opc.payment_collection_id = :pc and opc.deleted_at is null limit 1),
           (select oc.order_id from cart_payment_collection cpc
              join order_cart oc on oc.cart_id = cpc.cart_id and oc.deleted_at is null
             where cpc.payment_collection_id = :pc and cpc.deleted_at is null limit 1))`;

/**
 * Medusa's side of a payment collection (its live sessions and payments of every provider, its
 * cart, its order) in one statement. This is the plugin's main raw read of Medusa's tables (the
 * shopper's order lookup shares its order expression, `ORDER_ID_OF_COLLECTION`), for two
 * reasons: the provider, one of the doors into the money, runs in the payment module's own
 * container, where Query cannot reach carts and orders; and one statement is the fewest round
 * trips a snapshot can take (Query needs one per module). The tables and columns it reads
 * (`payment_collection`, `payment_session`, `payment`, `capture` (its id and amount), `cart_payment_collection`,
 * `order_payment_collection`, `order_cart`, `order`) are the ones Medusa's own links and payment
 * module define, unchanged across Medusa 2.x.
 */
export async function readMedusaSide(db: Knex, paymentCollectionId: string): Promise<MedusaSide> {
  const result = await db.raw<{ rows: SideRow[] }>(
    `select
       (select json_agg(json_build_object('id', ps.id, 'provider_id', ps.provider_id,
                 'amount', ps.raw_amount->>'value', 'amount_num', ps.amount))
          from payment_session ps
         where ps.payment_collection_id = :pc and ps.deleted_at is null) as sessions,
       (select json_agg(json_build_object('session_id', p.payment_session_id,
                 'provider_id', p.provider_id, 'canceled', p.canceled_at is not null, 'captured',
                 p.captured_at is not null or exists (
                   select 1 from capture c where c.payment_id = p.id and c.deleted_at is null),
                 'captures', (select json_agg(json_build_object('id', c.id,
                                  'amount', c.raw_amount->>'value', 'amount_num', c.amount)
                                  order by c.created_at, c.id)
                                from capture c where c.payment_id = p.id and c.deleted_at is null)))
          from payment p
         where p.payment_collection_id = :pc and p.deleted_at is null) as payments,
       (select cpc.cart_id from cart_payment_collection cpc
         where cpc.payment_collection_id = :pc and cpc.deleted_at is null limit 1) as cart_id,
       (select json_build_object('id', o.id, 'status', o.status, 'canceled_at', o.canceled_at)
          from "order" o
         where o.deleted_at is null and o.id = ${ORDER_ID_OF_COLLECTION}
         limit 1) as "order",
       (select json_build_object('amount', pc.raw_amount->>'value', 'amount_num', pc.amount,
                 'status', pc.status)
          from payment_collection pc
         where pc.id = :pc and pc.deleted_at is null) as collection`,
    { pc: paymentCollectionId },
  );
  const row = result.rows[0];
  return {
    liveSessions: (row?.sessions ?? []).map((session) => ({
      id: session.id,
      providerId: session.provider_id,
      amountCents: toCents(String(session.amount ?? session.amount_num)),
    })),
    payments: (row?.payments ?? []).map((payment) => ({
      sessionId: payment.session_id,
      providerId: payment.provider_id,
      captured: payment.captured,
      canceled: payment.canceled,
      captures: (payment.captures ?? []).map((capture) => ({
        id: capture.id,
        cents: toCents(String(capture.amount ?? capture.amount_num)),
      })),
    })),
    order: row?.order
      ? {
          id: row.order.id,
          status: row.order.status,
          canceledAt: row.order.canceled_at ? new Date(row.order.canceled_at) : null,
        }
      : null,
    cartId: row?.cart_id ?? null,
    collection: row?.collection
      ? {
          // As a session of it asks (sessionCentsOf); Medusa sets an order's collection to
          // nothing when a change leaves nothing owed.
          amountCents:
            sessionCentsOf(String(row.collection.amount ?? row.collection.amount_num)) ?? 0,
          canceled: row.collection.status === "canceled",
        }
      : null,
  };
}
