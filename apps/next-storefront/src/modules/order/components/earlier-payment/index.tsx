import type { EarlierPayment as Earlier } from "@lib/data/orders"
import { Text } from "@modules/common/components/ui"

const brl = (cents: number) =>
  new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL" }).format(
    cents / 100
  )

/**
 * Money the store received for an older code of this order's cart and gives back: the amount
 * and why, in the element's words. "Já está pago" only when the store says the order is paid.
 */
export default function EarlierPayment({
  earlier,
  orderPaid,
}: {
  earlier: Earlier
  orderPaid: boolean
}) {
  const amount = brl(earlier.amount)
  return (
    <Text
      role="status"
      className="earlier-payment mt-4 rounded-md border border-ui-tag-blue-border bg-ui-tag-blue-bg px-2 py-1 text-ui-tag-blue-text txt-compact-small"
      data-testid="earlier-payment"
    >
      {orderPaid
        ? `Recebemos ${amount} por um código anterior. Seu pedido já está pago; esse valor será devolvido.`
        : `Recebemos ${amount} por um código anterior; esse valor será devolvido.`}
    </Text>
  )
}
