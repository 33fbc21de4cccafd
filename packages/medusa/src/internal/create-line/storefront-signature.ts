import { createHmac, timingSafeEqual } from "node:crypto";
import { parseHop } from "./client-address";

/**
 * A storefront server calls Medusa for every shopper, so the network names the storefront, not
 * the shopper. It says who the shopper is in this header, signed with `fairness.storefrontSecret`
 * (HMAC-SHA256 of `<t>.<address>`): `t=1764000000,a=203.0.113.7,s=<base64url>`. A shopper can
 * send the header too, but cannot sign it; so, unlike `X-Forwarded-For`, it can be believed
 * from whatever address it comes, and the storefront's address need not be trusted at all
 * (on a hosting platform it is shared with strangers).
 */
export const STOREFRONT_CLIENT_HEADER = "x-pix-client";

/** How far the signer's clock may be from ours, and how long a captured header stays good. */
export const SIGNATURE_TOLERANCE_S = 300;

export type SignedAddress =
  { address: string } | { refused: "malformed" | "expired" | "forged" | "not_an_address" };

/** The value of `x-pix-client` for `address` at `nowMs`, as a storefront server writes it. */
export function signClientAddress(secret: string, address: string, nowMs = Date.now()): string {
  const t = Math.floor(nowMs / 1000);
  return `t=${t},a=${address},s=${mac(secret, t, address)}`;
}

/** The address a storefront signed, or why the header is not to be believed. */
export function verifyClientAddress(
  secret: string,
  header: string,
  nowMs = Date.now(),
): SignedAddress {
  const fields = new Map<string, string>();
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    if (eq > 0) fields.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  const t = Number(fields.get("t"));
  const address = fields.get("a");
  const signature = fields.get("s");
  if (!Number.isSafeInteger(t) || !address || !signature) return { refused: "malformed" };
  if (Math.abs(nowMs / 1000 - t) > SIGNATURE_TOLERANCE_S) return { refused: "expired" };
  const expected = Buffer.from(mac(secret, t, address));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { refused: "forged" };
  }
  const parsed = parseHop(address);
  return parsed ? { address: parsed.toString() } : { refused: "not_an_address" };
}

function mac(secret: string, t: number, address: string): string {
  return createHmac("sha256", secret).update(`${t}.${address}`).digest("base64url");
}
