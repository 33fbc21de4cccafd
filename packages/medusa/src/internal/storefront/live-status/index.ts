import type { MedusaContainer } from "@medusajs/framework/types";
import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { createPluginLogger } from "../../platform/logger";
import { LiveStatusHub } from "./hub";
import { streamOptions, type StreamOptions } from "./options";

export { LiveStatusHub, CHARGE_CHANNEL, type HubMode, type SessionListener } from "./hub";
export { streamOptions, type StreamOptions } from "./options";

// One hub per database handle, i.e. per Medusa app in this process. A cache of who listens
// here, nothing more: the charge table stays the truth.
const hubs = new WeakMap<Knex, { hub: LiveStatusHub; options: StreamOptions }>();

/** The process's hub and stream options for this container's app. */
export function liveStatus(container: MedusaContainer): {
  hub: LiveStatusHub;
  options: StreamOptions;
} {
  const db = container.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION);
  let entry = hubs.get(db);
  if (!entry) {
    const options = streamOptions(container.resolve(ContainerRegistrationKeys.CONFIG_MODULE));
    const logger = createPluginLogger(container.resolve(ContainerRegistrationKeys.LOGGER));
    entry = {
      hub: new LiveStatusHub(db, logger, {
        maxConnections: options.maxConnections,
        pollIntervalMs: options.pollIntervalMs,
        reconnectMs: 1_000,
      }),
      options,
    };
    hubs.set(db, entry);
    const hub = entry.hub;
    // Open streams would hold a graceful shutdown for up to idleTimeoutMs. Only where the host
    // already handles the signal (medusa start does): a listener of our own would otherwise
    // replace Node's default of exiting.
    for (const signal of ["SIGTERM", "SIGINT"] as const) {
      if (process.listenerCount(signal) > 0) process.once(signal, () => hub.endAll());
    }
  }
  return entry;
}
