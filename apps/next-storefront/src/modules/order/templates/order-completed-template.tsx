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
      <h1>Thank you!</h1>
      <p>
        Your order <strong data-testid="order-id">#{order.display_id}</strong>{" "}
        was placed.
      </p>
      <Totals totals={order} totalTestId="order-total" />
      <PaymentDetails order={order} told={told} codeShown={codeShown} />
    </div>
  )
}
