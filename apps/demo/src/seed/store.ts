import type { MedusaContainer } from "@medusajs/framework/types";
import { Modules } from "@medusajs/framework/utils";
import { createSalesChannelsWorkflow, updateStoresWorkflow } from "@medusajs/medusa/core-flows";
import { demoNames } from "./catalog";

/**
 * Makes BRL the store's default currency and returns the id of its default sales channel,
 * creating the channel on the first run.
 */
export async function seedStore(container: MedusaContainer): Promise<{ salesChannelId: string }> {
  const storeModule = container.resolve(Modules.STORE);
  const salesChannelModule = container.resolve(Modules.SALES_CHANNEL);

  const [store] = await storeModule.listStores();
  if (!store) throw new Error("Medusa has no store row; run `medusa db:migrate` first.");

  let [channel] = await salesChannelModule.listSalesChannels({ name: demoNames.salesChannel });
  if (!channel) {
    const { result } = await createSalesChannelsWorkflow(container).run({
      input: { salesChannelsData: [{ name: demoNames.salesChannel }] },
    });
    channel = result[0];
  }
  if (!channel) throw new Error("Could not create the default sales channel.");

  await updateStoresWorkflow(container).run({
    input: {
      selector: { id: store.id },
      update: {
        name: "Loja Pix Checkout",
        supported_currencies: [{ currency_code: "brl", is_default: true }],
        default_sales_channel_id: channel.id,
      },
    },
  });
  return { salesChannelId: channel.id };
}
