import { retrieveCart } from "@lib/data/cart"
import CheckoutForm from "@modules/checkout/templates/checkout-form"
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

  return (
    <>
      <h1>Finalizar compra</h1>
      <Totals totals={cart} totalTestId="cart-total" />
      <CheckoutForm cart={cart} step={step} countryCode={countryCode} />
    </>
  )
}
