import type { IOrderModuleService, MedusaContainer } from "@medusajs/framework/types";
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils";
import { createCartWorkflow } from "@medusajs/medusa/core-flows";
import { control, db, orderOfCart, type Api, type Json } from "./checkout";
import type { StoreFixture } from "./store-fixture";
import { waitFor } from "./wait-for";

/*
 * Money a customer owes after the sale, made as a merchant makes it: through Medusa's own admin
 * routes (order edits, exchanges, claims, draft orders), each leaving a payment collection on
 * the order.
 */

/** An admin client: Medusa's admin routes with a merchant's login. */
export function adminClient(api: Api, headers: Record<string, string>) {
  return async (method: string, url: string, data?: unknown) => {
    const response = await api.request({
      method,
      url,
      data,
      headers,
      validateStatus: () => true,
    });
    if (response.status >= 300) {
      throw new Error(
        `${method.toUpperCase()} ${url} answered ${response.status}: ${JSON.stringify(response.data)}`,
      );
    }
    return response.data as Json;
  };
}

/** An admin call as `adminClient` makes. */
export type Admin = ReturnType<typeof adminClient>;

/** Storefront calls as helpers/checkout.ts `storefront` makes. */
interface Shop {
  initiate(
    cartId: string,
    providerId: string,
    data?: Record<string, unknown>,
  ): Promise<{ status: number; data: Json }>;
}

/**
 * An order of one unit of `variantId` paid by Pix through the sandbox, captured: what a
 * merchant later edits, exchanges or claims. Returns the order's id and its line item.
 */
export async function paidVariantOrder(
  container: MedusaContainer,
  shop: Shop,
  store: StoreFixture,
  sandboxUrl: string,
  variantId: string,
  email: string,
): Promise<{ orderId: string; itemId: string }> {
  const { result: cart } = await createCartWorkflow(container).run({
    input: {
      region_id: store.regionId,
      sales_channel_id: store.salesChannelId,
      currency_code: "brl",
      email,
      billing_address: {
        first_name: "Ana",
        last_name: "Souza",
        address_1: "Rua Augusta",
        city: "São Paulo",
        province: "SP",
        postal_code: "01310-100",
        country_code: "br",
        phone: "11987654321",
      },
      items: [{ variant_id: variantId, quantity: 1 }],
    },
  });
  const created = await shop.initiate(cart.id, "pp_pix_a");
  if (created.status !== 200) throw new Error(JSON.stringify(created.data));
  const session = created.data.payment_collection.payment_sessions[0] as { id: string };
  const charge = await waitFor(
    async () =>
      (await db(container)("pix_checkout_charge").where({ session_id: session.id }).first()) ??
      false,
    "the order's code",
  );
  const paid = await control(sandboxUrl, `charges/${charge.charge_id}/pay`, {});
  if (!paid.ok) throw new Error(`the sandbox did not pay ${charge.charge_id}`);
  const order = await waitFor(
    async () => {
      const found = await orderOfCart(container, cart.id);
      return found?.payment_collections[0]?.status === "completed" && found;
    },
    "the order to be paid",
    60_000,
  );
  const query = container.resolve(ContainerRegistrationKeys.QUERY);
  const { data } = await query.graph({
    entity: "order",
    fields: ["items.id"],
    filters: { id: order.id },
  });
  return { orderId: order.id, itemId: (data[0] as { items: { id: string }[] }).items[0]!.id };
}

/** The order's payment collections as Medusa's admin reads them, with its summary. */
export async function adminOrder(admin: Admin, orderId: string) {
  const { order } = await admin(
    "get",
    `/admin/orders/${orderId}?fields=id,display_id,summary,*payment_collections,*payment_collections.payment_sessions`,
  );
  return order as Json;
}

/** The collection a change left unpaid on the order (Medusa's "Copy payment link" one). */
export async function unpaidCollection(admin: Admin, orderId: string) {
  const order = await adminOrder(admin, orderId);
  return (order.payment_collections as Json[]).find((pc) => pc.status === "not_paid") as Json;
}

/** Adds `quantity` of `variantId` to a paid order through an order edit, confirmed. */
export async function editOrder(admin: Admin, orderId: string, variantId: string, quantity = 1) {
  const { order_change: change } = await admin("post", "/admin/order-edits", { order_id: orderId });
  await admin("post", `/admin/order-edits/${orderId}/items`, {
    items: [{ variant_id: variantId, quantity }],
  });
  await admin("post", `/admin/order-edits/${orderId}/request`);
  await admin("post", `/admin/order-edits/${orderId}/confirm`);
  return change as Json;
}

/**
 * Records the order's item `itemId` as fulfilled, what a return, exchange or claim of it needs.
 * Through the order module: Medusa's fulfillment route needs a shipping option the test store's
 * digital items have no use for; the exchanges and claims themselves go through the admin routes.
 */
export async function markFulfilled(container: MedusaContainer, orderId: string, itemId: string) {
  const orders = container.resolve<IOrderModuleService>(Modules.ORDER);
  await orders.registerFulfillment({ order_id: orderId, items: [{ id: itemId, quantity: 1 }] });
}

/** Swaps the order's item `itemId` for `quantity` units of `variantId`: an exchange, confirmed. */
export async function exchangeOrder(
  admin: Admin,
  orderId: string,
  itemId: string,
  variantId: string,
  quantity: number,
) {
  const { exchange } = await admin("post", "/admin/exchanges", { order_id: orderId });
  await admin("post", `/admin/exchanges/${exchange.id}/inbound/items`, {
    items: [{ id: itemId, quantity: 1 }],
  });
  await admin("post", `/admin/exchanges/${exchange.id}/outbound/items`, {
    items: [{ variant_id: variantId, quantity }],
  });
  await admin("post", `/admin/exchanges/${exchange.id}/request`);
  return exchange as Json;
}

/**
 * An exchange of the order's item `itemId` (as `exchangeOrder`), whose returned item the store
 * then receives: Medusa records the receipt as a `return_receive` change of the exchange's return.
 */
export async function exchangeReceivedOrder(
  admin: Admin,
  orderId: string,
  itemId: string,
  variantId: string,
  quantity: number,
) {
  const exchange = await exchangeOrder(admin, orderId, itemId, variantId, quantity);
  const { exchange: confirmed } = await admin("get", `/admin/exchanges/${exchange.id}`);
  const returnId = confirmed.return_id as string;
  await admin("post", `/admin/returns/${returnId}/receive`, {});
  await admin("post", `/admin/returns/${returnId}/receive-items`, {
    items: [{ id: itemId, quantity: 1 }],
  });
  await admin("post", `/admin/returns/${returnId}/receive/confirm`, {});
  return exchange;
}

/** A claim replacing the order's item `itemId` with `quantity` units of `variantId`, confirmed. */
export async function claimOrder(
  admin: Admin,
  orderId: string,
  itemId: string,
  variantId: string,
  quantity: number,
) {
  const { claim } = await admin("post", "/admin/claims", { order_id: orderId, type: "replace" });
  await admin("post", `/admin/claims/${claim.id}/inbound/items`, {
    items: [{ id: itemId, quantity: 1, reason: "production_failure" }],
  });
  await admin("post", `/admin/claims/${claim.id}/outbound/items`, {
    items: [{ variant_id: variantId, quantity }],
  });
  await admin("post", `/admin/claims/${claim.id}/request`);
  return claim as Json;
}

/** A draft order of `quantity` units of `variantId`, converted to an order: no collection yet. */
export async function convertedDraftOrder(
  admin: Admin,
  store: StoreFixture,
  variantId: string,
  quantity: number,
  email: string,
) {
  const { draft_order: draft } = await admin("post", "/admin/draft-orders", {
    email,
    region_id: store.regionId,
    sales_channel_id: store.salesChannelId,
    billing_address: {
      first_name: "Bruno",
      last_name: "Lima",
      address_1: "Av. Paulista",
      city: "São Paulo",
      province: "SP",
      postal_code: "01311-000",
      country_code: "br",
      phone: "11912345678",
    },
    items: [{ variant_id: variantId, quantity }],
  });
  await admin("post", `/admin/draft-orders/${draft.id}/convert-to-order`);
  return draft.id as string;
}
