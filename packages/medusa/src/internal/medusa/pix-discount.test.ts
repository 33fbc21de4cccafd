import { describe, expect, it } from "vitest";
import { currentAdjustments, pixDiscountCentsOfLines } from "./pix-discount";

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

  // What Query hands back for order #1 of issue 59 after one edit: version 1's R$ 4,00 and
  // version 2's R$ 4,00 on the same line, and a line the edit added without the discount.
  const editedOnce = [
    {
      detail: { version: 2 },
      adjustments: [
        { code: "DESCONTO-PIX", amount: 4, version: 1 },
        { code: "DESCONTO-PIX", amount: 4, version: 2 },
      ],
    },
    { detail: { version: 2 }, adjustments: [] },
  ];

  it("after an order edit, counts the current version's discount once, not each version's", () => {
    expect(pixDiscountCentsOfLines(editedOnce, 2)).toBe(400);
    expect(pixDiscountCentsOfLines(editedOnce)).toBe(400);
  });

  it("follows the discount an edit changed: the current version's amount, not the first", () => {
    const lines = [
      {
        detail: { version: 3 },
        adjustments: [
          { code: "DESCONTO-PIX", amount: 4, version: 1 },
          { code: "DESCONTO-PIX", amount: "3.33", version: 2 },
          { code: "DESCONTO-PIX", amount: "2.67", version: 3 },
          { code: "CUPOM10", amount: 10, version: 3 },
        ],
      },
      // A shipping method the edit did not touch still says its own (older) version.
      { detail: { version: 1 }, adjustments: [{ code: "DESCONTO-PIX", amount: 1, version: 1 }] },
    ];
    expect(pixDiscountCentsOfLines(lines, 3)).toBe(367);
  });

  it("takes the order's version for a line that does not say its own", () => {
    const lines = [
      {
        adjustments: [
          { code: "DESCONTO-PIX", amount: 4, version: 1 },
          { code: "DESCONTO-PIX", amount: 5, version: 2 },
        ],
      },
    ];
    expect(pixDiscountCentsOfLines(lines, 2)).toBe(500);
    expect(currentAdjustments(lines[0]!, 1).map((a) => a.amount)).toEqual([4]);
    // A cart's line has no versions: every adjustment on it is current.
    expect(currentAdjustments({ adjustments: [{ code: "DESCONTO-PIX", amount: 4 }] })).toHaveLength(
      1,
    );
  });
});
