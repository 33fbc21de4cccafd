import { html, nothing } from "lit";
import type { EarlierPayment } from "../earlier-payment";
import { formatCents, formatMoney, variantLabel } from "../format";
import type { Actions, State } from "../state";
import { priceLines } from "../totals";
import { priceLinesView } from "./price-lines";

/**
 * Money an older code of the cart brought, which the store gives back, as the element says it.
 * On the order's page an unpaid order has no "pay this code": its code is the element's.
 */
export function earlierPaymentLine(earlier: EarlierPayment): string {
  const amount = formatCents(earlier.amount);
  return earlier.order_paid
    ? `Recebemos ${amount} por um código anterior. Seu pedido já está pago; esse valor será devolvido.`
    : `Recebemos ${amount} por um código anterior; esse valor será devolvido.`;
}

/**
 * The order, paid: each item at its listed price, then Produtos, Frete, discounts and Total.
 * Under the paid message, money an older code brought, when there is some.
 */
export function confirmationView(state: State, actions: Actions) {
  const order = state.order;
  if (!order) return nothing;
  return html`
    <h2>Pagamento confirmado</h2>
    <p class="success" role="status">
      Obrigado! Seu pedido <strong>#${order.display_id}</strong> está pago.
    </p>
    ${
      state.orderEarlierPayment
        ? html`<p class="notice" role="status">${earlierPaymentLine(state.orderEarlierPayment)}</p>`
        : nothing
    }
    <table class="lines">
      ${(order.items ?? []).map(
        (item) =>
          html`<tr>
            <td>${item.quantity} × ${formatMoney(item.unit_price)}</td>
            <td>
              ${item.product_title}
              ${
                variantLabel(item)
                  ? html`<span class="muted">· ${variantLabel(item)}</span>`
                  : nothing
              }
            </td>
            <td class="amount">${formatMoney(item.subtotal)}</td>
          </tr>`,
      )}
    </table>
    ${priceLinesView(
      priceLines({
        products: order.item_subtotal ?? 0,
        shipping: order.shipping_subtotal ?? 0,
        total: order.total ?? 0,
        pixSaved: state.orderPixSaved,
      }),
    )}
    <button @click=${() => actions.startOver()}>Voltar à loja</button>
  `;
}
