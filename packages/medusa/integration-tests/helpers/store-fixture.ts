import type { MedusaContainer } from "@medusajs/framework/types";
import {
  createApiKeysWorkflow,
  createCartWorkflow,
  createRegionsWorkflow,
  createSalesChannelsWorkflow,
  linkSalesChannelsToApiKeyWorkflow,
} from "@medusajs/medusa/core-flows";

/** A BRL store with this plugin's providers enabled on its region. */
export interface StoreFixture {
  regionId: string;
  salesChannelId: string;
  publishableKey: string;
}

/** Creates the region, sales channel and publishable key a storefront needs. */
export async function createStoreFixture(container: MedusaContainer): Promise<StoreFixture> {
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
          payment_providers: ["pp_pix_a", "pp_boleto_a", "pp_pix_b"],
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
export async function createCart(
  container: MedusaContainer,
  store: StoreFixture,
  amount: number,
): Promise<string> {
  const { result } = await createCartWorkflow(container).run({
    input: {
      region_id: store.regionId,
      sales_channel_id: store.salesChannelId,
      currency_code: "brl",
      email: "ana@example.com",
      items: [{ title: "Camiseta", quantity: 1, unit_price: amount, requires_shipping: false }],
    },
  });
  return result.id;
}
