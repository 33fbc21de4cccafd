import { html, nothing } from "lit";
import { pixDiscountLabel } from "../format";
import { billingFields } from "../payer-fields";
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

/**
 * "Mesmo endereço da entrega": checked, the boleto's payer is the delivery's and only the
 * document is typed; unchecked, the payer's address fields appear.
 */
function sameAddressChoice(state: State, actions: Actions) {
  return html`<label class="same-address">
      <input
        type="checkbox"
        name="same-address"
        .checked=${state.sameAddress}
        @change=${(event: Event) =>
          actions.setSameAddress((event.currentTarget as HTMLInputElement).checked)}
      />
      Mesmo endereço da entrega
    </label>
    ${
      state.sameAddress
        ? nothing
        : html`<p class="muted">Endereço de quem paga o boleto:</p>
            ${payerFields(state, actions, billingFields, "billing")}`
    }`;
}

/**
 * Choice between Pix and boleto. The CPF or CNPJ is one field, asked for a boleto and, when
 * the store wants it on every order (a nota fiscal), for Pix too; the boleto reuses the
 * delivery address unless the shopper says otherwise.
 */
export function paymentView(state: State, actions: Actions) {
  if (state.methods.length === 0) {
    return html`<h2>Pagamento</h2>
      ${summary(state)}
      <p class="error" role="alert">
        Esta loja ainda não oferece Pix nem boleto: o plugin Pix Checkout não está registrado. Veja
        apps/demo/README.md.
      </p>`;
  }
  const method = state.method ?? state.methods[0]!;
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
    <form
      novalidate
      @submit=${(event: Event) => {
        event.preventDefault();
        actions.pay(method);
      }}
    >
      ${
        method === "boleto"
          ? html`<p class="muted">
              O boleto leva o nome, o CPF ou CNPJ e o endereço de quem paga.
            </p>`
          : state.buyerDocument === "every_order"
            ? html`<p class="muted">A nota fiscal sai no CPF ou CNPJ informado.</p>`
            : nothing
      }
      ${
        method === "boleto" || state.buyerDocument === "every_order"
          ? payerFields(state, actions, ["document"])
          : nothing
      }
      ${method === "boleto" ? sameAddressChoice(state, actions) : nothing}
      <button type="submit" class="wide" ?disabled=${state.busy}>
        ${method === "boleto" ? "Gerar boleto e finalizar pedido" : "Pagar com Pix"}
      </button>
    </form>
    <button class="secondary wide" @click=${() => actions.go("address")}>Voltar à entrega</button>
    ${state.busy ? html`<p class="muted" role="status">Aguarde…</p>` : nothing}
  `;
}
