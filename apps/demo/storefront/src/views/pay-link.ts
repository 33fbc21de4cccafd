import { html, nothing, render } from "lit";
import config from "virtual:pix-demo-config";
import { sessionState } from "../store-api";
import { payLinkPath } from "../pay-link";
import { logForDevelopers } from "../developer-log";
import { payLinkIntro, type PayLinkOrder } from "./pay-link-intro";

/** The order a session's answer names, and whether Medusa's order is paid. */
type OrderWord = { display_id: number; payment?: string };

/** What the page does when the element says so. */
interface PayLinkActions {
  renewed(next: string): void;
  /** The element read its session: the order behind it, if the store names one. */
  seen(session: { order?: PayLinkOrder | null }): void;
  paid(detail: { session: { session_id: string; order?: OrderWord | null } }): Promise<void>;
}

/** What the page knows beside the element: the order once paid, and whether the element loaded. */
interface PayLinkState {
  sessionId: string;
  elementMissing: boolean;
  /** The order's number, once the store says it is paid. */
  orderNumber: number | null;
  /** The order behind the code, once the store's answer names one (never for a cart's Pix). */
  order: PayLinkOrder | null;
}

/**
 * The page the shopper reaches from the message with their code (`/pagar/<session>`): the store's
 * header, then the same `<pix-checkout>` as at checkout, for that session. It shows the code
 * while it can still be paid, and "paid" (with the order's number) or "expired" when it is too
 * late; the element asks the store, which only answers for this storefront's own sessions. A new
 * code ("Gerar novo código", "Ver o código atual") takes the address over, so a reload shows it.
 */
export function mountPayLink(
  root: HTMLElement,
  sessionId: string,
  elementLoaded: Promise<boolean>,
): void {
  let state: PayLinkState = { sessionId, elementMissing: false, orderNumber: null, order: null };
  const update = (patch: Partial<PayLinkState>) => {
    state = { ...state, ...patch };
    render(payLinkView(state, actions), root);
  };
  const actions: PayLinkActions = {
    renewed(next: string) {
      history.replaceState(null, "", payLinkPath(next));
      update({ sessionId: next, order: null });
    },
    seen(session) {
      const order = session.order ?? null;
      if (order?.display_id !== state.order?.display_id) update({ order });
    },
    async paid(detail: { session: { session_id: string; order?: OrderWord | null } }) {
      // The live stream says paid before the order exists; the store's answer names it once
      // the cart is an order (the webhook completes it within seconds), with Medusa's word on
      // whether it is paid. "Está pago" is said only on that word.
      let order = detail.session.order;
      for (let tries = 0; order?.payment !== "paid" && tries < 20; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        order = (await sessionState(detail.session.session_id))?.order;
      }
      if (order?.payment === "paid") update({ orderNumber: order.display_id });
    },
  };
  update({});
  void elementLoaded.then((loaded) => loaded || update({ elementMissing: true }));
}

function payLinkView(state: PayLinkState, { renewed, seen, paid }: PayLinkActions) {
  return html`
    <header>
      <h1><a href="/">Loja Pix Checkout</a></h1>
    </header>
    <main>
      <h2>Seu pagamento</h2>
      ${
        state.orderNumber
          ? html`<p class="success" role="status">
              Obrigado! Seu pedido <strong>#${state.orderNumber}</strong> está pago.
            </p>`
          : payLinkIntro(state.order)
      }
      ${
        state.elementMissing
          ? html`<p class="error banner" role="alert">
              O componente &lt;pix-checkout&gt; não foi carregado. Rode
              <code>npm run build -w @pix-checkout/element</code> e recarregue a página.
            </p>`
          : nothing
      }
      <pix-checkout
        backend-url=${config.backendUrl}
        publishable-key=${config.publishableKey}
        session-id=${state.sessionId}
        lang="pt-BR"
        @pix-renewed=${(event: CustomEvent<{ sessionId: string }>) =>
          renewed(event.detail.sessionId)}
        @pix-status-change=${(event: CustomEvent<{ session: { order?: PayLinkOrder | null } }>) =>
          seen(event.detail.session)}
        @pix-paid=${(event: CustomEvent<Parameters<PayLinkActions["paid"]>[0]>) =>
          void paid(event.detail)}
        @pix-error=${(event: CustomEvent<{ code: string; message: string }>) =>
          logForDevelopers(`${event.detail.code}: ${event.detail.message}`)}
      ></pix-checkout>
      <a class="button secondary" href="/">Voltar à loja</a>
    </main>
  `;
}
