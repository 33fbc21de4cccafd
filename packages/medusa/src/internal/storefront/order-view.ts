import type { MedusaContainer } from "@medusajs/framework/types";
import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import type { ConfigModule } from "@medusajs/framework/types";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import type { ShopperOrder } from "../medusa/collection-links";
import { readMedusaSide } from "../medusa/collection-snapshot";
import { recordsOf } from "../records/records";
import { collectionPaidOf } from "../settlement/snapshot";
import { earlierPaymentOf, type EarlierPayment } from "./earlier-payment";

/** What an order's page tells the shopper of its Pix and boleto money. */
export interface StoreOrderView {
  order_id: string;
  /** Money an older code of the cart brought, which the store returns; null when none. */
  earlier_payment: EarlierPayment | null;
}

/**
 * The order's view from the ledger: every charge of the collections that paid or pay for it
 * (a replaced code, a code paid after the cart was paid by another provider), whether the order
 * is paid by one of them or another way (Medusa's payments), and what of it is owed back.
 */
export async function orderView(
  scope: MedusaContainer,
  order: ShopperOrder,
): Promise<StoreOrderView> {
  const db = scope.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION);
  const config = scope.resolve<ConfigModule>(ContainerRegistrationKeys.CONFIG_MODULE);
  const records = recordsOf(db);
  const collections = await Promise.all(
    order.collectionIds.map(async (id) => {
      const charges = await records.charges.ofCollection(id);
      if (charges.length === 0) return { charges, paid: false };
      const paid =
        (await collectionPaidOf(records, config, id, await readMedusaSide(db, id))) !== null;
      return { charges, paid };
    }),
  );
  const earlier = await earlierPaymentOf(
    records.ledger,
    collections.flatMap((collection) => collection.charges),
    null,
    collections.some((collection) => collection.paid),
  );
  return { order_id: order.id, earlier_payment: earlier ?? null };
}
