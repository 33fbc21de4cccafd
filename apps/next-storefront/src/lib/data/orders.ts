"use server"

import { sdk } from "@lib/config"
import medusaError from "@lib/util/medusa-error"
import { HttpTypes } from "@medusajs/types"
import { getAuthHeaders } from "./cookies"

export const retrieveOrderLive = async (id: string) => {
  const headers = {
    ...(await getAuthHeaders()),
  }

  return sdk.client
    .fetch<HttpTypes.StoreOrderResponse>(`/store/orders/${id}`, {
      method: "GET",
      query: {
        fields:
          "*payment_collections.payments,*payment_collections.payment_sessions,*items,*items.metadata,*items.variant,*items.product",
      },
      headers,
      cache: "no-store",
    })
    .then(({ order }) => order)
    .catch((err) => medusaError(err))
}

/**
 * Money the store received for an older code of the order's cart, which it gives back (an old
 * Pix paid after the cart changed, or a Pix paid after a card paid the order), as the Pix
 * Checkout plugin tells it: `amount` in integer cents, `order_paid` whether the order is paid.
 */
export type EarlierPayment = { amount: number; order_paid: boolean }

/** The order's earlier payment, or null: none, or the store could not say. Never throws. */
export const retrieveEarlierPayment = async (id: string) => {
  const headers = {
    ...(await getAuthHeaders()),
  }

  return sdk.client
    .fetch<{ earlier_payment: EarlierPayment | null }>(
      `/store/pix-checkout/orders/${encodeURIComponent(id)}`,
      { method: "GET", headers, cache: "no-store" }
    )
    .then(({ earlier_payment }) => earlier_payment)
    .catch(() => null)
}
