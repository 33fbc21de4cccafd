import { HttpTypes } from "@medusajs/types"
import PaymentDetails from "@modules/order/components/payment-details"
import { convertToLocale } from "@lib/util/money"

type OrderCompletedTemplateProps = {
  order: HttpTypes.StoreOrder
}

const money = (amount: number, currency: string) =>
  convertToLocale({ amount, currency_code: currency })

/** The order's summary: number, items, total and payment. */
export default function OrderCompletedTemplate({
  order,
}: OrderCompletedTemplateProps) {
  const currency = order.currency_code.toUpperCase()
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
      <ul>
        {order.items?.map((item) => (
          <li key={item.id}>
            {item.quantity} × {item.product_title ?? item.title}
          </li>
        ))}
      </ul>
      <p>
        Total:{" "}
        <strong data-testid="order-total">
          {money(order.total, currency)}
        </strong>
      </p>
      <PaymentDetails order={order} />
    </div>
  )
}
