import { refreshCartItemsWorkflow } from "@medusajs/medusa/core-flows";
import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import type { MedusaContainer } from "@medusajs/framework/types";
import { toCents } from "../platform/money";

/** A cart as Medusa prices it now. */
export interface RepricedCart {
  id: string;
  completed: boolean;
  /** What the payment collection asks now (the Pix discount included when Pix is chosen). */
  amountCents: number | null;
  lines: { title: string; quantity: number }[];
  /** The cart's sales channel: which publishable key may ask Medusa's store routes about it. */
  salesChannelId: string | null;
}

/**
 * Prices a cart again as Medusa would at its next change (`refreshCartItemsWorkflow`: current
 * prices, promotions, the Pix discount in whole cents, the payment collection's amount), then
 * reads it. A completed cart is only read.
 */
export async function repriceCart(
  container: MedusaContainer,
  cartId: string,
): Promise<RepricedCart> {
  const read = async () => {
    const query = container.resolve(ContainerRegistrationKeys.QUERY);
    const { data } = await query.graph({
      entity: "cart",
      fields: [
        "id",
        "completed_at",
        "sales_channel_id",
        "items.title",
        "items.quantity",
        "payment_collection.amount",
      ],
      filters: { id: cartId },
    });
    return data[0] as
      | {
          id: string;
          completed_at: string | null;
          sales_channel_id?: string | null;
          items?: { title: string; quantity: number }[];
          payment_collection?: { amount: number } | null;
        }
      | undefined;
  };
  const before = await read();
  if (!before) throw new Error(`cart ${cartId} not found`);
  if (!before.completed_at) {
    await refreshCartItemsWorkflow(container).run({
      input: { cart_id: cartId, force_refresh: true },
    });
  }
  const cart = (await read()) ?? before;
  const amount = cart.payment_collection?.amount;
  return {
    id: cart.id,
    completed: Boolean(cart.completed_at),
    amountCents: amount === undefined || amount === null ? null : toCents(amount),
    salesChannelId: cart.sales_channel_id ?? null,
    lines: (cart.items ?? []).map((item) => ({
      title: item.title,
      quantity: Number(item.quantity),
    })),
  };
}
