import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import type { MedusaContainer } from "@medusajs/framework/types";
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { createPluginLogger } from "../platform/logger";
import { OWN_PROVIDER } from "../platform/provider-registry";

/** The cart (`oc.cart_id`) has a live session of the plugin's own providers. */
const PLUGIN_CART_SQL = `and exists (
          select 1 from cart_payment_collection cpc
            join payment_session ps on ps.payment_collection_id = cpc.payment_collection_id
             and ps.deleted_at is null and ps.provider_id ~ ?
           where cpc.cart_id = oc.cart_id and cpc.deleted_at is null)`;

/**
 * A cart linked to an order that does not exist.
 *
 * Medusa's cart completion creates the order, then links it to the cart, in separate writes; if
 * the database restarts in between, the workflow's undo deletes the order but cannot remove the
 * link. Completion then answers that link's order id for ever without creating one (it reads
 * `order_cart` first), so the cart never becomes an order: in the chaos run, a boleto paid on
 * such a cart was captured with no order to hold it, and the shopper's confirmation page named
 * an order nobody could open. Removing the link (Medusa's own `dismiss`) lets the next
 * completion create the order.
 *
 * Only a link whose order is absent from Medusa's order table, canceled or not, is removed;
 * a cart with a real order is left alone. With `pluginCartsOnly`, only a cart whose collection
 * holds a live session of the plugin's providers is repaired (the shopper's door, which every
 * cart of the store goes through; see {@link unlinkOrphanOrderOfPluginCart}).
 */
export async function unlinkOrphanOrder(
  container: MedusaContainer,
  cartId: string,
  { pluginCartsOnly = false }: { pluginCartsOnly?: boolean } = {},
): Promise<string[]> {
  const db = container.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION);
  // One statement, also when it must first ask whether the cart is the plugin's: the shopper's
  // completion of every cart of the store pays for it.
  const orphans = await db.raw<{ rows: { order_id: string }[] }>(
    `select oc.order_id from order_cart oc
      where oc.cart_id = ? and oc.deleted_at is null
        and not exists (select 1 from "order" o where o.id = oc.order_id)
        ${pluginCartsOnly ? PLUGIN_CART_SQL : ""}`,
    pluginCartsOnly ? [cartId, OWN_PROVIDER.source] : [cartId],
  );
  const orderIds = orphans.rows.map((row) => row.order_id);
  if (orderIds.length === 0) return [];
  const link = container.resolve(ContainerRegistrationKeys.LINK);
  await link.dismiss(
    orderIds.map((orderId) => ({
      [Modules.ORDER]: { order_id: orderId },
      [Modules.CART]: { cart_id: cartId },
    })),
  );
  createPluginLogger(container.resolve(ContainerRegistrationKeys.LOGGER)).warn(
    `cart ${cartId} was linked to order ${orderIds.join(", ")}, which does not exist (a completion undone halfway, e.g. by a database restart); the link was removed so the cart can become an order`,
  );
  return orderIds;
}

/**
 * Middleware for `POST /store/carts/:id/complete`: before Medusa completes a cart paid or
 * being paid with the plugin's Pix or boleto, a link to an order that does not exist is removed
 * (see {@link unlinkOrphanOrder}), so the shopper's completion creates the order instead of
 * answering one that is gone. Other carts go through untouched.
 */
export async function unlinkOrphanOrderOfPluginCart(
  req: MedusaRequest,
  _res: MedusaResponse,
  next: MedusaNextFunction,
): Promise<void> {
  const cartId = (req.params as Record<string, string | undefined>).id;
  if (!cartId) return next();
  try {
    await unlinkOrphanOrder(req.scope, cartId, { pluginCartsOnly: true });
  } catch (error) {
    return next(error);
  }
  next();
}
