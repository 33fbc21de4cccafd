import type { MedusaRequest } from "@medusajs/framework/http";
import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import { createPluginLogger, type PluginLogger } from "../platform/logger";
import { WarnOnce } from "../platform/warn-once";
import {
  clientKeyOf,
  ignoredForwardedFor,
  resolveClient,
  type RequestLike,
} from "./client-address";
import { fairOptions, trustedProxiesOf, type FairOptions } from "./fair-options";
import { STOREFRONT_CLIENT_HEADER, verifyClientAddress } from "./storefront-signature";
import type { Vouch } from "./client-origin";

/** Each misconfiguration below is said at most once an hour per peer. */
const WARN_EVERY_MS = 60 * 60_000;
const ignoredHeader = new WarnOnce({ everyMs: WARN_EVERY_MS });
const unreadableHop = new WarnOnce({ everyMs: WARN_EVERY_MS });
const refusedSignature = new WarnOnce({ everyMs: WARN_EVERY_MS });

/**
 * The client a store request comes from, as the create line and the store routes count
 * clients (`fairness`): the address a storefront signed (`storefrontSecret`), else the network's
 * word (client-address.ts), an IPv6 address as its prefix. What it cannot believe it ignores,
 * and says once an hour per peer, since each is a misconfiguration that makes shoppers one
 * client or lets them pick their own.
 */
export function clientOfRequest(req: MedusaRequest): string {
  const options = fairOptions(req.scope.resolve(ContainerRegistrationKeys.CONFIG_MODULE));
  const logger = createPluginLogger(req.scope.resolve(ContainerRegistrationKeys.LOGGER));
  return clientKeyOfRequest(req, options, logger);
}

/** `clientOfRequest` with its options and logger given. */
export function clientKeyOfRequest(
  req: RequestLike,
  options: FairOptions,
  logger: PluginLogger,
): string {
  return clientWithVouch(req, options, logger).clientKey;
}

/**
 * The client a store request comes from, and who vouches for it beyond the network: the store's
 * storefront, when its server signed the address (`storefront`).
 */
export function clientWithVouch(
  req: RequestLike,
  options: FairOptions,
  logger: PluginLogger,
): { clientKey: string; vouchedBy: Vouch | null } {
  const { address, vouchedBy } = clientAddress(req, options, logger);
  return { clientKey: clientKeyOf(address, options.ipv6PrefixLength), vouchedBy };
}

function clientAddress(
  req: RequestLike,
  options: FairOptions,
  logger: PluginLogger,
): { address: string; vouchedBy: Vouch | null } {
  const peer = req.socket?.remoteAddress ?? "unknown";
  const signed = req.headers[STOREFRONT_CLIENT_HEADER];
  if (typeof signed === "string" && options.storefrontSecret) {
    const verdict = verifyClientAddress(options.storefrontSecret, signed);
    if ("address" in verdict) return { address: verdict.address, vouchedBy: "storefront" };
    refusedSignature.warn(peer, (forgotten) =>
      logger.warn(
        `create line: a request from ${peer} carries ${STOREFRONT_CLIENT_HEADER} that is ${verdict.refused} and is ignored; it counts as the network says. ${
          verdict.refused === "expired"
            ? "The storefront's clock is more than 5 minutes from Medusa's."
            : "The storefront's PIX_STOREFRONT_SECRET must equal fairness.storefrontSecret; or a client wrote the header itself."
        }${forgottenNote(forgotten)}`,
      ),
    );
  }

  const trusts = trustedProxiesOf(options);
  if (ignoredForwardedFor(req, trusts)) {
    ignoredHeader.warn(peer, (forgotten) =>
      logger.warn(
        `create line: requests from ${peer} carry X-Forwarded-For, which is ignored (fairness.trustedProxies does not name ${peer}): each counts as ${peer}. If ${peer} is your load balancer, add it to fairness.trustedProxies; if it is your storefront's server, have it sign the shopper's address (fairness.storefrontSecret); if clients reach Medusa directly, nothing is wrong: a client cannot name its own address.${forgottenNote(forgotten)}`,
      ),
    );
  }
  const resolved = resolveClient(req, trusts);
  if (resolved.unreadable) {
    const { hop, proxy } = resolved.unreadable;
    unreadableHop.warn(proxy, (forgotten) =>
      logger.warn(
        `create line: the trusted proxy ${proxy} wrote ${JSON.stringify(hop.slice(0, 64))} in X-Forwarded-For, which is no address: the client is counted by that text, so every request it writes so is one client. Have the proxy write the caller's address.${forgottenNote(forgotten)}`,
      ),
    );
  }
  return { address: resolved.client, vouchedBy: null };
}

function forgottenNote(forgotten: number): string {
  return forgotten > 0
    ? ` (${forgotten} other peers were forgotten since the last such warning, so may be warned about again)`
    : "";
}
