import {
  listCartOptions,
  listCartPaymentMethods,
  retrieveCart,
} from "@lib/data/cart"
import Addresses from "@modules/checkout/components/addresses"
import Payment from "@modules/checkout/components/payment"
import Review from "@modules/checkout/components/review"
import Shipping from "@modules/checkout/components/shipping"
import { readyStep } from "@lib/util/checkout-step"
import { notFound, redirect } from "next/navigation"
import Totals from "@modules/common/components/totals"

export const dynamic = "force-dynamic"

type Props = {
  params: Promise<{ countryCode: string }>
  searchParams: Promise<{ step?: string }>
}

/** The starter's one-page checkout: address, delivery, payment and review, one step open. */
export default async function CheckoutPage(props: Props) {
  const [{ countryCode }, { step = "address" }] = await Promise.all([
    props.params,
    props.searchParams,
  ])
  const cart = await retrieveCart()
  if (!cart) return notFound()
  const ready = readyStep(cart, step)
  if (ready !== step) redirect(`/${countryCode}/checkout?step=${ready}`)
  const [options, methods] = await Promise.all([
    listCartOptions(cart.id),
    listCartPaymentMethods(cart.region_id!),
  ])

  return (
    <>
      <h1>Finalizar compra</h1>
      <Totals totals={cart} totalTestId="cart-total" />
      <Addresses cart={cart} isOpen={step === "address"} />
      <Shipping
        cart={cart}
        options={options}
        isOpen={step === "delivery"}
        countryCode={countryCode}
      />
      <Payment cart={cart} availablePaymentMethods={methods} />
      <Review cart={cart} />
    </>
  )
}
