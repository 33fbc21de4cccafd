import { html, nothing } from "lit";
import type { HttpTypes } from "@medusajs/types";
import { formatMoney } from "../format";
import type { Actions, State } from "../state";

function productCard(product: HttpTypes.StoreProduct, actions: Actions) {
  const variants = product.variants ?? [];
  const first = variants[0];
  if (!first) return nothing;
  const selectId = `variant-${product.id}`;
  const chosen = (event: Event) =>
    (event.currentTarget as HTMLElement).closest("article")?.querySelector("select")?.value ??
    first.id;
  return html`
    <article class="product" data-handle=${product.handle ?? ""}>
      <img src=${product.thumbnail ?? ""} alt="" width="200" height="200" />
      <h3>${product.title}</h3>
      <p class="muted">${product.description}</p>
      <p class="price">${formatMoney(first.calculated_price?.calculated_amount)}</p>
      ${
        variants.length > 1
          ? html`<label for=${selectId}>${product.options?.[0]?.title ?? "Opção"}</label>
              <select id=${selectId}>
                ${variants.map((variant) => html`<option value=${variant.id}>${variant.title}</option>`)}
              </select>`
          : nothing
      }
      <button @click=${(event: Event) => actions.add(chosen(event))}>Adicionar ao carrinho</button>
    </article>
  `;
}

/** The catalog. */
export function productsView(state: State, actions: Actions) {
  return html`
    <h2>Produtos</h2>
    <div class="grid">${state.products.map((product) => productCard(product, actions))}</div>
  `;
}
