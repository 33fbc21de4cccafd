"use server"

import { sdk } from "@lib/config"
import { getAuthHeaders } from "./cookies"

/** The payment providers of the cart's region (the starter's, in the same file). */
export const listCartPaymentMethods = async (regionId: string) =>
  sdk.store.payment
    .listPaymentProviders(
      { region_id: regionId },
      { ...(await getAuthHeaders()) }
    )
    .then(({ payment_providers }) => payment_providers)
    .catch(() => null)
