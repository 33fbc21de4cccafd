import type { MedusaContainer } from "@medusajs/framework/types";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { cartWith } from "./carts";
import { ownedCollection } from "./order-collections";

/*
 * Who buys: a cart's e-mail, or an order's buyer for an order's own collection (read with
 * Query), and whether a mailbox already paid for an order here (one raw read), for the
 * shopper's messages (storefront/mailbox-proof.ts).
 */

/** A cart's e-mail. */
export interface CartBuyer {
  email?: string | null;
}

/** The buyer of cart `cartId`; undefined without such a cart. */
export function cartBuyer(
  container: MedusaContainer,
  cartId: string,
): Promise<CartBuyer | undefined> {
  return cartWith<CartBuyer>(container, cartId, ["id", "email"]);
}

/** The customer of an order's own collection, as its messages address them. */
export interface OrderBuyer {
  email: string | null;
  order: { id: string; display_id: number | null; status: string };
  /** The billing address's name, else the customer's. */
  name: string | null;
  /** The billing address's phone, else the shipping address's, else the customer's. */
  phone: string | null;
}

/**
 * The buyer of an order's own collection (an order edit's, exchange's or claim's difference, a
 * converted draft's total): the order's e-mail, name and phone, never anything a client sent.
 * Undefined for a cart's collection or one nothing owns.
 */
export async function orderBuyerOfCollection(
  container: MedusaContainer,
  paymentCollectionId: string,
): Promise<OrderBuyer | undefined> {
  const owned = await ownedCollection(container, paymentCollectionId);
  const order = owned?.order;
  if (!order) return undefined;
  const billing = order.billingAddress;
  const fullName = (first?: string | null, last?: string | null) =>
    [first, last].filter((part) => part?.trim()).join(" ") || null;
  return {
    email: order.email,
    order: { id: order.id, display_id: order.displayId, status: order.status },
    name:
      fullName(billing?.first_name, billing?.last_name) ??
      fullName(order.customer?.firstName, order.customer?.lastName),
    phone:
      billing?.phone?.trim() ||
      order.shippingAddress?.phone?.trim() ||
      order.customer?.phone?.trim() ||
      null,
  };
}

/**
 * Whether an order whose e-mail is `email` (the same address, case aside) has money captured:
 * Medusa holds a capture of its payment collection (any provider: Pix, boleto, a card, the
 * merchant's manual capture), or the plugin's ledger holds money captured for it (the capture
 * Medusa records a moment later). An order that was never paid, a cart, or a customer account
 * counts for nothing: any client can make those with any e-mail.
 *
 * One raw read, as `collection-snapshot` and `canceled-orders` read Medusa's tables: Query
 * cannot filter orders by their payment collection's captured amount (another module) nor join
 * the plugin's table. The order's collections are found through `order_payment_collection` and,
 * for a cart's order, through `order_cart` and `cart_payment_collection`. Medusa has no index on
 * the order's e-mail, so without `customerId` this is a scan of `order`, for a message about to
 * go. With it (the cart's customer: Medusa gives every cart of one e-mail the same customer, and
 * the order keeps it) the read takes Medusa's index on the order's customer, cheap enough for
 * every session request (the create line's proven mailbox, create-line/queue.ts `admit`).
 */
export async function mailboxHasPaidOrder(
  db: Knex,
  email: string,
  customerId?: string | null,
): Promise<boolean> {
  const result = await db.raw<{ rows: { paid: boolean }[] }>(
    `select exists (
       select 1
         from "order" o
         join lateral (
           select opc.payment_collection_id as id
             from order_payment_collection opc
            where opc.order_id = o.id and opc.deleted_at is null
           union
           select cpc.payment_collection_id
             from order_cart oc
             join cart_payment_collection cpc
               on cpc.cart_id = oc.cart_id and cpc.deleted_at is null
            where oc.order_id = o.id and oc.deleted_at is null
         ) collection on true
        where o.deleted_at is null
          and lower(o.email) = lower(trim(:email))${customerId ? " and o.customer_id = :customerId" : ""}
          and (exists (select 1 from payment_collection pc
                        where pc.id = collection.id and pc.deleted_at is null
                          and pc.captured_amount > 0)
               or exists (select 1 from pix_checkout_charge c
                           where c.payment_collection_id = collection.id
                             and c.deleted_at is null and c.captured_cents > 0))
     ) as paid`,
    customerId ? { email, customerId } : { email },
  );
  return Boolean(result.rows[0]?.paid);
}
