import type { Logger, MedusaContainer } from "@medusajs/framework/types";
import { Modules } from "@medusajs/framework/utils";
import {
  createRegionsWorkflow,
  createTaxRegionsWorkflow,
  updateRegionsWorkflow,
  updateStoresWorkflow,
} from "@medusajs/medusa/core-flows";
import { demoNames, pixCheckoutProviderIds, systemProviderId } from "./catalog";

/**
 * Picks the payment providers for the BRL region: Pix and boleto when the plugin is
 * registered, else Medusa's system provider, so the store still works while it is not.
 */
export async function choosePaymentProviders(
  container: MedusaContainer,
  logger: Logger,
): Promise<string[]> {
  const paymentModule = container.resolve(Modules.PAYMENT);
  const registered = await paymentModule.listPaymentProviders({
    id: [...pixCheckoutProviderIds],
  });
  const found = new Set(registered.map((provider) => provider.id));
  const missing = pixCheckoutProviderIds.filter((id) => !found.has(id));
  if (missing.length === pixCheckoutProviderIds.length) {
    logger.warn(
      `Pix Checkout providers are not registered (${missing.join(", ")}): the BRL region gets ` +
        `${systemProviderId} for now. Build @pix-checkout/medusa and run the seed again.`,
    );
    return [systemProviderId];
  }
  if (missing.length > 0) logger.warn(`Pix Checkout providers missing: ${missing.join(", ")}.`);
  return pixCheckoutProviderIds.filter((id) => found.has(id));
}

/**
 * Makes sure the BRL region for Brazil exists with the given payment providers (a second run
 * replaces its providers, so it picks up the plugin once it is built) and a tax region for BR.
 */
export async function seedRegion(
  container: MedusaContainer,
  paymentProviders: string[],
): Promise<{ regionId: string }> {
  const regionModule = container.resolve(Modules.REGION);
  const taxModule = container.resolve(Modules.TAX);
  const storeModule = container.resolve(Modules.STORE);

  let [region] = await regionModule.listRegions({ name: demoNames.region });
  if (!region) {
    const { result } = await createRegionsWorkflow(container).run({
      input: {
        regions: [
          {
            name: demoNames.region,
            currency_code: "brl",
            countries: ["br"],
            automatic_taxes: true,
            payment_providers: paymentProviders,
          },
        ],
      },
    });
    region = result[0];
  } else {
    await updateRegionsWorkflow(container).run({
      input: { selector: { id: region.id }, update: { payment_providers: paymentProviders } },
    });
  }
  if (!region) throw new Error("Could not create the BRL region.");

  const taxRegions = await taxModule.listTaxRegions({ country_code: "br" });
  if (taxRegions.length === 0) {
    await createTaxRegionsWorkflow(container).run({
      input: [{ country_code: "br", provider_id: "tp_system" }],
    });
  }

  const [store] = await storeModule.listStores();
  if (store) {
    await updateStoresWorkflow(container).run({
      input: { selector: { id: store.id }, update: { default_region_id: region.id } },
    });
  }
  return { regionId: region.id };
}
