import { describe, expect, it } from "vitest";
import { pixDiscountCentsOfLines } from "./pix-discount";

describe("the Pix discount an order records, as the books read it", () => {
  it("sums only the Pix discount's adjustments, on items and shipping, in cents", () => {
    const lines = [
      {
        adjustments: [
          { code: "DESCONTO-PIX", amount: 2.5 },
          { code: "CUPOM10", amount: 7.99 },
        ],
      },
      { adjustments: [{ code: "DESCONTO-PIX", amount: "1.5" }] },
      { adjustments: null },
    ];
    expect(pixDiscountCentsOfLines(lines)).toBe(400);
    expect(pixDiscountCentsOfLines([{ adjustments: [{ code: "CUPOM10", amount: 3 }] }])).toBe(0);
    expect(pixDiscountCentsOfLines([])).toBe(0);
  });
});
