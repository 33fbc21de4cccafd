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

/** An instant as a short local date and time, or "—". */
export function formatInstant(value: string | null | undefined): string {
  if (!value) return "—";
  return new Date(value).toLocaleString();
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
