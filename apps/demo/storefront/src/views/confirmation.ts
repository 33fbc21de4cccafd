import { html, nothing } from "lit";
import { formatMoney } from "../format";
import type { Actions, State } from "../state";

/** The order, paid. */
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
            <td>${item.quantity}×</td>
            <td>${item.product_title} <span class="muted">${item.variant_title}</span></td>
            <td class="amount">${formatMoney(item.total)}</td>
          </tr>`,
      )}
    </table>
    <p class="total">Total <strong>${formatMoney(order.total)}</strong></p>
    <button @click=${() => actions.startOver()}>Voltar à loja</button>
  `;
}
