import { html, nothing } from "lit";
import { formatCents, formatMoney, pixDiscountLabel } from "../format";
import { boletoFields } from "../payer-fields";
import type { Actions, State } from "../state";
import { payerFields } from "./payer-form";

function summary(state: State) {
  const cart = state.cart;
  const saved = state.pixDiscount?.saved ?? 0;
  return html`<dl class="summary">
    <dt>Produtos</dt>
    <dd>${formatMoney(saved > 0 ? cart?.item_subtotal : cart?.item_total)}</dd>
    <dt>Frete</dt>
    <dd>${formatMoney(cart?.shipping_total)}</dd>
    ${
      saved > 0
        ? html`<dt>Desconto no Pix</dt>
            <dd class="discount">−${formatCents(saved)}</dd>`
        : nothing
    }
    <dt>Total</dt>
    <dd><strong>${formatMoney(cart?.total)}</strong></dd>
  </dl>`;
}

/** Choice between Pix and boleto; boleto asks for the payer's document and address. */
export function paymentView(state: State, actions: Actions) {
  if (state.methods.length === 0) {
    return html`<h2>Pagamento</h2>
      ${summary(state)}
      <p class="error" role="alert">
        Esta loja ainda não oferece Pix nem boleto: o plugin Pix Checkout não está registrado. Veja
        apps/demo/README.md.
      </p>`;
  }
  const method = state.method ?? state.methods[0];
  const offer = pixDiscountLabel(state.pixDiscount);
  return html`
    <h2>Pagamento</h2>
    ${summary(state)}
    <fieldset class="options" role="radiogroup">
      <legend>Forma de pagamento</legend>
      ${state.methods.map(
        (candidate) =>
          html`<label class="option">
            <input
              type="radio"
              name="method"
              value=${candidate}
              ?checked=${candidate === method}
              @change=${() => actions.chooseMethod(candidate)}
            />
            <span
              >${candidate === "pix" ? "Pix" : "Boleto bancário"}
              ${
                candidate === "pix" && offer
                  ? html`<span class="badge discount">${offer}</span>`
                  : nothing
              }</span
            >
            <span class="muted"
              >${
                candidate === "pix"
                  ? "Aprovação na hora. O pedido é criado quando o Pix é pago."
                  : "Vence em alguns dias. O pedido é criado agora e aguarda o pagamento."
              }</span
            >
          </label>`,
      )}
    </fieldset>
    ${
      method === "boleto"
        ? html`<form
            novalidate
            @submit=${(event: Event) => {
              event.preventDefault();
              actions.pay("boleto");
            }}
          >
            <p class="muted">O boleto leva o nome, o CPF ou CNPJ e o endereço de quem paga.</p>
            ${payerFields(state, actions, boletoFields)}
            <button type="submit" ?disabled=${state.busy}>Gerar boleto e finalizar pedido</button>
          </form>`
        : html`<button ?disabled=${state.busy} @click=${() => actions.pay("pix")}>
            Pagar com Pix
          </button>`
    }
    ${state.busy ? html`<p class="muted" role="status">Aguarde…</p>` : nothing}
  `;
}
