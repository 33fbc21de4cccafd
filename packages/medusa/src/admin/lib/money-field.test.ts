// The drawers' amount field, rendered with React's server renderer: its label names the input,
// the input asks a phone for a decimal keypad, and what is wrong with the amount shows under it
// and marks it invalid.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { MoneyField } from "./money-field";

const field = (error: string | null) =>
  renderToStaticMarkup(
    createElement(MoneyField, {
      id: "pix-refund-amount",
      label: "Valor devolvido (R$)",
      value: "25,00",
      onChange: () => {},
      error,
    }),
  );

describe("MoneyField", () => {
  it("labels the amount as typed, for a decimal keypad", () => {
    const html = field(null);
    expect(html).toContain('for="pix-refund-amount"');
    expect(html).toContain("Valor devolvido (R$)");
    expect(html).toMatch(/<input[^>]*id="pix-refund-amount"/);
    expect(html).toMatch(/<input[^>]*inputMode="decimal"/i);
    expect(html).toMatch(/<input[^>]*value="25,00"/);
    expect(html).toMatch(/<input[^>]*aria-invalid="false"/);
  });

  it("shows what is wrong under the amount and marks it invalid", () => {
    const html = field("Escreva o valor em reais, ex.: 55,00");
    expect(html).toMatch(/<input[^>]*aria-invalid="true"/);
    expect(html).toContain("Escreva o valor em reais, ex.: 55,00");
    expect(html).toContain("text-ui-fg-error");
    expect(field(null)).not.toContain("text-ui-fg-error");
  });
});
