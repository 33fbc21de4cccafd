import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import type { MedusaContainer } from "@medusajs/framework/types";
import { cartWith } from "./carts";

/*
 * Who buys: a cart's e-mail and customer, and whether a mailbox already has a paid order here,
 * read with Query for the shopper's messages (storefront/notification.ts).
 */

/** A cart's e-mail and its customer's, and whether that customer has an account. */
export interface CartBuyer {
  email?: string | null;
  customer?: { email?: string | null; has_account?: boolean } | null;
}

/** The buyer of cart `cartId`; undefined without such a cart. */
export function cartBuyer(
  container: MedusaContainer,
  cartId: string,
): Promise<CartBuyer | undefined> {
  return cartWith<CartBuyer>(container, cartId, [
    "id",
    "email",
    "customer.email",
    "customer.has_account",
  ]);
}

/** Whether a mailbox has an order here already paid (its payment collection completed). */
export async function mailboxHasPaidOrder(
  container: MedusaContainer,
  email: string,
): Promise<boolean> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY);
  const { data } = await query.graph({
    entity: "order",
    fields: ["id", "payment_collections.status"],
    filters: { email: email.trim() },
    pagination: { take: 20 },
  });
  return (data as { payment_collections?: { status: string }[] }[]).some((order) =>
    (order.payment_collections ?? []).some((collection) => collection.status === "completed"),
  );
}
