import { html, nothing } from "lit";
import { live } from "lit/directives/live.js";
import { formatMoney } from "../format";
import { shippingFields } from "../payer-fields";
import type { Actions, State } from "../state";
import { payerFields } from "./payer-form";

/** Contact and delivery address, then the shipping options for it. */
export function addressView(state: State, actions: Actions) {
  const chosen = state.cart?.shipping_methods?.[0]?.shipping_option_id;
  return html`
    <h2>Entrega</h2>
    <form
      novalidate
      @submit=${(event: Event) => {
        event.preventDefault();
        actions.submitAddress();
      }}
    >
      ${payerFields(state, actions, shippingFields)}
      <button type="submit" ?disabled=${state.busy}>Calcular frete</button>
    </form>
    ${
      state.shippingOptions.length > 0
        ? html`<fieldset class="options">
            <legend>Frete</legend>
            ${state.shippingOptions.map(
              (option) =>
                html`<label class="option">
                  <input
                    type="radio"
                    name="shipping"
                    value=${option.id}
                    .checked=${
                      // live: a tap the form refused (not filled yet) must not stay checked.
                      live(option.id === (state.choosing ?? chosen))
                    }
                    @change=${() => actions.chooseShipping(option.id)}
                  />
                  <span>${option.name}</span>
                  <span class="muted">${option.type?.description ?? ""}</span>
                  <strong>${formatMoney(option.amount)}</strong>
                </label>`,
            )}
          </fieldset>`
        : nothing
    }
    ${
      // Coming back with a shipping method chosen: a radio already checked fires no change.
      // The button checks and saves the form first, as a tap on an option does.
      chosen && state.shippingOptions.some((option) => option.id === chosen)
        ? html`<button
            class="wide"
            ?disabled=${state.busy}
            @click=${() => actions.continueToPayment()}
          >
            Continuar para o pagamento
          </button>`
        : nothing
    }
  `;
}
