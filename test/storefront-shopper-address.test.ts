// The Next storefront (apps/next-storefront, and the DTC guide that quotes it) signs the
// shopper's address for the payment plugin's create line. What it signs must be what a proxy
// wrote, never what the shopper wrote; and what it does not sign, the plugin must count as the
// storefront itself (failing closed), never as an address the shopper chose.
import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import {
  shopperAddress,
  signShopperAddress,
} from "../apps/next-storefront/src/lib/util/shopper-address.js";
import { clientKeyOfRequest } from "../packages/medusa/src/internal/create-line/client-of-request.js";
import { fairOptionsSchema } from "../packages/medusa/src/internal/create-line/fair-options.js";
import { verifyClientAddress } from "../packages/medusa/src/internal/create-line/storefront-signature.js";

const SECRET = "storefront-secret-0123456789abcdef-0123";
/** The storefront's own server, as Medusa's socket sees it. */
const STOREFRONT = "10.1.2.3";

/** What the storefront's server sends Medusa for a shopper request carrying `forwardedFor`. */
function storefrontCall(
  forwardedFor: string | null,
  hops: number,
  socket?: string,
): Record<string, string> {
  const address = shopperAddress(forwardedFor, hops, socket);
  return address ? { "x-pix-client": signShopperAddress(SECRET, address) } : {};
}

/** The client Medusa's plugin counts that call as. */
function pluginClient(headers: Record<string, string>): string {
  const said: string[] = [];
  const log = (message: string) => said.push(message);
  return clientKeyOfRequest(
    { socket: { remoteAddress: STOREFRONT }, headers } as unknown as IncomingMessage,
    fairOptionsSchema.parse({ storefrontSecret: SECRET }),
    { debug: log, info: log, warn: log, error: log },
  );
}

describe("the storefront signs the address its proxies wrote, and nothing else", () => {
  it("with fewer entries than its hops, signs nothing: a proxy did not append", () => {
    expect(shopperAddress(null, 1)).toBeUndefined();
    expect(shopperAddress("", 1)).toBeUndefined();
    expect(shopperAddress(" , ", 1)).toBeUndefined();
    expect(shopperAddress("203.0.113.7", 2)).toBeUndefined();
    expect(shopperAddress("198.51.100.9, 203.0.113.7", 3)).toBeUndefined();
    expect(storefrontCall("203.0.113.7", 2)).toEqual({});
  });

  it("with exactly its hops, signs the entry the outermost proxy wrote", () => {
    expect(shopperAddress("203.0.113.7", 1)).toBe("203.0.113.7");
    // A CDN wrote the shopper, then the balancer wrote the CDN's edge.
    expect(shopperAddress("203.0.113.7, 198.51.100.20", 2)).toBe("203.0.113.7");
  });

  it("ignores the entries a shopper wrote to the left of its proxies'", () => {
    expect(shopperAddress("1.1.1.1, 8.8.8.8, 203.0.113.7", 1)).toBe("203.0.113.7");
    expect(shopperAddress("1.1.1.1,8.8.8.8 , 203.0.113.7, 198.51.100.20", 2)).toBe("203.0.113.7");
    // Many made-up headers, one proxy's entry: always the same address signed.
    const signed = new Set(
      Array.from({ length: 25 }, (_, i) => shopperAddress(`198.51.100.${i}, 203.0.113.7`, 1)),
    );
    expect([...signed]).toEqual(["203.0.113.7"]);
  });

  it("with no proxy in front (hops 0), signs the socket's peer and never reads the header", () => {
    expect(shopperAddress("1.1.1.1", 0, "203.0.113.7")).toBe("203.0.113.7");
    // A server that cannot see its socket (Next.js's app code) signs nothing.
    expect(shopperAddress("1.1.1.1", 0)).toBeUndefined();
  });

  it("signs nothing for a hop count that is no count (PIX_PROXY_HOPS unset is 1, not this)", () => {
    for (const hops of [Number.NaN, -1, 1.5, Number("two")]) {
      expect(shopperAddress("203.0.113.7", hops)).toBeUndefined();
    }
  });
});

describe("the plugin reads the storefront's call", () => {
  it("believes the signed address, with the storefront's signature", () => {
    const headers = storefrontCall("1.1.1.1, 203.0.113.7", 1);
    expect(verifyClientAddress(SECRET, headers["x-pix-client"]!)).toEqual({
      address: "203.0.113.7",
    });
    expect(pluginClient(headers)).toBe("203.0.113.7");
  });

  it("counts an unsigned call as the storefront itself (fails closed), whatever the shopper wrote", () => {
    // The proxy passed the shopper's header on without appending, and the storefront counts
    // two hops: nothing signed, and the shopper's entries reach Medusa nowhere.
    expect(pluginClient(storefrontCall("8.8.8.8", 2))).toBe(STOREFRONT);
    // A shopper who sends the plugin's header through the storefront cannot sign it.
    const forged = signShopperAddress("not-the-secret-0123456789abcdef-0123", "8.8.8.8");
    expect(pluginClient({ "x-pix-client": forged })).toBe(STOREFRONT);
  });
});
