import { describe, expect, it } from "vitest";
import { BigNumber } from "@medusajs/framework/utils";
import fc from "fast-check";
import { fromCents, sessionCentsOf, toCents, toSignedCents } from "./money";

describe("toCents", () => {
  it("converts reais to integer cents without float error", () => {
    expect(toCents(10.1)).toBe(1010);
    expect(toCents(0.29)).toBe(29);
    // 19.99 * 100 is 1998.9999999999998 in float arithmetic.
    expect(toCents(19.99)).toBe(1999);
  });

  it("accepts numeric strings, BigNumbers and Medusa raw amounts", () => {
    expect(toCents("149.90")).toBe(14990);
    expect(toCents(new BigNumber("12.34"))).toBe(1234);
    expect(toCents({ value: "5", precision: 20 })).toBe(500);
  });

  it("rounds a fraction of a cent half-up, as a percentage promotion leaves it", () => {
    expect(toCents("48.915")).toBe(4892);
    expect(toCents("48.9149")).toBe(4891);
    expect(toCents({ value: "33.925", precision: 20 })).toBe(3393);
    expect(toCents("10.005")).toBe(1001);
    expect(toCents("10.0049999")).toBe(1000);
  });

  it("rejects zero, negative, sub-half-cent and non-numeric amounts with code invalid_amount", () => {
    for (const bad of [0, -1, "0.004", "abc", Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => toCents(bad)).toThrow(expect.objectContaining({ code: "invalid_amount" }));
    }
  });

  it("round-trips every cent value through reais", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000_000 }), (cents) => {
        expect(toCents(fromCents(cents))).toBe(cents);
      }),
    );
  });
});

describe("fromCents", () => {
  it("turns cents into a BigNumber of reais", () => {
    expect(fromCents(1050).numeric).toBe(10.5);
    expect(fromCents(1).numeric).toBe(0.01);
  });
});

describe("sessionCentsOf: what a collection asks a session for", () => {
  it("reads the amount as Medusa hands it to a session, a JavaScript number, then its half-up cent", () => {
    // A tax-inclusive price with a promotion: the raw amount sits just under the half cent, and
    // the session Medusa makes of it asks 33.915.
    expect(sessionCentsOf("33.91499999999999999")).toBe(toCents("33.915"));
    expect(sessionCentsOf({ value: "87.405", precision: 20 } as never)).toBe(8741);
  });

  it("allows nothing and less (a collection a change left owing nothing), and refuses what is not a number", () => {
    expect(sessionCentsOf("0")).toBe(0);
    expect(toSignedCents("-12.345")).toBe(-1235);
    expect(sessionCentsOf("não")).toBeUndefined();
  });
});
