/**
 * `@pix-checkout/client/books`: money and days as a Brazilian's books read them, for every
 * platform's plugin (Medusa's reports and reminders, Vendure's books): integer cents as reais
 * text, São Paulo's calendar days, the CSV a Brazilian Excel opens as columns, and the 90-day
 * clock of a Pix devolução. No I/O and
 * no platform: one place for both plugins.
 */
export { brl, centsToText } from "./books/brl.js";
export * from "./books/sao-paulo-time.js";
export { BOM, csvField, toCsv, type CsvCell } from "./books/csv.js";
export * from "./books/refund-deadline.js";
