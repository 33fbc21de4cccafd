import type { ConfigModule } from "@medusajs/framework/types";
import { z } from "zod";
import { pluginOptionSection } from "../platform/plugin-options";

/**
 * `fairness` in the plugin's options: how the create line shares the service's creates among
 * the clients asking for them (README, "Busy minutes"). A client is an address as seen behind
 * `trustProxyHops` proxies; carts of one address are served in turn by their e-mail.
 */
export const fairOptionsSchema = z.object({
  /**
   * Proxies in front of Medusa whose `X-Forwarded-For` is believed: 1 (Medusa's own `trust
   * proxy` setting) behind one load balancer, 0 when clients reach Medusa directly (otherwise a
   * client picks its own address with that header), 2 behind a CDN and a load balancer.
   */
  trustProxyHops: z.number().int().min(0).max(10).default(1),
  /**
   * Creates one address may hold in any minute (sent, or answered less than a minute ago).
   * Past it, the address's carts wait their turn even when the budget has room: the rest of the
   * minute stays for other shoppers. It is also how far one flooding client can push the
   * shoppers after it back, in slots.
   */
  clientCreatesPerMinute: z.number().int().min(1).max(60).default(3),
  /** Creates of one address that may wait in line; a new session past it gets 429. */
  clientWaitingMax: z.number().int().min(1).max(1000).default(20),
  /** Creates for one e-mail (any address) that may wait in line; a new session past it gets 429. */
  emailWaitingMax: z.number().int().min(1).max(100).default(3),
});

/** Fairness options after defaults. */
export type FairOptions = z.output<typeof fairOptionsSchema>;

/** Reads `fairness` from the plugin's registration; invalid options name the field. */
export function fairOptions(configModule: ConfigModule | undefined): FairOptions {
  return pluginOptionSection(configModule, "fairness", fairOptionsSchema);
}
