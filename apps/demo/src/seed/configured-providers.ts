// Which Pix Checkout provider ids this store's medusa-config registers. Medusa never marks a
// provider that stopped being registered as disabled in its table, so the table alone cannot
// tell the seed what a checkout can use now; the configuration can.

const pixCheckoutProvider = /^@pix-checkout\/medusa\/providers\/(pix-checkout|pix-only)$/;

interface ProviderEntry {
  resolve?: unknown;
  id?: unknown;
}

interface ModuleEntry {
  options?: { providers?: ProviderEntry[] };
}

/**
 * Provider ids (`pp_<method>_<id>`) of the plugin's registrations in a loaded medusa-config:
 * `providers/pix-checkout` gives Pix and boleto, `providers/pix-only` only Pix.
 */
export function configuredPixCheckoutProviders(configModule: { modules?: unknown }): string[] {
  const modules = configModule.modules ?? {};
  const entries = (Array.isArray(modules) ? modules : Object.values(modules)) as ModuleEntry[];
  const ids: string[] = [];
  for (const entry of entries) {
    for (const provider of entry?.options?.providers ?? []) {
      if (typeof provider.resolve !== "string" || typeof provider.id !== "string") continue;
      const match = pixCheckoutProvider.exec(provider.resolve);
      if (!match) continue;
      ids.push(`pp_pix_${provider.id}`);
      if (match[1] === "pix-checkout") ids.push(`pp_boleto_${provider.id}`);
    }
  }
  return ids;
}
