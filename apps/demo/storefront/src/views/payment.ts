import { html, nothing } from "lit";
import { pixDiscountLabel } from "../format";
import { boletoFields } from "../payer-fields";
import type { Actions, State } from "../state";
import { priceLines } from "../totals";
import { payerFields } from "./payer-form";
import { priceLinesView } from "./price-lines";

function summary(state: State) {
  const cart = state.cart;
  return priceLinesView(
    priceLines({
      products: cart?.item_subtotal ?? 0,
      shipping: cart?.shipping_subtotal ?? 0,
      total: cart?.total ?? 0,
      pixSaved: state.pixDiscount?.saved ?? 0,
    }),
  );
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
        : html`<button class="wide" ?disabled=${state.busy} @click=${() => actions.pay("pix")}>
            Pagar com Pix
          </button>`
    }
    <button class="secondary wide" @click=${() => actions.go("address")}>Voltar à entrega</button>
    ${state.busy ? html`<p class="muted" role="status">Aguarde…</p>` : nothing}
  `;
}
