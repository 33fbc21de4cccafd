"use server"

import { sdk } from "@lib/config"
import { getAuthHeaders } from "./cookies"

/** The first products with their prices in the region. */
export async function listProducts(regionId: string) {
  return sdk.store.product
    .list(
      { region_id: regionId, fields: "*variants.calculated_price", limit: 12 },
      { ...(await getAuthHeaders()) }
    )
    .then(({ products }) => products)
}
