import type { MedusaContainer } from "@medusajs/framework/types";
import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import type { ChargeRow } from "../records/charges";
import { buyerDocumentOnOrder, type BuyerDocument } from "../platform/buyer-document";

/** The Medusa order a charge paid, as the admin shows it: `#12 · Ana Souza`, linked. */
export interface ChargeOrder {
  id: string;
  display_id: number | null;
  email: string | null;
  customer_name: string | null;
  /** The buyer's CPF or CNPJ the plugin wrote on the order (README "Nota fiscal"), if any. */
  buyer_document: BuyerDocument | null;
}

/**
 * The orders behind charges, by charge id, through Medusa's own links (payment collection →
 * order), read with Query: the plugin never reads Medusa's tables itself. A charge whose cart
 * never became an order (a shopper who paid an old code after switching method) has none.
 */
export async function ordersOfCharges(
  container: MedusaContainer,
  rows: readonly Pick<ChargeRow, "charge_id" | "payment_collection_id">[],
): Promise<Map<string, ChargeOrder>> {
  const collections = [
    ...new Set(rows.map((r) => r.payment_collection_id).filter((id): id is string => !!id)),
  ];
  const found = new Map<string, ChargeOrder>();
  if (collections.length === 0) return found;
  const query = container.resolve(ContainerRegistrationKeys.QUERY);
  const { data: links } = await query.graph({
    entity: "order_payment_collection",
    fields: ["order_id", "payment_collection_id"],
    filters: { payment_collection_id: collections },
  });
  const orderOfCollection = new Map(
    (links as { order_id: string; payment_collection_id: string }[]).map((l) => [
      l.payment_collection_id,
      l.order_id,
    ]),
  );
  const orderIds = [...new Set(orderOfCollection.values())];
  if (orderIds.length === 0) return found;
  const { data: orders } = await query.graph({
    entity: "order",
    fields: ["id", "display_id", "email", "metadata", "customer.first_name", "customer.last_name"],
    filters: { id: orderIds },
  });
  const byId = new Map(
    (
      orders as {
        id: string;
        display_id?: number | null;
        email?: string | null;
        metadata?: Record<string, unknown> | null;
        customer?: { first_name?: string | null; last_name?: string | null } | null;
      }[]
    ).map((o) => [
      o.id,
      {
        id: o.id,
        display_id: o.display_id ?? null,
        email: o.email ?? null,
        customer_name:
          [o.customer?.first_name, o.customer?.last_name].filter(Boolean).join(" ") || null,
        buyer_document: buyerDocumentOnOrder(o.metadata) ?? null,
      },
    ]),
  );
  for (const row of rows) {
    const orderId = row.payment_collection_id
      ? orderOfCollection.get(row.payment_collection_id)
      : undefined;
    const order = orderId ? byId.get(orderId) : undefined;
    if (order) found.set(row.charge_id, order);
  }
  return found;
}
