import { HttpTypes } from "@medusajs/types"
import { convertToLocale } from "@lib/util/money"

/**
 * The starter's cart totals (`CartTotals`), in a few lines: each item at its listed price, the
 * delivery, the discounts (the Pix discount among them), the taxes and the total, which is
 * their sum to the cent, as Medusa computes them.
 */
export default function Totals({
  totals,
  totalTestId,
}: {
  totals: HttpTypes.StoreCart | HttpTypes.StoreOrder
  /** The total's test id: `cart-total` on the checkout, `order-total` on the order. */
  totalTestId: string
}) {
  const currency = totals.currency_code
  const money = (amount: number) =>
    convertToLocale({ amount, currency_code: currency })
  const lines: [string, number][] = [
    ...(totals.items ?? []).map((item): [string, number] => [
      `${item.quantity} × ${item.product_title ?? item.title}`,
      item.subtotal ?? item.unit_price * item.quantity,
    ]),
    ["Frete", totals.shipping_subtotal ?? 0],
  ]
  if (totals.discount_total) lines.push(["Descontos", -totals.discount_total])
  if (totals.tax_total) lines.push(["Impostos", totals.tax_total])
  return (
    <dl className="totals" data-testid="totals">
      {lines.map(([label, amount]) => (
        <div key={label} data-testid="totals-line">
          <dt>{label}</dt>
          <dd>{money(amount)}</dd>
        </div>
      ))}
      <div className="totals-total">
        <dt>Total</dt>
        <dd>
          <strong data-testid={totalTestId}>{money(totals.total)}</strong>
        </dd>
      </div>
    </dl>
  )
}
