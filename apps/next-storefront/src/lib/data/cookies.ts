import "server-only"
import { cookies as nextCookies, headers } from "next/headers"
import { shopperAddress, signShopperAddress } from "@lib/util/shopper-address"

/** The shopper's login, when there is one (this storefront only has guests). */
export const getAuthHeaders = async (): Promise<
  { authorization: string } | Record<string, never>
> => {
  const token = (await nextCookies()).get("_medusa_jwt")?.value
  return token ? { authorization: `Bearer ${token}` } : {}
}

/**
 * Who the shopper is to Medusa: this server calls Medusa for every shopper, so to Medusa they
 * would all be this server, and the payment plugin shares its line of Pix codes per client.
 * Forwarding `X-Forwarded-For` would not do: Next.js writes it only when it is absent, so a
 * shopper's own header would reach Medusa unchanged. Instead this signs the address that the
 * proxy in front of this server saw (`PIX_PROXY_HOPS` proxies, each appending to
 * `X-Forwarded-For`; see shopperAddress) with `PIX_STOREFRONT_SECRET`, which Medusa's
 * `fairness.storefrontSecret` also holds. Medusa believes a signed address and nothing else a
 * client writes. With no secret, or no address a proxy wrote, nothing is sent and the shopper
 * is this server to Medusa.
 */
export const getShopperAddressHeaders = async (): Promise<
  { "x-pix-client": string } | Record<string, never>
> => {
  const secret = process.env.PIX_STOREFRONT_SECRET
  if (!secret) return {}
  const address = shopperAddress(
    (await headers()).get("x-forwarded-for"),
    Number(process.env.PIX_PROXY_HOPS ?? 1)
  )
  return address ? { "x-pix-client": signShopperAddress(secret, address) } : {}
}

/**
 * A cache tag for this visitor, as the starter names them. The starter's middleware sets
 * `_medusa_cache_id` and its reads are cached per tag; this app reads carts uncached, so
 * revalidating the tag is only there because the guide's code does it.
 */
export const getCacheTag = async (tag: string): Promise<string> => {
  const cacheId = (await nextCookies()).get("_medusa_cache_id")?.value
  return cacheId ? `${tag}-${cacheId}` : tag
}

export const getCartId = async () =>
  (await nextCookies()).get("_medusa_cart_id")?.value

export const setCartId = async (cartId: string) => {
  ;(await nextCookies()).set("_medusa_cart_id", cartId, {
    maxAge: 60 * 60 * 24 * 7,
    httpOnly: true,
    sameSite: "strict",
  })
}

export const removeCartId = async () => {
  ;(await nextCookies()).set("_medusa_cart_id", "", { maxAge: -1 })
}
