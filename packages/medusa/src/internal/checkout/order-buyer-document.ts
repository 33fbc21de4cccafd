import type { IOrderModuleService, MedusaContainer } from "@medusajs/framework/types";
import { Modules } from "@medusajs/framework/utils";
import {
  BUYER_DOCUMENT_METADATA_KEY,
  buyerDocumentOnOrder,
  type BuyerDocument,
} from "../platform/buyer-document";

/**
 * Writes the buyer's document on Medusa's order (`metadata.pix_checkout_buyer_document`, README
 * "Nota fiscal"), keeping every other key of the order's metadata. Nothing is written when the
 * order already says the same. The document comes from the plugin's own record of the charge,
 * never from a cart's or an order's metadata a client wrote. Returns whether it wrote.
 */
export async function writeBuyerDocumentOnOrder(
  container: MedusaContainer,
  orderId: string,
  document: BuyerDocument,
): Promise<boolean> {
  const orders = container.resolve<IOrderModuleService>(Modules.ORDER);
  const order = await orders.retrieveOrder(orderId, { select: ["id", "metadata"] });
  const metadata = (order.metadata ?? {}) as Record<string, unknown>;
  const now = buyerDocumentOnOrder(metadata);
  if (now && now.type === document.type && now.number === document.number) return false;
  await orders.updateOrders(orderId, {
    metadata: { ...metadata, [BUYER_DOCUMENT_METADATA_KEY]: { ...document } },
  });
  return true;
}
