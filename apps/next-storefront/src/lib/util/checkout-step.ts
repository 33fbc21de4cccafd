import type { HttpTypes } from "@medusajs/types"

/** The checkout's steps, in order. */
const STEPS = ["address", "delivery", "payment", "review"] as const

/**
 * The furthest step this cart is ready for: the delivery options only once the cart has the
 * shopper's e-mail and an address (the fields the starter's form requires: its state is
 * optional), the payment once it also has a delivery option, the
 * review once it has a payment session. A step further on (a bookmark, the back button, a
 * typed address) opens this one instead, so no tap order reaches the payment with a cart that
 * an order cannot come of.
 */
export function readyStep(cart: HttpTypes.StoreCart, asked: string) {
  const address = cart.shipping_address
  const step = !(
    cart.email &&
    address?.first_name &&
    address.address_1 &&
    address.postal_code &&
    address.city
  )
    ? "address"
    : !cart.shipping_methods?.length
      ? "delivery"
      : !cart.payment_collection?.payment_sessions?.length
        ? "payment"
        : "review"
  const wanted = STEPS.indexOf(asked as (typeof STEPS)[number])
  return wanted >= 0 && wanted <= STEPS.indexOf(step) ? asked : step
}
