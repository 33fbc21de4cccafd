import type { IncomingMessage } from "node:http";
import ipaddr from "ipaddr.js";

/**
 * Who a client is, as the network says, never as the client says: the socket's peer, unless
 * that peer is a proxy the merchant named (`fairness.trustedProxies`), and then the address
 * that proxy says called it, and so on leftwards through `X-Forwarded-For` while each address is
 * trusted. Entries a client writes itself sit further left than the first untrusted hop, so they
 * are never read.
 *
 * An IPv6 client is its /64 (`ipv6PrefixLength`): one host usually holds a whole /64 and can
 * speak from any address in it. IPv4-mapped IPv6 (`::ffff:127.0.0.2`) is its IPv4 address.
 */
export interface ClientAddressRules {
  /** Compiled `trustedProxies`: whether a peer's `X-Forwarded-For` is believed. */
  trusts(address: string): boolean;
  ipv6PrefixLength: number;
}

/** Names a merchant may list in `trustedProxies` besides addresses and CIDRs. */
const RANGE_NAMES: Record<string, readonly string[]> = {
  loopback: ["loopback"],
  private: ["private", "uniqueLocal"],
  linklocal: ["linkLocal"],
};

/**
 * Compiles `trustedProxies` (addresses, CIDRs, or `loopback`, `private`, `linklocal`). Throws on
 * an entry that is none of these, naming it (the option check reports it at start-up).
 */
export function compileTrusted(entries: readonly string[]): (address: string) => boolean {
  const ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [];
  const named = new Set<string>();
  for (const entry of entries) {
    const name = entry.trim().toLowerCase();
    if (RANGE_NAMES[name]) {
      for (const range of RANGE_NAMES[name]) named.add(range);
      continue;
    }
    if (ipaddr.isValidCIDR(entry)) {
      const [base, bits] = ipaddr.parseCIDR(entry);
      ranges.push([unmapped(base), base.kind() === "ipv6" && isMapped(base) ? bits - 96 : bits]);
    } else if (ipaddr.isValid(entry)) {
      const address = ipaddr.process(entry);
      ranges.push([address, address.kind() === "ipv4" ? 32 : 128]);
    } else {
      throw new Error(
        `"${entry}" is not an address, a CIDR, or one of loopback, private, linklocal`,
      );
    }
  }
  return (raw) => {
    const address = parse(raw);
    if (!address) return false;
    if (named.has(address.range())) return true;
    return ranges.some(
      ([base, bits]) => base.kind() === address.kind() && address.match(base as never, bits),
    );
  };
}

/** The client's key: its address behind the trusted proxies, an IPv6 one as its prefix. */
export function clientAddressOf(req: IncomingMessage, rules: ClientAddressRules): string {
  return clientKeyOf(resolveClient(req, rules.trusts), rules.ipv6PrefixLength);
}

/** Whether the request carries `X-Forwarded-For` that no trusted proxy vouched for. */
export function ignoredForwardedFor(
  req: IncomingMessage,
  trusts: (address: string) => boolean,
): boolean {
  return Boolean(req.headers["x-forwarded-for"]) && !trusts(req.socket?.remoteAddress ?? "");
}

/** The first address, from the right, that is not a trusted proxy. */
export function resolveClient(req: IncomingMessage, trusts: (address: string) => boolean): string {
  let client = req.socket?.remoteAddress ?? "unknown";
  if (!trusts(client)) return client;
  const header = req.headers["x-forwarded-for"];
  const hops = (Array.isArray(header) ? header.join(",") : (header ?? ""))
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .reverse();
  for (const hop of hops) {
    // A hop that is not an address at all: the chain is not to be believed past here.
    if (!parse(hop)) return client;
    client = hop;
    if (!trusts(client)) return client;
  }
  return client;
}

/**
 * One key per client, whatever the spelling: IPv4 as dotted decimal, IPv4-mapped IPv6 as its
 * IPv4, IPv6 as its network of `prefixLength` bits (`2001:db8:1:2::/64`). Anything that is not
 * an address is kept as it is, lower-cased.
 */
export function clientKeyOf(raw: string, prefixLength: number): string {
  const address = parse(raw);
  if (!address) return raw.trim().toLowerCase();
  if (address.kind() === "ipv4") return address.toString();
  if (prefixLength >= 128) return address.toString();
  const network = ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/${prefixLength}`);
  return `${network.toString()}/${prefixLength}`;
}

function parse(raw: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  // A zone (`fe80::1%eth0`) names an interface, not another host.
  const bare = raw.trim().replace(/%.*$/, "");
  return ipaddr.isValid(bare) ? ipaddr.process(bare) : undefined;
}

function isMapped(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  return address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress();
}

function unmapped(address: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  return isMapped(address) ? (address as ipaddr.IPv6).toIPv4Address() : address;
}
