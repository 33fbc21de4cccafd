import { choosePaymentMethod } from "@lib/data/cart"
import { listCartShippingMethods } from "@lib/data/fulfillment"
import { listCartPaymentMethods } from "@lib/data/payment"
import { HttpTypes } from "@medusajs/types"
import Addresses from "@modules/checkout/components/addresses"
import Payment from "@modules/checkout/components/payment"
import Review from "@modules/checkout/components/review"
import Shipping from "@modules/checkout/components/shipping"

/** The starter's checkout steps: address, delivery, payment and review, one step open. */
export default async function CheckoutForm({
  cart,
  step,
  countryCode,
}: {
  cart: HttpTypes.StoreCart
  step: string
  countryCode: string
}) {
  // The lists and the method the cart remembers, read at once: the payment step comes with its
  // Pix discount and the shopper's method in this same response, not a request after it.
  const [shippingMethods, paymentMethods, chosenMethod] = await Promise.all([
    listCartShippingMethods(cart.id),
    listCartPaymentMethods(cart.region?.id ?? ""),
    choosePaymentMethod(cart.id),
  ])

  if (!shippingMethods || !paymentMethods) {
    return null
  }

  return (
    <>
      <Addresses cart={cart} isOpen={step === "address"} />
      <Shipping
        cart={cart}
        options={shippingMethods}
        isOpen={step === "delivery"}
        countryCode={countryCode}
      />
      <Payment
        cart={cart}
        availablePaymentMethods={paymentMethods}
        chosenMethod={chosenMethod}
      />
      <Review cart={cart} />
    </>
  )
}
