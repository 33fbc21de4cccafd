import { centsToText } from "./brl.js";
import { saoPauloDate } from "./sao-paulo-time.js";

// A CSV a Brazilian Excel opens as columns at a double-click: `;` between fields (the comma is
// the decimal separator there), decimal comma, UTF-8 with a BOM (without it Excel reads
// "Conciliação" as Windows-1252), CRLF line ends. Writing it is a dozen lines; a library would
// not make the quoting more right, and every rule here is tested.

/**
 * A cell: text, integer cents (written `12.345,67`), an instant (written `dd/mm/aaaa`, the
 * day in São Paulo), or empty.
 */
export type CsvCell = string | number | Date | null | undefined;

/** The byte-order mark Excel needs to read the file as UTF-8. */
export const BOM = "\uFEFF";

const NEEDS_QUOTES = /[;"\r\n]/;
// A text starting with one of these runs as a formula in Excel and LibreOffice ("CSV
// injection"): a customer named `=HYPERLINK(...)` must stay a name.
const FORMULA_START = /^[=+\-@\t\r]/;

/** One field, quoted when it holds `;`, `"` or a line break (a `"` doubled inside). */
export function csvField(cell: CsvCell): string {
  let text: string;
  if (cell === null || cell === undefined) text = "";
  else if (typeof cell === "number") text = centsToText(cell, "pt-BR");
  else if (cell instanceof Date) text = saoPauloDate(cell);
  else text = FORMULA_START.test(cell) ? `'${cell}` : cell;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The whole file: BOM, then one CRLF-ended line per row. */
export function toCsv(rows: readonly (readonly CsvCell[])[]): string {
  return BOM + rows.map((row) => row.map(csvField).join(";") + "\r\n").join("");
}
