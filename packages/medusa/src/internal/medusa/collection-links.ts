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

/** An order as a shopper's page asks about it: its sales channel and payment collections. */
export interface ShopperOrder {
  id: string;
  salesChannelId: string | null;
  /** Its own collections and, once its cart became it, the cart's (the one that was paid). */
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
    fields: ["id", "sales_channel_id", "payment_collections.id"],
    filters: { id: orderId },
  });
  const order = orders[0] as
    | { id: string; sales_channel_id: string | null; payment_collections?: { id: string }[] }
    | undefined;
  if (!order) return undefined;
  const { data: carts } = await query.graph({
    entity: "order_cart",
    fields: ["cart_id"],
    filters: { order_id: orderId },
  });
  const cartCollections = await Promise.all(
    (carts as { cart_id: string }[]).map(async ({ cart_id }) => {
      const { data } = await query.graph({
        entity: "cart_payment_collection",
        fields: ["payment_collection_id"],
        filters: { cart_id },
      });
      return (data as { payment_collection_id: string }[]).map((l) => l.payment_collection_id);
    }),
  );
  const ids = new Set([
    ...(order.payment_collections ?? []).map((collection) => collection.id),
    ...cartCollections.flat(),
  ]);
  return { id: order.id, salesChannelId: order.sales_channel_id, collectionIds: [...ids] };
}

/** A Medusa payment session of a collection that is not deleted. */
interface LiveSession {
  id: string;
  provider_id: string;
  amount: string;
}

/** The collection's sessions Medusa still holds (a deleted session is superseded). */
export async function liveSessionsOf(
  container: MedusaContainer,
  paymentCollectionId: string,
): Promise<LiveSession[]> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY);
  const { data } = await query.graph({
    entity: "payment_session",
    fields: ["id", "provider_id", "amount", "raw_amount"],
    filters: { payment_collection_id: paymentCollectionId },
  });
  return (
    data as { id: string; provider_id: string; amount: unknown; raw_amount?: { value?: string } }[]
  ).map((session) => ({
    id: session.id,
    provider_id: session.provider_id,
    amount: String(session.raw_amount?.value ?? session.amount),
  }));
}
