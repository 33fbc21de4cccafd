import { html, nothing } from "lit";
import type { EarlierPayment, OrderPaymentStatus, RefundOwed } from "../order-payment";
import { formatCents, formatMoney, variantLabel } from "../format";
import type { Actions, State } from "../state";
import { priceLines } from "../totals";
import { priceLinesView } from "./price-lines";

/**
 * Money an older code of the cart brought, which the store gives back: the amount and why. That
 * the order "já está pago" is said only when Medusa's order is (`paid`); an unpaid order's code
 * is on the same page.
 */
export function earlierPaymentLine(earlier: EarlierPayment, orderPaid: boolean): string {
  const amount = formatCents(earlier.amount);
  return orderPaid
    ? `Recebemos ${amount} por um código anterior. Seu pedido já está pago; esse valor será devolvido.`
    : `Recebemos ${amount} por um código anterior; esse valor será devolvido.`;
}

/** Why the code that paid the order brought more than it costs, in the element's words. */
const excessReasons: Record<string, string> = {
  amount_lowered: "O valor do pedido diminuiu depois que o código foi gerado",
  overpaid: "Você pagou mais do que o código pedia",
};

/**
 * Money the code that paid the order brought beyond what it costs, which the store gives back:
 * the amount and why.
 */
export function excessLine(refund: RefundOwed): string {
  const why = excessReasons[refund.reason] ?? "O pagamento passou do valor do pedido";
  return `${why}: a loja vai devolver ${formatCents(refund.amount)}.`;
}

/**
 * The line above a boleto order's code on the checkout step, from what the store last said of
 * the order's payment (the element's session): once the merchant canceled the order, the page
 * says so beside the element's "cancelado", never "aguardando o pagamento".
 */
export function boletoOrderNotice(
  displayId: number | undefined,
  payment: OrderPaymentStatus | null,
) {
  const number = html`<strong>#${displayId}</strong>`;
  return payment === "canceled"
    ? html`<p class="notice" role="status">
        Pedido ${number} cancelado: este boleto não deve mais ser pago.
      </p>`
    : html`<p class="notice">Pedido ${number} criado, aguardando o pagamento do boleto.</p>`;
}

/** The heading and first line for the order's payment, as the plugin tells it. */
function story(state: State, displayId: number | undefined) {
  const number = html`<strong>#${displayId}</strong>`;
  switch (state.orderPayment) {
    case "paid":
      return html`<h2>Pagamento confirmado</h2>
        <p class="success" role="status">Obrigado! Seu pedido ${number} está pago.</p>`;
    case "awaiting":
      return html`<h2>Pedido aguardando pagamento</h2>
        <p class="notice" role="status">
          Seu pedido ${number} aguarda pagamento.
          ${
            state.orderSessionId && state.orderCodeStatus !== "paid"
              ? "Pague o código abaixo para concluí-lo."
              : nothing
          }
        </p>`;
    case "canceled":
      return html`<h2>Pedido cancelado</h2>
        <p class="notice" role="status">Seu pedido ${number} foi cancelado.</p>`;
    default:
      // The store could not say: claim nothing about the money.
      return html`<h2>Pedido recebido</h2>
        <p class="notice" role="status">
          Seu pedido ${number} foi criado. Não conseguimos confirmar o pagamento agora; recarregue a
          página em instantes.
        </p>`;
  }
}

/**
 * The order: whether it is paid (only when the plugin says Medusa's order is), money an older
 * code brought and the store gives back, the code that still pays an order awaiting payment
 * (`code` draws it), then each item at its listed price, Produtos, Frete, discounts and Total.
 */
export function confirmationView(
  state: State,
  actions: Actions,
  code: (sessionId: string) => unknown = () => nothing,
) {
  const order = state.order;
  if (!order) return nothing;
  return html`
    ${story(state, order.display_id)}
    ${
      state.orderEarlierPayment
        ? html`<p class="notice" role="status">
            ${earlierPaymentLine(state.orderEarlierPayment, state.orderPayment === "paid")}
          </p>`
        : nothing
    }
    ${
      state.orderRefund && state.orderPayment === "paid"
        ? html`<p class="notice" role="status">${excessLine(state.orderRefund)}</p>`
        : nothing
    }
    ${state.orderPayment === "awaiting" && state.orderSessionId ? code(state.orderSessionId) : nothing}
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
