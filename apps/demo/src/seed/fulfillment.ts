import type { MedusaContainer } from "@medusajs/framework/types";
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils";
import {
  createShippingOptionsWorkflow,
  createShippingProfilesWorkflow,
  createStockLocationsWorkflow,
  linkSalesChannelsToStockLocationWorkflow,
  updateStoresWorkflow,
} from "@medusajs/medusa/core-flows";
import { demoNames, demoShippingOptions } from "./catalog";
import { centsToMedusaAmount } from "./money";

const manualFulfillmentProvider = "manual_manual";

/** What the product seed needs from the fulfillment seed. */
export interface SeededFulfillment {
  stockLocationId: string;
  shippingProfileId: string;
}

/**
 * Makes sure a São Paulo stock location ships to all of Brazil through Medusa's manual
 * fulfillment provider, with the demo's flat-rate options. Each piece is looked up before
 * it is made, so a run that stopped half-way is finished by the next one.
 */
export async function seedFulfillment(
  container: MedusaContainer,
  ids: { regionId: string; salesChannelId: string },
): Promise<SeededFulfillment> {
  const link = container.resolve(ContainerRegistrationKeys.LINK);
  const query = container.resolve(ContainerRegistrationKeys.QUERY);
  const stockLocationModule = container.resolve(Modules.STOCK_LOCATION);
  const fulfillmentModule = container.resolve(Modules.FULFILLMENT);
  const storeModule = container.resolve(Modules.STORE);

  let [location] = await stockLocationModule.listStockLocations({
    name: demoNames.stockLocation,
  });
  if (!location) {
    const { result } = await createStockLocationsWorkflow(container).run({
      input: {
        locations: [
          {
            name: demoNames.stockLocation,
            address: {
              address_1: "Avenida Paulista, 1000",
              city: "São Paulo",
              province: "SP",
              postal_code: "01310-100",
              country_code: "BR",
            },
          },
        ],
      },
    });
    location = result[0];
  }
  if (!location) throw new Error("Could not create the stock location.");

  const [store] = await storeModule.listStores();
  if (store && store.default_location_id !== location.id) {
    await updateStoresWorkflow(container).run({
      input: { selector: { id: store.id }, update: { default_location_id: location.id } },
    });
  }

  const { data: linked } = await query.graph({
    entity: "stock_location",
    fields: ["id", "fulfillment_providers.id", "fulfillment_sets.id", "sales_channels.id"],
    filters: { id: location.id },
  });
  const current = linked[0] as
    | {
        fulfillment_providers?: { id: string }[];
        fulfillment_sets?: { id: string }[];
        sales_channels?: { id: string }[];
      }
    | undefined;

  if (!current?.fulfillment_providers?.some((p) => p.id === manualFulfillmentProvider)) {
    await link.create({
      [Modules.STOCK_LOCATION]: { stock_location_id: location.id },
      [Modules.FULFILLMENT]: { fulfillment_provider_id: manualFulfillmentProvider },
    });
  }

  let [fulfillmentSet] = await fulfillmentModule.listFulfillmentSets(
    { name: demoNames.fulfillmentSet },
    { relations: ["service_zones"] },
  );
  if (!fulfillmentSet) {
    fulfillmentSet = await fulfillmentModule.createFulfillmentSets({
      name: demoNames.fulfillmentSet,
      type: "shipping",
      service_zones: [
        { name: demoNames.serviceZone, geo_zones: [{ type: "country", country_code: "br" }] },
      ],
    });
  }
  if (!current?.fulfillment_sets?.some((set) => set.id === fulfillmentSet.id)) {
    await link.create({
      [Modules.STOCK_LOCATION]: { stock_location_id: location.id },
      [Modules.FULFILLMENT]: { fulfillment_set_id: fulfillmentSet.id },
    });
  }
  const serviceZone = fulfillmentSet.service_zones[0];
  if (!serviceZone) throw new Error(`Fulfillment set ${fulfillmentSet.id} has no service zone.`);

  let [profile] = await fulfillmentModule.listShippingProfiles({ type: "default" });
  if (!profile) {
    const { result } = await createShippingProfilesWorkflow(container).run({
      input: { data: [{ name: "Default Shipping Profile", type: "default" }] },
    });
    profile = result[0];
  }
  if (!profile) throw new Error("Could not create the default shipping profile.");

  const existing = await fulfillmentModule.listShippingOptions({
    name: demoShippingOptions.map((option) => option.name),
  });
  const missing = demoShippingOptions.filter(
    (option) => !existing.some((found) => found.name === option.name),
  );
  if (missing.length > 0) {
    await createShippingOptionsWorkflow(container).run({
      input: missing.map((option) => ({
        name: option.name,
        price_type: "flat" as const,
        provider_id: manualFulfillmentProvider,
        service_zone_id: serviceZone.id,
        shipping_profile_id: profile.id,
        type: { label: option.name, description: option.description, code: option.code },
        prices: [
          { currency_code: "brl", amount: centsToMedusaAmount(option.priceCents) },
          { region_id: ids.regionId, amount: centsToMedusaAmount(option.priceCents) },
        ],
        rules: [
          { attribute: "enabled_in_store", value: "true", operator: "eq" as const },
          { attribute: "is_return", value: "false", operator: "eq" as const },
        ],
      })),
    });
  }

  if (!current?.sales_channels?.some((channel) => channel.id === ids.salesChannelId)) {
    await linkSalesChannelsToStockLocationWorkflow(container).run({
      input: { id: location.id, add: [ids.salesChannelId] },
    });
  }
  return { stockLocationId: location.id, shippingProfileId: profile.id };
}
