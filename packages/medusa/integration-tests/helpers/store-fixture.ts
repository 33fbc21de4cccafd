import type { IInventoryService, MedusaContainer } from "@medusajs/framework/types";
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils";
import {
  createApiKeysWorkflow,
  createCartWorkflow,
  createInventoryLevelsWorkflow,
  createProductsWorkflow,
  createRegionsWorkflow,
  createSalesChannelsWorkflow,
  createShippingOptionsWorkflow,
  createShippingProfilesWorkflow,
  createStockLocationsWorkflow,
  linkSalesChannelsToApiKeyWorkflow,
  linkSalesChannelsToStockLocationWorkflow,
} from "@medusajs/medusa/core-flows";

/** A BRL store with this plugin's providers enabled on its region. */
export interface StoreFixture {
  regionId: string;
  salesChannelId: string;
  publishableKey: string;
}

/** A second storefront of the same store: its own sales channel and publishable key. */
export async function createOtherStorefrontKey(container: MedusaContainer): Promise<string> {
  const { result: channels } = await createSalesChannelsWorkflow(container).run({
    input: { salesChannelsData: [{ name: "Outlet" }] },
  });
  const { result: keys } = await createApiKeysWorkflow(container).run({
    input: { api_keys: [{ title: "outlet storefront", type: "publishable", created_by: "" }] },
  });
  await linkSalesChannelsToApiKeyWorkflow(container).run({
    input: { id: keys[0]!.id, add: [channels[0]!.id] },
  });
  return keys[0]!.token;
}

/**
 * Creates the region, sales channel and publishable key a storefront needs. `alsoProviders`:
 * other payment providers the region offers beside this plugin's (Medusa's `pp_system_default`
 * stands in for a card, or payment on delivery).
 */
export async function createStoreFixture(
  container: MedusaContainer,
  alsoProviders: string[] = [],
): Promise<StoreFixture> {
  const { result: channels } = await createSalesChannelsWorkflow(container).run({
    input: { salesChannelsData: [{ name: "Web" }] },
  });
  const { result: regions } = await createRegionsWorkflow(container).run({
    input: {
      regions: [
        {
          name: "Brasil",
          currency_code: "brl",
          countries: ["br"],
          payment_providers: ["pp_pix_a", "pp_boleto_a", "pp_pix_b", ...alsoProviders],
        },
      ],
    },
  });
  const { result: keys } = await createApiKeysWorkflow(container).run({
    input: { api_keys: [{ title: "storefront", type: "publishable", created_by: "" }] },
  });
  await linkSalesChannelsToApiKeyWorkflow(container).run({
    input: { id: keys[0]!.id, add: [channels[0]!.id] },
  });
  return {
    regionId: regions[0]!.id,
    salesChannelId: channels[0]!.id,
    publishableKey: keys[0]!.token,
  };
}

/** A cart with one custom (no shipping) item of `amount` reais. */
export function createCart(
  container: MedusaContainer,
  store: StoreFixture,
  amount: number,
): Promise<string> {
  return createCartOfLines(container, store, [amount]);
}

/** A cart with one custom (no shipping) line per unit price, in reais, one unit each. */
export async function createCartOfLines(
  container: MedusaContainer,
  store: StoreFixture,
  unitPrices: number[],
): Promise<string> {
  const { result } = await createCartWorkflow(container).run({
    input: {
      region_id: store.regionId,
      sales_channel_id: store.salesChannelId,
      currency_code: "brl",
      email: "ana@example.com",
      items: unitPrices.map((unit_price) => ({
        title: "Camiseta",
        quantity: 1,
        unit_price,
        requires_shipping: false,
      })),
    },
  });
  return result.id;
}

/** A product whose only variant has units in stock at a location the store sells from. */
export interface StockedProduct {
  variantId: string;
  inventoryItemId: string;
  locationId: string;
}

let productsMade = 0;

/**
 * Creates a stocked product (no shipping needed, so carts complete without a shipping method)
 * whose variant costs `price` reais.
 */
export async function createStockedProduct(
  container: MedusaContainer,
  store: StoreFixture,
  units = 10,
  price = 35,
): Promise<StockedProduct> {
  const { result: locations } = await createStockLocationsWorkflow(container).run({
    input: { locations: [{ name: "Depósito" }] },
  });
  const locationId = locations[0]!.id;
  await linkSalesChannelsToStockLocationWorkflow(container).run({
    input: { id: locationId, add: [store.salesChannelId] },
  });
  const { result: products } = await createProductsWorkflow(container).run({
    input: {
      products: [
        {
          title: `Caneca ${++productsMade}`,
          status: "published",
          options: [{ title: "Cor", values: ["Azul"] }],
          sales_channels: [{ id: store.salesChannelId }],
          variants: [
            {
              title: "Azul",
              options: { Cor: "Azul" },
              manage_inventory: true,
              prices: [{ amount: price, currency_code: "brl" }],
            },
          ],
        },
      ],
    },
  });
  const variantId = products[0]!.variants[0]!.id;
  const query = container.resolve(ContainerRegistrationKeys.QUERY);
  const { data } = await query.graph({
    entity: "product_variant",
    fields: ["inventory_items.inventory_item_id"],
    filters: { id: variantId },
  });
  const inventoryItemId = (data[0] as { inventory_items: { inventory_item_id: string }[] })
    .inventory_items[0]!.inventory_item_id;
  const inventory = container.resolve<IInventoryService>(Modules.INVENTORY);
  await inventory.updateInventoryItems({ id: inventoryItemId, requires_shipping: false });
  await createInventoryLevelsWorkflow(container).run({
    input: {
      inventory_levels: [
        { inventory_item_id: inventoryItemId, location_id: locationId, stocked_quantity: units },
      ],
    },
  });
  return { variantId, inventoryItemId, locationId };
}

/** A cart with one unit of a stocked variant. */
export async function createCartWithVariant(
  container: MedusaContainer,
  store: StoreFixture,
  variantId: string,
): Promise<string> {
  const { result } = await createCartWorkflow(container).run({
    input: {
      region_id: store.regionId,
      sales_channel_id: store.salesChannelId,
      currency_code: "brl",
      email: "ana@example.com",
      items: [{ variant_id: variantId, quantity: 1 }],
    },
  });
  return result.id;
}

/**
 * A cart Medusa cannot complete yet: its item ships and the cart has no shipping method (a
 * street address, so it still takes a code). `makeCompletable` lets it become an order.
 */
export async function createUncompletableCart(
  container: MedusaContainer,
  store: StoreFixture,
  amount: number,
): Promise<{ cartId: string; makeCompletable: () => Promise<void> }> {
  const { result } = await createCartWorkflow(container).run({
    input: {
      region_id: store.regionId,
      sales_channel_id: store.salesChannelId,
      currency_code: "brl",
      email: "ana@example.com",
      shipping_address: {
        address_1: "Rua das Flores, 100",
        city: "São Paulo",
        postal_code: "01310-100",
        country_code: "br",
      },
      items: [{ title: "Caneca", quantity: 1, unit_price: amount, requires_shipping: true }],
    },
  });
  const makeCompletable = async () => {
    const carts = container.resolve(Modules.CART);
    const [item] = await carts.listLineItems({ cart_id: result.id });
    await carts.updateLineItems(item!.id, { requires_shipping: false });
  };
  return { cartId: result.id, makeCompletable };
}

/**
 * A delivery option the store's storefront offers in Brazil (Medusa's manual fulfillment, a
 * flat price in reais): a stock location of the store's sales channel, its fulfillment set and
 * service zone, and the option. Resolves with the option's id, for
 * `POST /store/carts/:id/shipping-methods`.
 */
export async function createShippingOption(
  container: MedusaContainer,
  store: StoreFixture,
  name: string,
  amount: number,
): Promise<string> {
  const link = container.resolve(ContainerRegistrationKeys.LINK);
  const fulfillment = container.resolve(Modules.FULFILLMENT);
  const { result: locations } = await createStockLocationsWorkflow(container).run({
    input: { locations: [{ name: `Expedição ${name}` }] },
  });
  const locationId = locations[0]!.id;
  await linkSalesChannelsToStockLocationWorkflow(container).run({
    input: { id: locationId, add: [store.salesChannelId] },
  });
  await link.create({
    [Modules.STOCK_LOCATION]: { stock_location_id: locationId },
    [Modules.FULFILLMENT]: { fulfillment_provider_id: "manual_manual" },
  });
  const set = await fulfillment.createFulfillmentSets({
    name: `Entregas ${name} ${locationId}`,
    type: "shipping",
    service_zones: [
      {
        name: `Brasil ${name} ${locationId}`,
        geo_zones: [{ type: "country", country_code: "br" }],
      },
    ],
  });
  await link.create({
    [Modules.STOCK_LOCATION]: { stock_location_id: locationId },
    [Modules.FULFILLMENT]: { fulfillment_set_id: set.id },
  });
  let [profile] = await fulfillment.listShippingProfiles({ type: "default" });
  if (!profile) {
    const { result } = await createShippingProfilesWorkflow(container).run({
      input: { data: [{ name: "Padrão", type: "default" }] },
    });
    profile = result[0];
  }
  const { result: options } = await createShippingOptionsWorkflow(container).run({
    input: [
      {
        name,
        price_type: "flat",
        provider_id: "manual_manual",
        service_zone_id: set.service_zones[0]!.id,
        shipping_profile_id: profile!.id,
        type: { label: name, description: name, code: name.toLowerCase() },
        prices: [
          { currency_code: "brl", amount },
          { region_id: store.regionId, amount },
        ],
        rules: [
          { attribute: "enabled_in_store", value: "true", operator: "eq" },
          { attribute: "is_return", value: "false", operator: "eq" },
        ],
      },
    ],
  });
  return options[0]!.id;
}
