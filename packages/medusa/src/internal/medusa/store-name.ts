import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import type { MedusaContainer } from "@medusajs/framework/types";

// What the plugin's pages name to a shopper: the store, and the mailbox a message went to.

/** The store's name as Medusa holds it (Settings → Store), or null when it has none or cannot say. */
export async function storeName(container: MedusaContainer): Promise<string | null> {
  try {
    const query = container.resolve(ContainerRegistrationKeys.QUERY);
    const { data } = await query.graph({ entity: "store", fields: ["name"] });
    const name = (data[0] as { name?: string | null } | undefined)?.name?.trim();
    return name || null;
  } catch {
    return null;
  }
}

/**
 * The e-mail of the cart (else its order) behind a payment collection, as the shopper typed
 * it, or null: what a page about "your mailbox" names (masked) to the shopper.
 */
export async function mailboxOfCollection(
  container: MedusaContainer,
  paymentCollectionId: string | null,
): Promise<string | null> {
  if (!paymentCollectionId) return null;
  try {
    const query = container.resolve(ContainerRegistrationKeys.QUERY);
    const { data } = await query.graph({
      entity: "cart_payment_collection",
      fields: ["cart.email"],
      filters: { payment_collection_id: paymentCollectionId },
    });
    const email = (data[0] as { cart?: { email?: string | null } | null } | undefined)?.cart?.email;
    return email?.trim() || null;
  } catch {
    return null;
  }
}
