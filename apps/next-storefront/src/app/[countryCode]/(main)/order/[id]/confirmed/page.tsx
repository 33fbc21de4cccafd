import { isBoleto, isPix } from "@lib/constants"
import { retrieveOrderLive, retrieveOrderPayment } from "@lib/data/orders"
import OrderPaymentStatus from "@modules/order/components/order-payment-status"
import OrderCompletedTemplate from "@modules/order/templates/order-completed-template"
import { Metadata } from "next"
import { notFound } from "next/navigation"

type Props = {
  params: Promise<{ id: string }>
}
export const metadata: Metadata = {
  title: "Pedido registrado",
  description: "Seu pedido foi registrado",
}
// An order awaiting a boleto changes state after this page is first rendered.
export const dynamic = "force-dynamic"

export default async function OrderConfirmedPage(props: Props) {
  const params = await props.params
  const [order, told] = await Promise.all([
    retrieveOrderLive(params.id).catch(() => null),
    retrieveOrderPayment(params.id),
  ])

  if (!order) {
    return notFound()
  }

  const collection = order.payment_collections?.[0]
  const session = collection?.payment_sessions?.find(
    (s) => isPix(s.provider_id) || isBoleto(s.provider_id)
  )
  // The plugin reads Medusa's order: paid only when nothing is left to pay. Without its word,
  // the collection's own status decides whether the code is still shown.
  const awaitingPayment = told
    ? told.payment === "awaiting"
    : collection?.status !== "completed"
  const codeShown = !!session && awaitingPayment

  return (
    <>
      {codeShown && (
        <div className="content-container max-w-4xl py-6">
          <OrderPaymentStatus sessionId={session.id} />
        </div>
      )}
      <OrderCompletedTemplate order={order} told={told} codeShown={codeShown} />
    </>
  )
}
