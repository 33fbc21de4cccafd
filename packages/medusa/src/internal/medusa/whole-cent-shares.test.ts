import { describe, expect, it } from "vitest";
import { wholeCentShares } from "./whole-cent-shares";

describe("the Pix discount in whole cents", () => {
  it("rounds a one-line discount half up, as Medusa's order page would show it", () => {
    // 5 % of R$ 79,90 is R$ 3,995: the shopper, the order and the books all read R$ 4,00.
    expect(wholeCentShares(["3.995"])).toEqual([400]);
    expect(wholeCentShares(["3.9949"])).toEqual([399]);
    expect(wholeCentShares([5])).toEqual([500]);
  });

  it("spreads the rounded total by largest remainder, so the lines add up to it", () => {
    // 5 % of R$ 33,33 + R$ 19,99 + R$ 79,90: 1,6665 + 0,9995 + 3,995 = 6,661 → R$ 6,66.
    const shares = wholeCentShares(["1.6665", "0.9995", "3.995"]);
    expect(shares.reduce((sum, cents) => sum + cents, 0)).toBe(666);
    // Down to 166 + 99 + 399 = 664; the two cents left go to ,95 and ,65, not to ,5.
    expect(shares).toEqual([167, 100, 399]);
  });

  it("never moves a line by a cent or more, and gives ties to the earlier line", () => {
    // Three thirds of R$ 10,00 (a fixed discount across three equal lines).
    const third = "3.333333333333333333";
    expect(wholeCentShares([third, third, third])).toEqual([334, 333, 333]);
    const random = Array.from({ length: 200 }, (_, i) => ((i * 7919) % 10007) / 1000);
    const shares = wholeCentShares(random);
    shares.forEach((cents, i) => expect(Math.abs(cents - random[i]! * 100)).toBeLessThan(1));
  });

  it("leaves whole cents as they are", () => {
    expect(wholeCentShares(["4", "0.5", "12.34"])).toEqual([400, 50, 1234]);
    expect(wholeCentShares([])).toEqual([]);
  });
});
