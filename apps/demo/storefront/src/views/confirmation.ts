import { html, nothing } from "lit";
import { formatMoney } from "../format";
import type { Actions, State } from "../state";
import { priceLines } from "../totals";
import { priceLinesView } from "./price-lines";

/** The order, paid: each item at its listed price, then Produtos, Frete, discounts and Total. */
export function confirmationView(state: State, actions: Actions) {
  const order = state.order;
  if (!order) return nothing;
  return html`
    <h2>Pagamento confirmado</h2>
    <p class="success" role="status">
      Obrigado! Seu pedido <strong>#${order.display_id}</strong> está pago.
    </p>
    <table class="lines">
      ${(order.items ?? []).map(
        (item) =>
          html`<tr>
            <td>${item.quantity} × ${formatMoney(item.unit_price)}</td>
            <td>${item.product_title} <span class="muted">${item.variant_title}</span></td>
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
