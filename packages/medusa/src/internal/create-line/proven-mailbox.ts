import type { MedusaContainer } from "@medusajs/framework/types";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import { mailboxHasPaidOrder } from "../medusa/buyers";
import { cartOfCollectionWith } from "../medusa/carts";

/**
 * Whether a buyer's mailbox has an order paid at this store (the `mailbox` vouch,
 * client-origin.ts), read through the cart's customer (Medusa's index on the order's customer).
 * A buyer with no customer (an order's own collection) is not looked up: no session request
 * scans the orders by e-mail.
 */
export async function provenMailbox(
  db: Knex,
  buyer: { email: string; customerId?: string | null },
): Promise<boolean> {
  return buyer.customerId ? mailboxHasPaidOrder(db, buyer.email, buyer.customerId) : false;
}

/** `provenMailbox` of the cart a payment collection belongs to; false for no cart or e-mail. */
export async function cartHasProvenMailbox(
  container: MedusaContainer,
  collectionId: string,
): Promise<boolean> {
  const cart = await cartOfCollectionWith<{ email?: string | null; customer_id?: string | null }>(
    container,
    collectionId,
    ["email", "customer_id"],
  );
  if (!cart?.email) return false;
  return provenMailbox(container.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION), {
    email: cart.email,
    customerId: cart.customer_id ?? null,
  });
}
