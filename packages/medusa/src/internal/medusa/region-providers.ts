import type { MedusaContainer } from "@medusajs/framework/types";
import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import { redact } from "@pix-checkout/client";

/*
 * Since Medusa 2.20 a payment session can be created only with a provider enabled on the
 * cart's region. A store that registered the plugin in medusa-config but never added
 * `pp_pix_…` to its Brazilian region gets a checkout that fails at the payment step, with
 * nothing in the plugin's own tables to show for it. The health card reads this.
 */

/** Our providers Medusa loaded, and the store's BRL regions with the providers enabled there. */
export interface RegionProviders {
  /** `pp_pix_<id>` and `pp_boleto_<id>` as Medusa registered them. */
  providers: { id: string; is_enabled: boolean }[];
  brlRegions: { id: string; name: string; providerIds: string[] }[];
}

const OURS = /^pp_(pix|boleto)_/;

/**
 * What the health card's region lines need. Null when Medusa could not answer: the card then
 * leaves the lines out and says so in the log, rather than failing the whole card.
 */
export async function readRegionProviders(
  container: MedusaContainer,
  warn: (message: string) => void,
): Promise<RegionProviders | null> {
  try {
    return await readAll(container);
  } catch (error) {
    warn(
      `the health card could not read the regions' payment providers: ${redact((error as Error).message ?? String(error))}`,
    );
    return null;
  }
}

async function readAll(container: MedusaContainer): Promise<RegionProviders> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY);
  const [providers, regions] = await Promise.all([
    query.graph({ entity: "payment_provider", fields: ["id", "is_enabled"] }),
    query.graph({
      entity: "region",
      fields: ["id", "name", "currency_code", "payment_providers.id"],
      filters: { currency_code: "brl" },
    }),
  ]);
  return {
    providers: (providers.data as { id: string; is_enabled: boolean }[])
      .filter((provider) => OURS.test(provider.id))
      .map(({ id, is_enabled }) => ({ id, is_enabled }))
      .sort((a, b) => a.id.localeCompare(b.id)),
    brlRegions: (
      regions.data as { id: string; name: string; payment_providers?: { id: string }[] | null }[]
    ).map((region) => ({
      id: region.id,
      name: region.name,
      providerIds: (region.payment_providers ?? []).map((provider) => provider.id),
    })),
  };
}

/** The payment providers enabled on region `regionId` (every provider's, ours and others'). */
export async function providersOfRegion(
  container: MedusaContainer,
  regionId: string,
): Promise<string[]> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY);
  const { data } = await query.graph({
    entity: "region",
    fields: ["id", "payment_providers.id", "payment_providers.is_enabled"],
    filters: { id: regionId },
  });
  const region = data[0] as
    { payment_providers?: { id: string; is_enabled?: boolean }[] | null } | undefined;
  return (region?.payment_providers ?? [])
    .filter((provider) => provider.is_enabled !== false)
    .map((provider) => provider.id)
    .sort();
}
