import { describe, expect, it } from "vitest";
import { centsOf, pixSavedOf, priceLines } from "./totals";

describe("centsOf", () => {
  it("rounds Medusa's fractions of a cent half-up from their decimal digits", () => {
    expect(centsOf(90.905)).toBe(9091);
    expect(centsOf(3.995)).toBe(400);
    expect(centsOf(79.9)).toBe(7990);
    expect(centsOf(0.1 + 0.2)).toBe(30);
    expect(centsOf(1_234_567.89)).toBe(123456789);
    expect(centsOf(null)).toBe(0);
  });
});

describe("priceLines", () => {
  const sum = (lines: ReturnType<typeof priceLines>) =>
    lines.filter((line) => line.kind !== "total").reduce((total, line) => total + line.cents, 0);

  it("lists the listed price, shipping and the Pix discount the charge took, adding up to the total", () => {
    // A R$ 79,90 shirt with R$ 15,00 PAC and 5 % off by Pix: Medusa's total is R$ 90,905.
    const lines = priceLines({ products: 79.9, shipping: 15, total: 90.905, pixSaved: 399 });
    expect(lines.map((line) => [line.label, line.cents])).toEqual([
      ["Produtos", 7990],
      ["Frete", 1500],
      ["Desconto no Pix", -399],
      ["Total", 9091],
    ]);
    expect(sum(lines)).toBe(9091);
  });

  it("shows a coupon beside the Pix discount, still adding up", () => {
    const lines = priceLines({ products: 100, shipping: 0, total: 85.5, pixSaved: 450 });
    expect(lines.find((line) => line.label === "Outros descontos")?.cents).toBe(-1000);
    expect(sum(lines)).toBe(8550);
  });
});

describe("pixSavedOf", () => {
  it("is the cents the shopper was told, not Medusa's rounded discount", () => {
    // The plugin makes the Pix discount whole cents; a store whose adjustment still carries a
    // fraction (R$ 3,995, a R$ 90,905 total, a R$ 90,91 code of a R$ 94,90 cart) shows the
    // R$ 3,99 the code actually saved, never a rounded R$ 4,00 that would not add up.
    const adjustments = [
      { code: "DESCONTO-PIX", amount: 3.995 },
      { code: "CUPOM10", amount: 10 },
    ];
    expect(pixSavedOf(90.905, adjustments, "DESCONTO-PIX")).toBe(399);
    expect(pixSavedOf(90.905, [], "DESCONTO-PIX")).toBe(0);
  });
});
