import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import type { IOrderModuleService, MedusaContainer } from "@medusajs/framework/types";
import { Modules } from "@medusajs/framework/utils";
import type { BuyerDocument } from "../platform/buyer-document";
import { metadataOfOrder } from "../medusa/order-metadata";
import { orderMetadataUpdate } from "./plugin-metadata";

/**
 * Leaves a placed order with only the plugin's keys as its records stand behind them (see
 * `orderMetadataUpdate`): the buyer's document (`metadata.pix_checkout_buyer_document`, README
 * "Nota fiscal") from the plugin's own record of the order's charges, never from a cart's or an
 * order's metadata someone else wrote, and no other `pix_checkout_*` key Medusa copied from the
 * cart. Every other key of the order's metadata is kept. Nothing is written when the order
 * already says exactly that (one read, no write: most orders). Returns whether it wrote.
 */
export async function ownPluginKeysOfOrder(
  container: MedusaContainer,
  db: Knex,
  orderId: string,
  document: BuyerDocument | undefined,
): Promise<boolean> {
  const metadata = await metadataOfOrder(db, orderId);
  if (metadata === undefined) return false;
  const update = orderMetadataUpdate(metadata, document);
  if (!update) return false;
  // Medusa's order module merges metadata: keys not named stay, a key set to "" goes.
  const orders = container.resolve<IOrderModuleService>(Modules.ORDER);
  await orders.updateOrders(orderId, { metadata: update });
  return true;
}
