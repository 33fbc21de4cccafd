import { describe, expect, it } from "vitest";
import { brazilianDay, centsFromReais, devolucaoLine, reais } from "./money";

describe("reais as the merchant types and reads them", () => {
  it.each([
    ["50", 5_000],
    ["50,5", 5_050],
    ["50,05", 5_005],
    ["1.234,56", 123_456],
    ["R$ 12,00", 1_200],
    [" 0,01 ", 1],
  ])("%s is %i cents", (typed, cents) => {
    expect(centsFromReais(typed)).toBe(cents);
  });

  it.each(["", "abc", "12.5", "1,234", "50,555", "1.23,00", "-5", "5e3"])(
    "%s is no amount: nothing is guessed",
    (typed) => {
      expect(centsFromReais(typed)).toBeNull();
    },
  );

  it("reads what it writes", () => {
    expect(centsFromReais(reais(123_456))).toBe(123_456);
  });

  it("says the devolução clock in days, and what to do once it has passed", () => {
    expect(brazilianDay("2027-02-28")).toBe("28/02/2027");
    expect(devolucaoLine({ deadline: "2027-02-28", daysLeft: 1 })).toBe(
      "devolução pelo Pix até 28/02/2027 (1 dia)",
    );
    expect(devolucaoLine({ deadline: "2027-02-28", daysLeft: -3 })).toMatch(/transferência/);
    expect(devolucaoLine(null)).toBe("");
  });
});
