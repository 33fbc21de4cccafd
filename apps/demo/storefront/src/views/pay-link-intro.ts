import { html } from "lit";

/** What the store's answer says of the order behind the code, when the code has one. */
export interface PayLinkOrder {
  display_id: number;
}

/**
 * The line under "Seu pagamento" on `/pagar/<session>`, before the code is paid. A Pix code of a
 * cart comes before any order (Pix is pay-first), so the page says "pedido" only once the
 * store's answer names one (a boleto's order, an order's own collection): until then, "compra".
 */
export function payLinkIntro(order: PayLinkOrder | null | undefined) {
  return order
    ? html`<p class="muted">
        Este é o código do seu pedido <strong>#${order.display_id}</strong>. Se ele já foi pago ou
        expirou, esta página mostra isso.
      </p>`
    : html`<p class="muted">
        Este é o código da sua compra. Se ele já foi pago ou expirou, esta página mostra isso.
      </p>`;
}
