import type { HttpTypes } from "@medusajs/types";
import { nothing } from "lit";
import { isCompiledTemplateResult, isTemplateResult } from "lit/directive-helpers.js";
import { describe, expect, it } from "vitest";
import type { EarlierPayment } from "../earlier-payment";
import { initialState, type Actions } from "../state";
import { confirmationView } from "./confirmation";

/** The markup a template would render, its values in place (event handlers left out). */
function markupOf(value: unknown): string {
  if (value === nothing || value == null || typeof value === "function") return "";
  if (Array.isArray(value)) return value.map(markupOf).join("");
  // The views' `html` templates; a compiled one (a build-time optimization) is never seen here.
  if (isTemplateResult(value) && !isCompiledTemplateResult(value)) {
    return value.strings.reduce(
      (markup, part, i) =>
        markup + part + (i < value.values.length ? markupOf(value.values[i]) : ""),
      "",
    );
  }
  return String(value);
}

/** What the shopper reads: the markup without its tags, spaces (and R$'s no-break space) as one. */
const textOf = (markup: string) =>
  markup
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim();

const order = {
  id: "order_01JX3Q8Z2K4T0M9V6R7W5Y1N2B",
  display_id: 42,
  items: [],
  item_subtotal: 52.9,
  shipping_subtotal: 0,
  total: 52.9,
} as unknown as HttpTypes.StoreOrder;

/** The confirmation of a paid order, with what the plugin said of an older code. */
function confirmation(earlier: EarlierPayment | null): string {
  const state = {
    ...initialState(),
    step: "confirmation" as const,
    order,
    orderEarlierPayment: earlier,
  };
  return markupOf(confirmationView(state, {} as Actions));
}

describe("the confirmation of a paid order", () => {
  it("says, under the paid message, that the money of an older code comes back", () => {
    const text = textOf(confirmation({ amount: 5290, order_paid: true }));
    const line =
      "Recebemos R$ 52,90 por um código anterior. Seu pedido já está pago; esse valor será devolvido.";
    expect(text).toContain(line);
    expect(text.indexOf("Seu pedido #42 está pago.")).toBeLessThan(text.indexOf(line));
  });

  it("says it as a calm status note, not as an error", () => {
    const markup = confirmation({ amount: 5290, order_paid: true });
    expect(markup).toMatch(/<p class="notice" role="status">\s*Recebemos/);
    expect(markup).not.toContain('role="alert"');
  });

  it("leaves out the element's 'pay this code' for an order not paid yet", () => {
    const text = textOf(confirmation({ amount: 3500, order_paid: false }));
    expect(text).toContain("Recebemos R$ 35,00 por um código anterior; esse valor será devolvido.");
    expect(text).not.toContain("pague este código");
  });

  it("says nothing of an older code when the store has nothing to say", () => {
    const markup = confirmation(null);
    expect(textOf(markup)).not.toContain("código anterior");
    expect(markup).not.toContain('class="notice"');
  });
});
