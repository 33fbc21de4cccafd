import type { ConfigModule } from "@medusajs/framework/types";
import { createClient, type PaymentServiceClient } from "./client-port";
import { PixCheckoutError } from "./errors";
import type { PluginLogger } from "./logger";
import { parseOptions, type PixCheckoutOptions } from "./options";

/** One `{ resolve, id, options }` entry of this plugin under the payment module. */
export interface RegisteredProvider {
  /** The registration id (`id` in medusa-config); also the webhook URL's last segment. */
  key: string;
  options: PixCheckoutOptions;
}

// By package name, or by a path into this package's providers (another provider kept beside
// the package, such as a test app's own notification provider, is not ours).
const OUR_PROVIDER =
  /@pix-checkout\/medusa\/providers\/|[\\/]packages[\\/]medusa[\\/](?:\.medusa[\\/]server[\\/])?src[\\/]providers[\\/]/;

interface ModuleEntry {
  resolve?: unknown;
  options?: { providers?: { resolve?: unknown; id?: unknown; options?: unknown }[] };
}

/**
 * Reads this plugin's provider registrations from the merchant's medusa-config, so the
 * options are written once (under the payment module) and routes and jobs use the same ones.
 */
export function registeredProviders(configModule: ConfigModule): RegisteredProvider[] {
  // The config never changes in a running process; parse it once, not per webhook.
  const cached = parsed.get(configModule);
  if (cached) return cached;
  const modules = configModule.modules ?? {};
  const entries = (Array.isArray(modules) ? modules : Object.values(modules)) as ModuleEntry[];
  const found: RegisteredProvider[] = [];
  for (const entry of entries) {
    if (!entry || typeof entry !== "object") continue;
    for (const provider of entry.options?.providers ?? []) {
      if (typeof provider.resolve !== "string" || !OUR_PROVIDER.test(provider.resolve)) continue;
      if (typeof provider.id !== "string") continue;
      found.push({ key: provider.id, options: parseOptions(provider.options) });
    }
  }
  parsed.set(configModule, found);
  return found;
}

const parsed = new WeakMap<ConfigModule, RegisteredProvider[]>();

/** The registration with this key, or a 404-typed `provider_not_found`. */
export function providerByKey(configModule: ConfigModule, key: string): RegisteredProvider {
  const provider = registeredProviders(configModule).find((candidate) => candidate.key === key);
  if (!provider) {
    throw new PixCheckoutError(
      "provider_not_found",
      `No Pix Checkout provider is registered with id "${key.slice(0, 64)}".`,
    );
  }
  return provider;
}

/** A Medusa provider id of this plugin's kind (`pp_pix_<key>`, `pp_boleto_<key>`). */
export const OWN_PROVIDER = /^pp_(pix|boleto)_/;

/**
 * Whether a Medusa provider id is one of this plugin's: Pix or boleto of a registration this
 * store has. A collection also holds other providers' sessions (a card, `pp_system_default`),
 * which the plugin never acts on.
 */
export function isOurProviderId(configModule: ConfigModule, providerId: string): boolean {
  const match = /^pp_(pix|boleto)_(.+)$/.exec(providerId);
  return match !== null && registeredProviders(configModule).some((p) => p.key === match[2]);
}

/** The registration key of a Medusa provider id such as `pp_pix_a` or `pp_boleto_a`. */
export function keyOfProviderId(providerId: string): string {
  return providerId.replace(OWN_PROVIDER, "");
}

const clients = new Map<string, Promise<PaymentServiceClient>>();

/**
 * One client per registration and process. A cache only: nothing in it is state another
 * instance would need.
 */
export function clientFor(
  provider: RegisteredProvider,
  logger: PluginLogger,
): Promise<PaymentServiceClient> {
  const cacheKey = `${provider.key}|${provider.options.baseUrl}|${provider.options.variant}`;
  let client = clients.get(cacheKey);
  if (!client) {
    client = createClient(provider.options, logger);
    clients.set(cacheKey, client);
  }
  return client;
}
