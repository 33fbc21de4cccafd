import { html, nothing } from "lit";
import { states, validateField, type PayerField } from "../payer-fields";
import type { Actions, PayerForm, State } from "../state";

const labels: Record<PayerField, string> = {
  email: "E-mail",
  firstName: "Nome",
  lastName: "Sobrenome",
  phone: "Telefone com DDD",
  document: "CPF ou CNPJ",
  postalCode: "CEP",
  street: "Rua",
  number: "Número",
  complement: "Complemento (opcional)",
  neighborhood: "Bairro",
  city: "Cidade",
  province: "Estado (UF)",
};

const inputAttributes: Partial<
  Record<PayerField, { type?: string; autocomplete: string; inputmode?: string }>
> = {
  email: { type: "email", autocomplete: "email" },
  firstName: { autocomplete: "given-name" },
  lastName: { autocomplete: "family-name" },
  phone: { type: "tel", autocomplete: "tel-national", inputmode: "tel" },
  document: { autocomplete: "off" },
  postalCode: { autocomplete: "postal-code", inputmode: "numeric" },
  street: { autocomplete: "address-line1" },
  number: { autocomplete: "off" },
  complement: { autocomplete: "address-line2" },
  neighborhood: { autocomplete: "address-level3" },
  city: { autocomplete: "address-level2" },
};

/**
 * One labelled field that validates as the shopper types: the message appears once the
 * field has been left, and then follows every keystroke.
 */
function field(state: State, actions: Actions, name: PayerField, form: PayerForm) {
  const id = `${form}-${name}`;
  const values = state[form];
  const touched = (form === "payer" ? state.touched : state.billingTouched).has(name);
  const error = touched ? validateField(name, values[name]) : null;
  const onInput = (event: Event) =>
    actions.edit(name, (event.currentTarget as HTMLInputElement | HTMLSelectElement).value, form);
  const onBlur = () => actions.leave(name, form);
  const described = error ? `${id}-error` : nothing;
  const control =
    name === "province"
      ? html`<select
          id=${id}
          name=${name}
          .value=${values.province}
          aria-invalid=${error ? "true" : "false"}
          aria-describedby=${described}
          @change=${onInput}
          @blur=${onBlur}
        >
          <option value="">Escolha…</option>
          ${states.map((s) => html`<option value=${s.code} ?selected=${s.code === values.province}>${s.code} · ${s.name}</option>`)}
        </select>`
      : html`<input
          id=${id}
          name=${name}
          .value=${values[name]}
          type=${inputAttributes[name]?.type ?? "text"}
          autocomplete=${inputAttributes[name]?.autocomplete ?? "on"}
          inputmode=${inputAttributes[name]?.inputmode ?? nothing}
          aria-invalid=${error ? "true" : "false"}
          aria-describedby=${described}
          @input=${onInput}
          @blur=${onBlur}
        />`;
  return html`<div class="field field-${name}">
    <label for=${id}>${labels[name]}</label>
    ${control}
    ${error ? html`<p class="error" id=${`${id}-error`} role="alert">${error}</p>` : nothing}
  </div>`;
}

/** The given fields of `form` (the delivery's by default) as a form grid. */
export function payerFields(
  state: State,
  actions: Actions,
  names: PayerField[],
  form: PayerForm = "payer",
) {
  return html`<div class="fields">${names.map((name) => field(state, actions, name, form))}</div>`;
}
