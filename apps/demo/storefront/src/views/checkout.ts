import { html, nothing } from "lit";
import config from "virtual:pix-demo-config";
import type { Actions, ShownSession, State } from "../state";
import { logForDevelopers } from "../developer-log";
import { boletoOrderNotice } from "./confirmation";

/**
 * The `<pix-checkout>` element for the cart's payment session. Pix is pay-first: the order
 * appears once the charge is paid (the webhook completes the cart). Boleto is order-first:
 * the order already exists and waits for payment. The cart is completed on `pix-paid` only,
 * which the element fires when the live code paid the cart; on `pix-refund-due` (a code the
 * cart replaced, paid anyway) the element tells where the money goes and the cart stays open.
 */
export function checkoutView(state: State, actions: Actions) {
  const isBoleto = state.method === "boleto";
  return html`
    <h2>Pagamento</h2>
    ${
      isBoleto && state.order
        ? boletoOrderNotice(state.order.display_id, state.orderPayment)
        : state.refundDue
          ? html`<p class="notice" role="status">
              Este pagamento não conclui o pedido: o valor será devolvido, como explicado abaixo.
            </p>`
          : html`<p class="muted">Seu pedido é criado assim que o pagamento for confirmado.</p>`
    }
    ${
      state.elementMissing
        ? html`<p class="error banner" role="alert">
            O componente &lt;pix-checkout&gt; não foi carregado. Rode
            <code>npm run build -w @pix-checkout/element</code> e recarregue a página.
          </p>`
        : nothing
    }
    ${
      state.sessionId
        ? html`<pix-checkout
            backend-url=${config.backendUrl}
            publishable-key=${config.publishableKey}
            session-id=${state.sessionId}
            lang="pt-BR"
            @pix-paid=${(event: CustomEvent<{ session: { status: string } }>) =>
              actions.paid(event.detail.session)}
            @pix-refund-due=${() => actions.refundDue()}
            @pix-renewed=${(event: CustomEvent<{ sessionId: string }>) =>
              actions.renewed(event.detail.sessionId)}
            @pix-status-change=${(event: CustomEvent<{ session: ShownSession }>) =>
              actions.sessionShown(event.detail.session)}
            @pix-error=${(event: CustomEvent<{ code: string; message: string }>) =>
              // The store's own words are for whoever develops the store, never for the page.
              logForDevelopers(`${event.detail.code}: ${event.detail.message}`)}
          ></pix-checkout>`
        : nothing
    }
    ${
      // Pay-first: no order yet, so the shopper may go back and change the method or the cart;
      // not once money arrived for it (held for the store's decision, the cart being made the
      // order, paid): the element says what comes of it, and "não pague de novo".
      (isBoleto && state.order) || MONEY_ARRIVED.has(state.checkoutCodeStatus ?? "")
        ? nothing
        : html`<button class="secondary wide" @click=${() => actions.go("payment")}>
            Voltar ao pagamento
          </button>`
    }
    ${
      config.sandboxUrl
        ? html`<p class="sandbox-hint">
            Demo: pague ou expire esta cobrança na
            <a href=${sandboxHref(state)} target="_blank" rel="noopener">página dela no sandbox</a>.
          </p>`
        : nothing
    }
  `;
}

/** The element's statuses of a code whose money arrived and counts for the cart. */
const MONEY_ARRIVED = new Set(["held", "confirming", "paid"]);

/**
 * The code that still pays an order awaiting payment, on its confirmation: the same element,
 * for the order's own session. Once it is paid (or renewed) the page reads the order again,
 * and says "está pago" only when the store says the order is.
 */
export function orderCodeView(sessionId: string, actions: Actions) {
  return html`<pix-checkout
    backend-url=${config.backendUrl}
    publishable-key=${config.publishableKey}
    session-id=${sessionId}
    lang="pt-BR"
    @pix-paid=${() => actions.orderChanged()}
    @pix-renewed=${() => actions.orderChanged()}
    @pix-error=${(event: CustomEvent<{ code: string; message: string }>) =>
      logForDevelopers(`${event.detail.code}: ${event.detail.message}`)}
  ></pix-checkout>`;
}

/**
 * The sandbox page of the charge on screen, once the element said which; until then (or for a
 * session it has not read yet) the sandbox's home, the list of every charge.
 */
function sandboxHref(state: State): string {
  const page = state.sandboxPage;
  return page && page.sessionId === state.sessionId ? page.url : (config.sandboxUrl ?? "");
}
