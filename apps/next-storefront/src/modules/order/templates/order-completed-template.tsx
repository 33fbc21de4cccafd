import { HttpTypes } from "@medusajs/types"
import PaymentDetails from "@modules/order/components/payment-details"
import Totals from "@modules/common/components/totals"

type OrderCompletedTemplateProps = {
  order: HttpTypes.StoreOrder
}

/** The order's summary: number, its lines and total, and payment. */
export default function OrderCompletedTemplate({
  order,
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
      <PaymentDetails order={order} />
    </div>
  )
}
