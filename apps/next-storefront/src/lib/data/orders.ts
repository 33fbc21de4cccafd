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
 * Pix paid after the cart changed, or a Pix paid after a card paid the order): `amount` in
 * integer cents, `order_paid` whether the order is paid.
 */
export type EarlierPayment = { amount: number; order_paid: boolean }

/**
 * The order's payment as the Pix Checkout plugin tells it: `payment` is Medusa's order, `paid`
 * when nothing is left to pay (the only time the page may say so), `canceled`, else `awaiting`;
 * `earlier_payment` is money an older code brought, owed back, or null.
 */
export type OrderPayment = {
  payment: "paid" | "awaiting" | "canceled"
  earlier_payment: EarlierPayment | null
}

/** The order's payment, or null: the store could not say. Never cached, never throws. */
export const retrieveOrderPayment = async (id: string) => {
  const headers = {
    ...(await getAuthHeaders()),
  }

  return sdk.client
    .fetch<OrderPayment>(
      `/store/pix-checkout/orders/${encodeURIComponent(id)}`,
      { method: "GET", headers, cache: "no-store" }
    )
    .then(({ payment, earlier_payment }) =>
      ["paid", "awaiting", "canceled"].includes(payment)
        ? { payment, earlier_payment: earlier_payment ?? null }
        : null
    )
    .catch(() => null)
}
