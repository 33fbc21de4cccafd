/**
 * Integer cents as text, done on the digits (no division, so no float ever touches money):
 * `1234567` → `12.345,67` for Brazil, `12,345.67` in English.
 */
export function centsToText(cents: number, locale: "pt-BR" | "en" = "pt-BR"): string {
  if (!Number.isSafeInteger(cents)) throw new TypeError(`${String(cents)} is not integer cents`);
  const [thousands, decimal] = locale === "pt-BR" ? [".", ","] : [",", "."];
  const digits = String(Math.abs(cents)).padStart(3, "0");
  const whole = digits.slice(0, -2).replace(/\B(?=(\d{3})+$)/g, thousands);
  return `${cents < 0 ? "-" : ""}${whole}${decimal}${digits.slice(-2)}`;
}

/** `R$ 12.345,67` (pt-BR) or `R$ 12,345.67` (en), for sentences. */
export function brl(cents: number, locale: "pt-BR" | "en" = "pt-BR"): string {
  const text = centsToText(cents, locale);
  return text.startsWith("-") ? `-R$ ${text.slice(1)}` : `R$ ${text}`;
}
