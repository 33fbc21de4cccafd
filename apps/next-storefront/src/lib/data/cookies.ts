import "server-only"
import { cookies as nextCookies, headers } from "next/headers"

/** The shopper's login, when there is one (this storefront only has guests). */
export const getAuthHeaders = async (): Promise<
  { authorization: string } | Record<string, never>
> => {
  const token = (await nextCookies()).get("_medusa_jwt")?.value
  return token ? { authorization: `Bearer ${token}` } : {}
}

/**
 * Who the shopper is to Medusa: this server calls Medusa for every shopper, so without this
 * header they would all be one client, and the payment plugin shares its create line per client
 * address. Forwards `X-Forwarded-For` as this server received it (Next.js appends the address
 * that connected); the plugin believes it only from a proxy its `fairness.trustedProxies`
 * names: this server's address (and whatever stands in front of it).
 */
export const getShopperAddressHeaders = async (): Promise<
  { "x-forwarded-for": string } | Record<string, never>
> => {
  const forwarded = (await headers()).get("x-forwarded-for")
  return forwarded ? { "x-forwarded-for": forwarded } : {}
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
