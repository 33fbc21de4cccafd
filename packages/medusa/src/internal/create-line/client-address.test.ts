import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import {
  clientAddressOf,
  clientKeyOf,
  compileTrusted,
  ignoredForwardedFor,
} from "./client-address";
import { fairOptionsSchema } from "./fair-options";

const request = (peer: string, forwardedFor?: string) =>
  ({
    socket: { remoteAddress: peer },
    headers: forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor },
  }) as unknown as IncomingMessage;

const client = (peer: string, forwardedFor: string | undefined, trusted: string[]) =>
  clientAddressOf(request(peer, forwardedFor), {
    trusts: compileTrusted(trusted),
    ipv6PrefixLength: 64,
  });

describe("who a client is: what the network says, not what the client says", () => {
  it.each([
    ["a direct client is its socket's peer", "203.0.113.7", undefined, [], "203.0.113.7"],
    [
      "a direct client's own X-Forwarded-For is ignored",
      "203.0.113.7",
      "198.51.100.1, 198.51.100.2",
      [],
      "203.0.113.7",
    ],
    [
      "behind a named load balancer, the address it says called it",
      "10.0.0.5",
      "203.0.113.7",
      ["10.0.0.5"],
      "203.0.113.7",
    ],
    [
      "addresses a client put in front of the balancer's are never read",
      "10.0.0.5",
      "6.6.6.6, 7.7.7.7, 203.0.113.7",
      ["private"],
      "203.0.113.7",
    ],
    [
      "behind a CDN and a load balancer, both named, the shopper",
      "10.0.0.5",
      "203.0.113.7, 192.0.2.10",
      ["private", "192.0.2.0/24"],
      "203.0.113.7",
    ],
    [
      "a hop that is not an address ends the chain at the last trusted one's word",
      "10.0.0.5",
      "203.0.113.7, garbage",
      ["10.0.0.5"],
      "10.0.0.5",
    ],
    [
      "a loopback storefront server, named, forwards its shopper",
      "::ffff:127.0.0.1",
      "127.1.0.9",
      ["127.0.0.1"],
      "127.1.0.9",
    ],
    [
      "an IPv6 client is its /64",
      "2001:db8:1:2:aaaa:bbbb:cccc:dddd",
      undefined,
      [],
      "2001:db8:1:2::/64",
    ],
    [
      "another address of the same /64 is the same client",
      "2001:0db8:0001:0002:0000:0000:0000:0001",
      undefined,
      [],
      "2001:db8:1:2::/64",
    ],
    ["IPv4-mapped IPv6 is its IPv4", "::ffff:198.51.100.4", undefined, [], "198.51.100.4"],
    ["an IPv6 zone names no other host", "fe80::1%eth0", undefined, [], "fe80::/64"],
  ])("%s", (_why, peer, header, trusted, expected) => {
    expect(client(peer, header, trusted)).toBe(expected);
  });

  it("groups IPv6 by the prefix length the merchant sets", () => {
    expect(clientKeyOf("2001:db8:1:2:3::1", 48)).toBe("2001:db8:1::/48");
    expect(clientKeyOf("2001:db8:1:2:3::1", 128)).toBe("2001:db8:1:2:3::1");
  });

  it("says when a request's X-Forwarded-For came from no trusted proxy", () => {
    const trusts = compileTrusted(["10.0.0.5"]);
    expect(ignoredForwardedFor(request("203.0.113.7", "1.2.3.4"), trusts)).toBe(true);
    expect(ignoredForwardedFor(request("10.0.0.5", "1.2.3.4"), trusts)).toBe(false);
    expect(ignoredForwardedFor(request("203.0.113.7"), trusts)).toBe(false);
  });

  it("trusts no proxy by default, and names a wrong trustedProxies entry at start-up", () => {
    expect(fairOptionsSchema.parse({}).trustedProxies).toEqual([]);
    const wrong = fairOptionsSchema.safeParse({ trustedProxies: ["10.0.0.0/33"] });
    expect(wrong.success).toBe(false);
    expect(JSON.stringify(wrong.error?.issues)).toContain("10.0.0.0/33");
  });
});
