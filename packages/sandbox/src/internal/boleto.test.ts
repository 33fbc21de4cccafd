import { isValidBoleto } from "@brazilian-utils/brazilian-utils";
import { describe, expect, it } from "vitest";
import { buildBoleto, digitableLineOf, dueDateFactor } from "./boleto.js";

function barcodeCheckDigit(barcode: string): string {
  const digits = barcode.slice(0, 4) + barcode.slice(5);
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i--) {
    sum += Number(digits[i]) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const dv = 11 - (sum % 11);
  return dv === 0 || dv === 10 || dv === 11 ? "1" : String(dv);
}

describe("boleto numbers", () => {
  const due = Date.UTC(2026, 10, 24, 12);
  const boleto = buildBoleto({ amountCents: 4_990, dueAtMs: due });

  it("builds a 44-digit barcode whose general check digit verifies", () => {
    expect(boleto.barcode).toMatch(/^\d{44}$/);
    expect(boleto.barcode[4]).toBe(barcodeCheckDigit(boleto.barcode));
  });

  it("derives a 47-digit digitable line that @brazilian-utils validates", () => {
    expect(boleto.digitableLine).toMatch(/^\d{47}$/);
    expect(isValidBoleto(boleto.digitableLine)).toBe(true);
  });

  it("fails validation once a digit of the line changes", () => {
    const line = boleto.digitableLine;
    const changed = line.slice(0, 12) + String((Number(line[12]) + 1) % 10) + line.slice(13);
    expect(isValidBoleto(changed)).toBe(false);
  });

  it("encodes currency 9 (real), the amount in cents and the due-date factor", () => {
    expect(boleto.barcode[3]).toBe("9");
    expect(boleto.barcode.slice(9, 19)).toBe("0000004990");
    expect(boleto.barcode.slice(5, 9)).toBe(dueDateFactor(due));
  });

  it("ends the digitable line with the factor and value of the barcode", () => {
    expect(boleto.digitableLine.slice(33)).toBe(boleto.barcode.slice(5, 19));
    expect(digitableLineOf(boleto.barcode)).toBe(boleto.digitableLine);
  });

  it("counts the due-date factor from 1997-10-07 and restarts at 1000 on 2025-02-22", () => {
    // Noon in São Paulo (15:00 UTC): the same calendar day in both.
    expect(dueDateFactor(Date.UTC(2000, 6, 3, 15))).toBe("1000");
    expect(dueDateFactor(Date.UTC(2025, 1, 21, 15))).toBe("9999");
    expect(dueDateFactor(Date.UTC(2025, 1, 22, 15))).toBe("1000");
    expect(dueDateFactor(Date.UTC(2025, 1, 23, 15))).toBe("1001");
  });

  it("takes the São Paulo calendar day, not the UTC one", () => {
    // 26/11/2026 22:04 in São Paulo is 27/11 01:04 UTC: the boleto is due on the 26th.
    const lateEvening = Date.parse("2026-11-27T01:04:00Z");
    expect(dueDateFactor(lateEvening)).toBe(dueDateFactor(Date.parse("2026-11-26T15:00:00Z")));
    expect(dueDateFactor(lateEvening)).not.toBe(dueDateFactor(Date.parse("2026-11-27T15:00:00Z")));
  });
});
