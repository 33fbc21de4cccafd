import { HttpTypes } from "@medusajs/types"
import type { OrderPayment } from "@lib/data/orders"
import PaymentDetails from "@modules/order/components/payment-details"
import Totals from "@modules/common/components/totals"

type OrderCompletedTemplateProps = {
  order: HttpTypes.StoreOrder
  /** What the Pix Checkout plugin says of the order's payment; null: it could not say. */
  told: OrderPayment | null
  /** The page shows the order's code above (it still waits for payment). */
  codeShown: boolean
}

/** The order's summary: number, its lines and total, and payment. */
export default function OrderCompletedTemplate({
  order,
  told,
  codeShown,
}: OrderCompletedTemplateProps) {
  return (
    <div
      className="content-container max-w-4xl py-6"
      data-testid="order-complete-container"
    >
      <OrderHeading order={order} canceled={told?.payment === "canceled"} />
      <Totals totals={order} totalTestId="order-total" />
      <PaymentDetails order={order} told={told} codeShown={codeShown} />
    </div>
  )
}

/**
 * The page's heading, in Portuguese, as the plugin says the order stands: a canceled order is
 * never thanked for as placed.
 */
export function OrderHeading({
  order,
  canceled,
}: {
  order: HttpTypes.StoreOrder
  canceled: boolean
}) {
  const number = <strong data-testid="order-id">#{order.display_id}</strong>
  return canceled ? (
    <>
      <h1 className="text-3xl">Pedido cancelado</h1>
      <p>Seu pedido {number} foi cancelado.</p>
    </>
  ) : (
    <>
      <h1 className="text-3xl">Obrigado!</h1>
      <p>Seu pedido {number} foi registrado.</p>
    </>
  )
}
