import { describe, expect, it } from "vitest";
import { centsToMedusaAmount } from "./money";

describe("centsToMedusaAmount", () => {
  it("turns cents into the reais Medusa's workflows take", () => {
    expect(centsToMedusaAmount(3990)).toBe(39.9);
    expect(centsToMedusaAmount(18900)).toBe(189);
  });

  it("keeps amounts below one real", () => {
    expect(centsToMedusaAmount(5)).toBe(0.05);
    expect(centsToMedusaAmount(0)).toBe(0);
  });

  it("refuses fractional or negative cents", () => {
    expect(() => centsToMedusaAmount(10.5)).toThrow(RangeError);
    expect(() => centsToMedusaAmount(-1)).toThrow(RangeError);
  });
});
