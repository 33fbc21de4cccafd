import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { clientKeyOf, compileTrusted, ignoredForwardedFor, parseHop } from "./client-address";
import { clientKeyOfRequest, clientWithVouch } from "./client-of-request";
import { fairOptionsSchema } from "./fair-options";
import { signClientAddress } from "./storefront-signature";

const request = (peer: string, forwardedFor?: string, headers: Record<string, string> = {}) =>
  ({
    socket: { remoteAddress: peer },
    headers: {
      ...headers,
      ...(forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor }),
    },
  }) as unknown as IncomingMessage;

function warnings() {
  const said: string[] = [];
  const log = (message: string) => said.push(message);
  return { said, logger: { debug: log, info: log, warn: log, error: log } };
}

const client = (
  peer: string,
  forwardedFor: string | undefined,
  trusted: string[],
  more: { headers?: Record<string, string>; storefrontSecret?: string } = {},
) =>
  clientKeyOfRequest(
    request(peer, forwardedFor, more.headers),
    fairOptionsSchema.parse({ trustedProxies: trusted, storefrontSecret: more.storefrontSecret }),
    warnings().logger,
  );

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
      "a hop the trusted proxy wrote that is no address is the client, not the proxy",
      "10.0.0.5",
      "203.0.113.7, Unknown",
      ["10.0.0.5"],
      "unknown",
    ],
    [
      "a named loopback proxy forwards its caller",
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

describe("every form a proxy writes a hop in", () => {
  it.each([
    ["IPv4", "203.0.113.7", "203.0.113.7"],
    ["IPv4 with a port (Azure Application Gateway)", "203.0.113.7:51234", "203.0.113.7"],
    ["IPv6", "2001:db8::1", "2001:db8::/64"],
    ["IPv6 in brackets", "[2001:db8::1]", "2001:db8::/64"],
    ["IPv6 in brackets with a port", "[2001:db8::1]:443", "2001:db8::/64"],
    ["RFC 7239's quoting", '"[2001:db8::1]:443"', "2001:db8::/64"],
    ["IPv4-mapped IPv6", "::ffff:203.0.113.7", "203.0.113.7"],
    ["IPv4-mapped IPv6 in brackets with a port", "[::FFFF:203.0.113.7]:80", "203.0.113.7"],
    ["a zone id", "fe80::1%eth0", "fe80::/64"],
    ["a zone id in brackets with a port", "[fe80::1%25eth0]:8080", "fe80::/64"],
    ["upper case", "2001:DB8::A", "2001:db8::/64"],
    ["spaces around it", "   203.0.113.7:8080  ", "203.0.113.7"],
  ])("%s: %s", (_why, hop, expected) => {
    expect(client("10.0.0.5", hop, ["10.0.0.5"])).toBe(expected);
  });

  it("reads several X-Forwarded-For headers as one list, rightmost last", () => {
    // Node joins repeated headers with ", "; the balancer's own header is the last one.
    expect(client("10.0.0.5", "6.6.6.6, 198.51.100.9:1234, 203.0.113.7:80", ["10.0.0.5"])).toBe(
      "203.0.113.7",
    );
    expect(client("10.0.0.5", "6.6.6.6 ,198.51.100.9:1234", ["10.0.0.5", "198.51.100.9"])).toBe(
      "6.6.6.6",
    );
  });

  it("a port on a hop is not a host: the walk goes on past a trusted one", () => {
    expect(client("10.0.0.5", "203.0.113.7, 192.0.2.10:443", ["10.0.0.5", "192.0.2.0/24"])).toBe(
      "203.0.113.7",
    );
  });

  it("rejects what only looks like an address with a port", () => {
    for (const raw of ["203.0.113.7:", "203.0.113.7:123456", "[2001:db8::1", "2001:db8::1]:443"]) {
      expect(parseHop(raw), raw).toBeUndefined();
    }
  });

  it("an unreadable hop never makes two shoppers behind the proxy one client", () => {
    const one = client("10.0.0.5", "_hidden1", ["10.0.0.5"]);
    const other = client("10.0.0.5", "_hidden2", ["10.0.0.5"]);
    expect(one).not.toBe(other);
    expect([one, other]).not.toContain("10.0.0.5");
  });

  it("says an unreadable hop once, with the proxy's address", () => {
    const { said, logger } = warnings();
    const options = fairOptionsSchema.parse({ trustedProxies: ["10.0.0.66"] });
    for (let i = 0; i < 3; i++) {
      clientKeyOfRequest(request("10.0.0.66", `203.0.113.${i}:x`), options, logger);
    }
    expect(said).toHaveLength(1);
    expect(said[0]).toContain("10.0.0.66");
    expect(said[0]).toContain("203.0.113.0:x");
  });
});

describe("a storefront's signed address", () => {
  const secret = "a-storefront-secret-of-32-chars!!";
  const signed = (address: string, at = Date.now()) => ({
    "x-pix-client": signClientAddress(secret, address, at),
  });

  it("is the client, from whatever address the storefront calls", () => {
    expect(
      client("203.0.113.50", "6.6.6.6", [], {
        headers: signed("198.51.100.4"),
        storefrontSecret: secret,
      }),
    ).toBe("198.51.100.4");
    expect(
      client("::1", undefined, [], {
        headers: signed("2001:db8:5:6::9"),
        storefrontSecret: secret,
      }),
    ).toBe("2001:db8:5:6::/64");
  });

  it("is ignored when forged, stale, or signed with another secret; the network decides", () => {
    const forged = signed("198.51.100.4")["x-pix-client"].replace("198.51.100.4", "198.51.100.5");
    const cases: Record<string, string>[] = [
      { "x-pix-client": forged },
      signed("198.51.100.4", Date.now() - 6 * 60_000),
      { "x-pix-client": signClientAddress("another-secret-of-at-least-32-chars", "198.51.100.4") },
      { "x-pix-client": "t=1,a=198.51.100.4" },
    ];
    for (const headers of cases) {
      expect(client("203.0.113.50", undefined, [], { headers, storefrontSecret: secret })).toBe(
        "203.0.113.50",
      );
    }
  });

  it("vouches that a shopper asks only when the signature holds (the line serves such creates first)", () => {
    const vouch = (headers: Record<string, string>, storefrontSecret?: string) =>
      clientWithVouch(
        request("203.0.113.50", undefined, headers),
        fairOptionsSchema.parse({ storefrontSecret }),
        warnings().logger,
      );
    expect(vouch(signed("198.51.100.4"), secret)).toEqual({
      clientKey: "198.51.100.4",
      vouchedBy: "storefront",
    });
    const forged = signed("198.51.100.4")["x-pix-client"].replace("198.51.100.4", "198.51.100.5");
    expect(vouch({ "x-pix-client": forged }, secret).vouchedBy).toBeNull();
    expect(vouch(signed("198.51.100.4", Date.now() - 6 * 60_000), secret).vouchedBy).toBeNull();
    expect(vouch(signed("198.51.100.4")).vouchedBy).toBeNull();
    expect(vouch({}, secret)).toEqual({ clientKey: "203.0.113.50", vouchedBy: null });
  });

  it("is ignored when the store set no storefrontSecret", () => {
    expect(client("203.0.113.50", undefined, [], { headers: signed("198.51.100.4") })).toBe(
      "203.0.113.50",
    );
  });

  it("asks for a secret long enough to sign with", () => {
    const short = fairOptionsSchema.safeParse({ storefrontSecret: "whsec_local" });
    expect(short.success).toBe(false);
    expect(JSON.stringify(short.error?.issues)).toContain("at least 32 characters");
    expect(JSON.stringify(short.error?.issues)).not.toContain("whsec_local");
  });
});
