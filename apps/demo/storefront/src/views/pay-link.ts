import { html, nothing } from "lit";
import config from "virtual:pix-demo-config";

/**
 * The page the shopper reaches from the message with their code: the same `<pix-checkout>`
 * as at checkout, for that session. It shows the code while it can still be paid, and "paid"
 * or "expired" when it is too late; the element asks the store, which only answers for this
 * storefront's own sessions.
 */
export function payLinkView(sessionId: string, elementMissing: boolean) {
  return html`
    <h2>Seu pagamento</h2>
    <p class="muted">
      Este é o código do seu pedido. Se ele já foi pago ou expirou, esta página mostra isso.
    </p>
    ${
      elementMissing
        ? html`<p class="error banner" role="alert">
            O componente &lt;pix-checkout&gt; não foi carregado. Rode
            <code>npm run build -w @pix-checkout/element</code> e recarregue a página.
          </p>`
        : nothing
    }
    <pix-checkout
      backend-url=${config.backendUrl}
      publishable-key=${config.publishableKey}
      session-id=${sessionId}
      lang="pt-BR"
    ></pix-checkout>
    <p><a href="/">Voltar à loja</a></p>
  `;
}
