"use server"

import { sdk } from "@lib/config"
import { HttpTypes } from "@medusajs/types"
import { getAuthHeaders } from "./cookies"

/**
 * The region that sells to a country (`br`), as the starter's `[countryCode]` routes use it,
 * or null for a path segment that is no country (`favicon.ico`).
 */
export async function getRegion(
  countryCode: string
): Promise<HttpTypes.StoreRegion | null> {
  const { regions } = await sdk.store.region.list(
    { fields: "*countries" },
    { ...(await getAuthHeaders()) }
  )
  return (
    regions.find((r) => r.countries?.some((c) => c.iso_2 === countryCode)) ??
    null
  )
}
