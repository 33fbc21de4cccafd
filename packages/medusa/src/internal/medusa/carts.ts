import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import type { MedusaContainer } from "@medusajs/framework/types";

/*
 * Medusa's carts, read with Query for the routes and middlewares that need a cart's fields:
 * the store's cart routes by the cart, Medusa's payment-session route by the collection.
 */

/** The cart `cartId` with `fields` (Query's field paths); undefined when there is none. */
export async function cartWith<T>(
  container: MedusaContainer,
  cartId: string,
  fields: readonly string[],
): Promise<T | undefined> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY);
  const { data } = await query.graph({
    entity: "cart",
    fields: [...fields],
    filters: { id: cartId },
  });
  return data[0] as T | undefined;
}

/**
 * The cart a payment collection pays for, with `fields` (paths of the cart); undefined for no
 * such collection, or one of no cart (an order's own collection).
 */
export async function cartOfCollectionWith<T>(
  container: MedusaContainer,
  paymentCollectionId: string,
  fields: readonly string[],
): Promise<T | undefined> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY);
  const { data } = await query.graph({
    entity: "payment_collection",
    fields: fields.map((field) => `cart.${field}`),
    filters: { id: paymentCollectionId },
  });
  return ((data[0] as { cart?: T | null } | undefined)?.cart ?? undefined) as T | undefined;
}

/** The payment collection of a cart, if it has one. */
export async function collectionOfCart(
  container: MedusaContainer,
  cartId: string,
): Promise<string | undefined> {
  const cart = await cartWith<{ payment_collection?: { id: string } | null }>(container, cartId, [
    "id",
    "payment_collection.id",
  ]);
  return cart?.payment_collection?.id;
}
