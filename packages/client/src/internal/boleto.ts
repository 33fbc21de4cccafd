import { isValidBoleto } from "@brazilian-utils/brazilian-utils";

// Field layout of Carta-Circular BCB 2.926/2000 (cobrança bancária). The library validates and
// formats both forms but converts neither way, so the rearrangement lives here and the library
// checks the result.
const LINE_TO_BARCODE: ReadonlyArray<readonly [number, number]> = [
  [0, 4],
  [32, 47],
  [4, 9],
  [10, 20],
  [21, 31],
];

/** Módulo 10 check digit of a linha digitável field (weights 2,1 from the right). */
function mod10(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    const product = (digits.charCodeAt(digits.length - 1 - i) - 48) * (i % 2 === 0 ? 2 : 1);
    sum += product > 9 ? product - 9 : product;
  }
  const rest = sum % 10;
  return rest === 0 ? 0 : 10 - rest;
}

/** The 47-digit linha digitável of a 44-digit cobrança bancária barcode. */
export function barcodeToDigitableLine(barcode: string): string {
  const field1 = barcode.slice(0, 4) + barcode.slice(19, 24);
  const field2 = barcode.slice(24, 34);
  const field3 = barcode.slice(34, 44);
  return (
    field1 +
    mod10(field1) +
    field2 +
    mod10(field2) +
    field3 +
    mod10(field3) +
    barcode.slice(4, 5) +
    barcode.slice(5, 19)
  );
}

/** The 44-digit barcode of a 47-digit linha digitável. */
export function digitableLineToBarcode(line: string): string {
  return LINE_TO_BARCODE.map(([from, to]) => line.slice(from, to)).join("");
}

/**
 * Both forms of a cobrança bancária boleto from whichever the service sent (44-digit barcode
 * or 47-digit line, masked or not). `undefined` when it is not a valid one. Arrecadação slips
 * (48-digit lines for taxes and utilities) are not used for charges and are not accepted.
 */
export function boletoForms(value: string): { barcode: string; digitableLine: string } | undefined {
  // Masks use spaces, dots and dashes; anything else means this is not a boleto number.
  const digits = value.replace(/[\s.-]/g, "");
  if (!/^\d+$/.test(digits)) return undefined;
  if (digits.length === 44) {
    const barcode = digits;
    const digitableLine = barcodeToDigitableLine(barcode);
    // isValidBoleto checks the three field digits and the barcode's own módulo 11 digit.
    return isValidBoleto(digitableLine) ? { barcode, digitableLine } : undefined;
  }
  if (digits.length === 47 && isValidBoleto(digits)) {
    return { barcode: digitableLineToBarcode(digits), digitableLine: digits };
  }
  return undefined;
}
