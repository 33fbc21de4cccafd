import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import type { MedusaContainer } from "@medusajs/framework/types";

/*
 * Medusa's links of a payment collection (its cart, the cart's order, its live sessions), read
 * with Query by the plugin's routes, jobs and subscribers. The money path reads the same facts
 * in one statement (collection-snapshot.ts).
 */

/** What the plugin reads of an order. */
export interface OrderSummary {
  id: string;
  status: string;
  display_id: number | null;
  email: string | null;
}

/** The cart that owns this payment collection, if any. */
export async function cartOfCollection(
  container: MedusaContainer,
  paymentCollectionId: string | null,
): Promise<string | undefined> {
  if (!paymentCollectionId) return undefined;
  const query = container.resolve(ContainerRegistrationKeys.QUERY);
  const { data: carts } = await query.graph({
    entity: "cart_payment_collection",
    fields: ["cart_id"],
    filters: { payment_collection_id: paymentCollectionId },
  });
  return (carts[0] as { cart_id?: string } | undefined)?.cart_id;
}

/** The order created from the cart that owns this payment collection, if any. */
export async function orderOfCollection(
  container: MedusaContainer,
  paymentCollectionId: string | null,
): Promise<OrderSummary | undefined> {
  const cartId = await cartOfCollection(container, paymentCollectionId);
  if (!cartId) return undefined;
  const query = container.resolve(ContainerRegistrationKeys.QUERY);
  const { data: links } = await query.graph({
    entity: "order_cart",
    fields: ["order_id"],
    filters: { cart_id: cartId },
  });
  const orderId = (links[0] as { order_id?: string } | undefined)?.order_id;
  if (!orderId) return undefined;
  const { data: orders } = await query.graph({
    entity: "order",
    fields: ["id", "status", "display_id", "email"],
    filters: { id: orderId },
  });
  return orders[0] as OrderSummary | undefined;
}

/**
 * The payment collections that paid or pay for an order: its own (Medusa links the cart's to
 * the order when the cart completes; an order edit adds one) and its cart's, in case a link is
 * missing. Empty for no such order.
 */
export async function collectionsOfOrder(
  container: MedusaContainer,
  orderId: string,
): Promise<string[]> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY);
  const [{ data: links }, { data: carts }] = await Promise.all([
    query.graph({
      entity: "order_payment_collection",
      fields: ["payment_collection_id"],
      filters: { order_id: orderId },
    }),
    query.graph({ entity: "order_cart", fields: ["cart_id"], filters: { order_id: orderId } }),
  ]);
  const ofCarts = await Promise.all(
    (carts as { cart_id: string }[]).map(async ({ cart_id }) => {
      const { data } = await query.graph({
        entity: "cart_payment_collection",
        fields: ["payment_collection_id"],
        filters: { cart_id },
      });
      return data as { payment_collection_id: string }[];
    }),
  );
  const ids = [...(links as { payment_collection_id?: string }[]), ...ofCarts.flat()]
    .map((link) => link.payment_collection_id)
    .filter((id): id is string => typeof id === "string");
  return [...new Set(ids)];
}

/** An order as a shopper's page asks about it: its sales channel and payment collections. */
export interface ShopperOrder {
  id: string;
  salesChannelId: string | null;
  collectionIds: string[];
}

/** The order `orderId`, with the collections that paid or pay for it; undefined if none. */
export async function orderForShopper(
  container: MedusaContainer,
  orderId: string,
): Promise<ShopperOrder | undefined> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY);
  const { data: orders } = await query.graph({
    entity: "order",
    fields: ["id", "sales_channel_id"],
    filters: { id: orderId },
  });
  const order = orders[0] as { id: string; sales_channel_id: string | null } | undefined;
  if (!order) return undefined;
  return {
    id: order.id,
    salesChannelId: order.sales_channel_id,
    collectionIds: await collectionsOfOrder(container, orderId),
  };
}

/** A Medusa payment session of a collection that is not deleted. */
interface LiveSession {
  id: string;
  provider_id: string;
  amount: string;
  status?: string;
  created_at?: string;
}

/** The collection's sessions Medusa still holds (a deleted session is superseded). */
export async function liveSessionsOf(
  container: MedusaContainer,
  paymentCollectionId: string,
): Promise<LiveSession[]> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY);
  const { data } = await query.graph({
    entity: "payment_session",
    fields: ["id", "provider_id", "amount", "raw_amount", "status", "created_at"],
    filters: { payment_collection_id: paymentCollectionId },
  });
  return (
    data as {
      id: string;
      provider_id: string;
      amount: unknown;
      raw_amount?: { value?: string };
      status?: string;
      created_at?: string | Date;
    }[]
  ).map((session) => ({
    id: session.id,
    provider_id: session.provider_id,
    amount: String(session.raw_amount?.value ?? session.amount),
    status: session.status,
    created_at: session.created_at ? new Date(session.created_at).toISOString() : undefined,
  }));
}
