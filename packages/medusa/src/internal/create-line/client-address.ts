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
 * (client-of-request.ts puts this together with a storefront's signed address.)
 */

/** What the walk reads of a request: its headers and its socket's peer. */
export type RequestLike = Pick<IncomingMessage, "headers" | "socket">;

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

/** Whether the request carries `X-Forwarded-For` that no trusted proxy vouched for. */
export function ignoredForwardedFor(
  req: RequestLike,
  trusts: (address: string) => boolean,
): boolean {
  return Boolean(req.headers["x-forwarded-for"]) && !trusts(req.socket?.remoteAddress ?? "");
}

/** Who the walk found, and, when it stopped at a hop it could not read, which and from whom. */
export interface ResolvedClient {
  client: string;
  /** A hop a trusted proxy wrote that is no address in any form; it is the client's key. */
  unreadable?: { hop: string; proxy: string };
}

/**
 * The first address, from the right, that is not a trusted proxy. A hop a trusted proxy wrote
 * that is no address (`unknown`, an obfuscated `_id`) stands for whoever called that proxy: it
 * becomes the client, as written, rather than the proxy, which would make every shopper behind
 * it one client. Nothing left of it is read: that part a client may have written.
 */
export function resolveClient(
  req: RequestLike,
  trusts: (address: string) => boolean,
): ResolvedClient {
  let client = req.socket?.remoteAddress ?? "unknown";
  if (!trusts(client)) return { client };
  const header = req.headers["x-forwarded-for"];
  // Node joins repeated X-Forwarded-For headers with ", "; an array comes from a hand-built request.
  const hops = (Array.isArray(header) ? header.join(",") : (header ?? ""))
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .reverse();
  for (const hop of hops) {
    const address = parseHop(hop);
    if (!address) return { client: hop, unreadable: { hop, proxy: client } };
    client = address.toString();
    if (!trusts(client)) return { client };
  }
  return { client };
}

/**
 * One hop of `X-Forwarded-For` as proxies write it: `203.0.113.7`, `203.0.113.7:51234`,
 * `2001:db8::1`, `[2001:db8::1]`, `[2001:db8::1]:443`, `"[2001:db8::1]"` (RFC 7239's quoting),
 * `::ffff:203.0.113.7`, `fe80::1%eth0`, in any case. The port names a connection, not a host,
 * and a zone an interface: neither is part of who the client is.
 */
export function parseHop(raw: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  let hop = raw.trim().replace(/^"(.*)"$/, "$1");
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(hop);
  if (bracketed) hop = bracketed[1] as string;
  else if (/^[\d.]+:\d{1,5}$/.test(hop)) hop = hop.slice(0, hop.lastIndexOf(":"));
  return parse(hop);
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
