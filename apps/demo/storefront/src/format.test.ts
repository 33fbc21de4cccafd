import { describe, expect, it } from "vitest";
import { pixDiscountLabel } from "./format";

describe("the Pix discount beside the method", () => {
  it("says the percentage, or the amount of a fixed discount, in pt-BR", () => {
    expect(pixDiscountLabel({ enabled: true, type: "percentage", value: 5, saved: 0 })).toBe(
      "5 % de desconto no Pix",
    );
    expect(pixDiscountLabel({ enabled: true, type: "fixed", value: 1000, saved: 0 })).toBe(
      "R$\u00a010,00 de desconto no Pix",
    );
  });

  it("says nothing while the store gives no discount", () => {
    expect(pixDiscountLabel(null)).toBeNull();
    expect(pixDiscountLabel({ enabled: false, type: "percentage", value: 5, saved: 0 })).toBeNull();
  });
});
