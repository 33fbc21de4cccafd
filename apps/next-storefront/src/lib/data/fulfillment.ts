"use server"

import { sdk } from "@lib/config"
import { getAuthHeaders } from "./cookies"

/** The shipping options Medusa offers for this cart (the starter's, in the same file). */
export const listCartShippingMethods = async (cartId: string) =>
  sdk.store.fulfillment
    .listCartOptions({ cart_id: cartId }, { ...(await getAuthHeaders()) })
    .then(({ shipping_options }) => shipping_options)
    .catch(() => null)
