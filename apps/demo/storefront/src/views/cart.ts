import { html, nothing } from "lit";
import { formatMoney, variantLabel } from "../format";
import type { Actions, State } from "../state";

/** The cart with quantities and totals. */
export function cartView(state: State, actions: Actions) {
  const items = state.cart?.items ?? [];
  if (items.length === 0) {
    return html`<h2>Carrinho</h2>
      <p>Seu carrinho está vazio.</p>
      <button @click=${() => actions.go("products")}>Ver produtos</button>`;
  }
  return html`
    <h2>Carrinho</h2>
    <table class="lines">
      ${items.map(
        (item) =>
          html`<tr>
            <td><img src=${item.thumbnail ?? ""} alt="" width="48" height="48" /></td>
            <td>
              ${item.product_title}<br />${
                variantLabel(item)
                  ? html`<span class="muted">${variantLabel(item)}</span><br />`
                  : nothing
              }
              <span class="muted">${formatMoney(item.unit_price)} cada</span>
            </td>
            <td class="stepper">
              <button
                class="small"
                aria-label="Menos"
                @click=${() => actions.setQuantity(item.id, item.quantity - 1)}
              >
                −
              </button>
              <span class="qty">${item.quantity}</span>
              <button
                class="small"
                aria-label="Mais"
                @click=${() => actions.setQuantity(item.id, item.quantity + 1)}
              >
                +
              </button>
            </td>
            <td class="amount">${formatMoney(item.subtotal)}</td>
          </tr>`,
      )}
    </table>
    <p class="total">Subtotal <strong>${formatMoney(state.cart?.item_subtotal)}</strong></p>
    <p class="muted total">Frete e desconto no Pix na próxima etapa.</p>
    <div class="row">
      <button class="secondary" @click=${() => actions.go("products")}>Continuar comprando</button>
      <button @click=${() => actions.go("address")}>Finalizar compra</button>
    </div>
  `;
}
