import { paymentInfoMap } from "@lib/constants"
import { HttpTypes } from "@medusajs/types"
import { convertToLocale } from "@lib/util/money"
import type { OrderPayment } from "@lib/data/orders"
import { Text } from "@modules/common/components/ui"
import EarlierPayment from "@modules/order/components/earlier-payment"

type PaymentDetailsProps = {
  order: HttpTypes.StoreOrder
  /** What the Pix Checkout plugin says of the order's payment; null: it could not say. */
  told: OrderPayment | null
  /** The page shows the order's code above it, which says an older code's money itself. */
  codeShown: boolean
}

/** What the page says of the order's payment: paid only when the store says Medusa's order is. */
const paymentStatus = {
  paid: "Seu pedido está pago.",
  awaiting: "Seu pedido aguarda pagamento.",
  canceled: "Seu pedido foi cancelado.",
}

const money = (amount: number, currency: string) =>
  convertToLocale({ amount, currency_code: currency })

/**
 * The order's payment as the store tells it, its method and amount once the order is paid, and
 * money an older code brought that the store gives back.
 */
const PaymentDetails = ({ order, told, codeShown }: PaymentDetailsProps) => {
  const payment = order.payment_collections?.[0]?.payments?.[0]
  // Medusa authorizes a Pix or boleto payment when the order is placed, before any money
  // arrives: show it as the order's payment only once the store says the order is paid.
  const paid = told?.payment === "paid"

  return (
    <section className="step" data-testid="payment-details">
      <h2>Pagamento</h2>
      {told && (
        <Text data-testid="order-payment-status">
          {paymentStatus[told.payment]}
        </Text>
      )}
      {payment && paid && (
        <p>
          <span data-testid="payment-method">
            {paymentInfoMap[payment.provider_id]?.icon}
            {paymentInfoMap[payment.provider_id]?.title ?? payment.provider_id}
          </span>{" "}
          <span data-testid="payment-amount">
            {money(payment.amount, order.currency_code.toUpperCase())}
          </span>
        </p>
      )}
      {told?.earlier_payment && !codeShown && (
        <EarlierPayment earlier={told.earlier_payment} orderPaid={paid} />
      )}
    </section>
  )
}

export default PaymentDetails
