import { expect } from "@esm-bundle/chai";
import { formatDigitableLine } from "./boleto-view.js";
import { ITF_QUIET, itfPath, itfWidths } from "./itf.js";

describe("ITF encoder", () => {
  it("encodes the pair 12 as start, 1 in bars interleaved with 2 in spaces, stop", () => {
    // 1 = wnnnw (bars), 2 = nwnnw (spaces); start nnnn, stop wnn; wide = 3 modules.
    expect(itfWidths("12")).to.deep.equal([1, 1, 1, 1, 3, 1, 1, 3, 1, 1, 1, 1, 3, 3, 3, 1, 1]);
  });

  it("gives every digit exactly two wide elements out of five", () => {
    const widths = itfWidths("0123456789").slice(4, -3);
    for (let pair = 0; pair < 5; pair++) {
      const chunk = widths.slice(pair * 10, pair * 10 + 10);
      expect(chunk.filter((_, i) => i % 2 === 0).filter((w) => w === 3)).to.have.lengthOf(2);
      expect(chunk.filter((_, i) => i % 2 === 1).filter((w) => w === 3)).to.have.lengthOf(2);
    }
  });

  it("draws a 44-digit boleto barcode 405 modules wide plus two quiet zones", () => {
    const { d, width } = itfPath("00193373700000001000500940144816060680935031");
    expect(width).to.equal(405 + 2 * ITF_QUIET);
    expect(d.match(/M/g)).to.have.lengthOf(22 * 5 + 2 + 2);
  });

  it("refuses an odd number of digits, which ITF cannot encode", () => {
    expect(() => itfWidths("123")).to.throw(RangeError);
  });
});

describe("formatDigitableLine", () => {
  it("groups a 47-digit bank-slip line as banks print it", () => {
    expect(formatDigitableLine("00190500954014481606906809350314337370000000100")).to.equal(
      "00190.50095 40144.816069 06809.350314 3 37370000000100",
    );
  });

  it("groups a 48-digit utility-slip line in four blocks of 11 digits and a check digit", () => {
    expect(formatDigitableLine("836200000005667800481000180975657313001589636081")).to.equal(
      "83620000000-5 66780048100-0 18097565731-3 00158963608-1",
    );
  });

  it("ignores the formatting characters it is given", () => {
    expect(formatDigitableLine("00190.50095 40144.816069 06809.350314 3 37370000000100")).to.equal(
      "00190.50095 40144.816069 06809.350314 3 37370000000100",
    );
  });

  it("shows anything else unchanged", () => {
    expect(formatDigitableLine("123")).to.equal("123");
  });
});
