import type { Logger, MedusaContainer } from "@medusajs/framework/types";
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils";
import {
  createRegionsWorkflow,
  createTaxRegionsWorkflow,
  updateRegionsWorkflow,
  updateStoresWorkflow,
} from "@medusajs/medusa/core-flows";
import { demoNames, systemProviderId } from "./catalog";
import { configuredPixCheckoutProviders } from "./configured-providers";

/**
 * Picks the payment providers for the BRL region: the plugin's, as medusa-config registers
 * them (Pix and boleto, or Pix only), else Medusa's system provider, so the store still
 * works while the plugin is not built.
 */
export async function choosePaymentProviders(
  container: MedusaContainer,
  logger: Logger,
): Promise<string[]> {
  const configured = configuredPixCheckoutProviders(
    container.resolve(ContainerRegistrationKeys.CONFIG_MODULE),
  );
  const paymentModule = container.resolve(Modules.PAYMENT);
  const known = configured.length
    ? await paymentModule.listPaymentProviders({ id: configured, is_enabled: true })
    : [];
  const found = configured.filter((id) => known.some((provider) => provider.id === id));
  if (found.length === 0) {
    logger.warn(
      `Pix Checkout providers are not registered: the BRL region gets ${systemProviderId} for ` +
        "now. Build @pix-checkout/medusa and run the seed again.",
    );
    return [systemProviderId];
  }
  return found;
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
