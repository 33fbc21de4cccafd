import { isCompiledTemplateResult, isTemplateResult } from "lit/directive-helpers.js";
import { describe, expect, it } from "vitest";
import { payLinkIntro } from "./pay-link-intro";

/** What the shopper reads of a template: its markup, values in place, without tags. */
function textOf(value: unknown): string {
  const markup = (v: unknown): string =>
    isTemplateResult(v) && !isCompiledTemplateResult(v)
      ? v.strings.reduce(
          (m, part, i) => m + part + (i < v.values.length ? markup(v.values[i]) : ""),
          "",
        )
      : String(v);
  return markup(value)
    .replace(/<[^>]*>/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

describe("the /pagar/ page's line before payment", () => {
  it("calls a cart's code the purchase's, never an order's that does not exist yet", () => {
    const text = textOf(payLinkIntro(null));
    expect(text).toBe(
      "Este é o código da sua compra. Se ele já foi pago ou expirou, esta página mostra isso.",
    );
    expect(text).not.toContain("pedido");
  });

  it("names the order once the store's answer says the code is an order's", () => {
    expect(textOf(payLinkIntro({ display_id: 12 }))).toBe(
      "Este é o código do seu pedido #12. Se ele já foi pago ou expirou, esta página mostra isso.",
    );
  });
});
