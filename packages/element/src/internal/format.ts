/**
 * Formats integer cents as money without float arithmetic: the amount goes to
 * Intl as an exact decimal string ("1234.50"), which it accepts since ES2023.
 */
export function formatMoney(cents: number, currency: string, locale: string): string {
  const abs = Math.abs(cents);
  const decimal = `${cents < 0 ? "-" : ""}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
  return new Intl.NumberFormat(locale, { style: "currency", currency }).format(
    decimal as unknown as number,
  );
}

/** Remaining time as `m:ss`, or `h:mm:ss` past an hour. */
export function formatRemaining(ms: number): string {
  const total = Math.ceil(Math.max(0, ms) / 1000);
  const pad = (n: number) => String(n).padStart(2, "0");
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  return h ? `${h}:${pad(m)}:${pad(total % 60)}` : `${m}:${pad(total % 60)}`;
}
