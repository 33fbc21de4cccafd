const money = new Map<string, Intl.NumberFormat>();

/** Integer cents as money, e.g. 4990 → "R$ 49,90". Dividing by 100 happens here only. */
export function formatCents(cents: number | null | undefined, currency = "BRL"): string {
  if (cents === null || cents === undefined) return "—";
  let format = money.get(currency);
  if (!format) {
    format = new Intl.NumberFormat("pt-BR", { style: "currency", currency });
    money.set(currency, format);
  }
  return format.format(cents / 100);
}

/**
 * An instant as a short date and time in the given locale (22/11/2026 20:51 in pt-BR),
 * or "—".
 */
export function formatInstant(value: string | null | undefined, locale?: string): string {
  if (!value) return "—";
  return new Date(value).toLocaleString(locale, { dateStyle: "short", timeStyle: "short" });
}

/** Medusa's admin names languages `ptBR`, `en`; Intl wants BCP 47 tags (`pt-BR`). */
export function localeOfAdminLanguage(language: string | undefined): string | undefined {
  if (!language) return undefined;
  return language.replace(/^([a-z]{2})([A-Z]{2})$/, "$1-$2");
}

/** The badge color of a charge or transaction status. */
export function statusColor(status: string): "green" | "orange" | "red" | "grey" | "blue" {
  switch (status) {
    case "paid":
    case "completed":
    case "processed":
      return "green";
    case "pending":
    case "processing":
    case "received":
      return "orange";
    case "failed":
    case "forged":
    case "error":
      return "red";
    case "duplicate":
    case "recorded":
      return "blue";
    default:
      return "grey";
  }
}
