import { paymentInfoMap } from "@lib/constants"
import { HttpTypes } from "@medusajs/types"
import { convertToLocale } from "@lib/util/money"
import EarlierPayment from "@modules/order/components/earlier-payment"

type PaymentDetailsProps = {
  order: HttpTypes.StoreOrder
}

const money = (amount: number, currency: string) =>
  convertToLocale({ amount, currency_code: currency })

/** The order's payment: method and amount, once a payment exists. */
const PaymentDetails = ({ order }: PaymentDetailsProps) => {
  const payment = order.payment_collections?.[0]?.payments?.[0]

  return (
    <section className="step" data-testid="payment-details">
      <h2>Payment</h2>
      {payment ? (
        <p>
          <span data-testid="payment-method">
            {paymentInfoMap[payment.provider_id]?.icon}
            {paymentInfoMap[payment.provider_id]?.title ?? payment.provider_id}
          </span>{" "}
          <span data-testid="payment-amount">
            {money(payment.amount, order.currency_code.toUpperCase())}
          </span>
        </p>
      ) : (
        <p data-testid="payment-awaiting">Awaiting payment</p>
      )}
      {payment && <EarlierPayment orderId={order.id} />}
    </section>
  )
}

export default PaymentDetails
