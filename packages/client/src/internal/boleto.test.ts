import { generateBoleto, isValidBoleto } from "@brazilian-utils/brazilian-utils";
import { describe, expect, it } from "vitest";
import { BOLETO_BARCODE, BOLETO_LINE } from "../test-support/fixtures.js";
import { boletoForms } from "./boleto.js";

describe("boleto forms", () => {
  it("derives the linha digitável from a 44-digit barcode", () => {
    expect(boletoForms(BOLETO_BARCODE)).toEqual({
      barcode: BOLETO_BARCODE,
      digitableLine: BOLETO_LINE,
    });
  });

  it("derives the barcode from a masked 47-digit line", () => {
    const masked = "00190.00009 01149.718601 68524.522114 6 75860000102656";
    expect(boletoForms(masked)).toEqual({ barcode: BOLETO_BARCODE, digitableLine: BOLETO_LINE });
  });

  it("round-trips every generated boleto", () => {
    for (let i = 0; i < 50; i++) {
      const line = generateBoleto();
      const forms = boletoForms(line);
      expect(forms?.digitableLine).toBe(line);
      expect(boletoForms(forms?.barcode ?? "")?.digitableLine).toBe(line);
      expect(isValidBoleto(line)).toBe(true);
    }
  });

  it("rejects a barcode whose check digit is wrong", () => {
    const broken = BOLETO_BARCODE.slice(0, 4) + "1" + BOLETO_BARCODE.slice(5);
    expect(boletoForms(broken)).toBeUndefined();
  });

  it("rejects text that is not a boleto number", () => {
    expect(boletoForms("not-a-boleto")).toBeUndefined();
  });
});
