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

/**
 * The language of the plugin's views: the one the merchant chose in Medusa's profile, else the
 * browser's when the plugin speaks it (a Brazilian browser gets Portuguese although Medusa's
 * admin falls back to English), else the admin's own.
 *
 * Medusa's dashboard reads its language only from its `lng` cookie and local storage, and a
 * browser's first load, finding neither, writes its fallback `en` into both. So an admin in any
 * other language is in one the merchant chose, and an admin in `en` is only when the merchant
 * picked it in the profile (`picked`, recorded by `recordLanguagePicks`).
 */
export function pluginLanguage(
  adminLanguage: string | undefined,
  picked: string | null,
  browserLanguages: readonly string[],
): string | undefined {
  if (adminLanguage && (adminLanguage !== "en" || picked === adminLanguage)) return adminLanguage;
  const first = browserLanguages[0]?.toLowerCase() ?? "";
  if (first.startsWith("pt")) return "ptBR";
  if (first.startsWith("en")) return "en";
  return adminLanguage;
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

/**
 * An amount a merchant typed in reais ("55", "55,5", "1.234,56", "R$ 55.50") as integer cents,
 * by string arithmetic; null when it is not an amount.
 */
export function parseReais(text: string): number | null {
  let s = text.replace(/R\$|\s/g, "");
  if (s.includes(",")) s = s.replace(/\./g, "").replace(",", ".");
  else if (!/^\d+\.\d{1,2}$/.test(s)) s = s.replace(/\./g, "");
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(s);
  if (!match) return null;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  return Number.isSafeInteger(cents) && cents > 0 ? cents : null;
}

/**
 * Integer cents as a money field is prefilled, the amount without its symbol: 4990 → "49,90",
 * which `parseReais` reads back as 4990.
 */
export function reaisText(cents: number): string {
  return formatCents(cents).replace(/^R\$\s*/, "");
}

/** Codes paid of codes shown as a whole percent; null with nothing shown. */
export function conversion(paid: number, shown: number): number | null {
  if (shown <= 0) return null;
  return Math.round((Math.min(paid, shown) * 100) / shown);
}

/** A median time to pay, in whole minutes (at least 1); null with no payment. */
export function minutesToPay(seconds: number | null): number | null {
  if (seconds === null) return null;
  return Math.max(1, Math.round(seconds / 60));
}

/** Codes paid without a reminder: the paid ones less those paid after one ("recuperados"). */
export function paidWithoutReminder(paid: number, paidAfterReminder: number): number {
  return Math.max(0, paid - paidAfterReminder);
}

/** Codes paid after a reminder with what they brought in: `3 · R$ 150,00`. */
export function recoveredFigure(count: number, cents: number): string {
  return `${count} · ${formatCents(cents)}`;
}

/** A part of a charge's money as the admin names it (the ledger's parts, held split by whose). */
export type MoneyPart = "captured" | "contested" | "owed" | "held" | "capturing" | "returned";

/** The ledger's parts of one charge, in the order a merchant reads them. */
interface LedgerMoney {
  held: number;
  held_reason: string | null;
  captured: number;
  owed: number;
  returned: number;
  /** Blocked by an open MED (bloqueio cautelar); absent reads as none. */
  contested?: number;
}

/**
 * Each part of a charge's money that holds some, in the order a merchant reads them: what is
 * the order's, what goes back, what waits for them, what is on its way to the order, what went
 * back. Held money is the merchant's to decide (`held`) only when less than asked arrived;
 * otherwise Medusa's capture is taking it (`capturing`).
 */
export function moneyParts(money: LedgerMoney): { part: MoneyPart; cents: number }[] {
  const heldPart: MoneyPart = money.held_reason === "underpaid" ? "held" : "capturing";
  const parts: { part: MoneyPart; cents: number }[] = [
    { part: "captured", cents: money.captured },
    { part: "contested", cents: money.contested ?? 0 },
    { part: "owed", cents: money.owed },
    { part: heldPart, cents: money.held },
    { part: "returned", cents: money.returned },
  ];
  return parts.filter((p) => p.cents > 0);
}

/**
 * The one word a paid charge's row shows for its money: `paid` when all of it is the order's
 * (or on its way there), else what most needs the merchant: owed back, held for them, blocked by
 * a MED (contestada), returned.
 */
export function moneyStatus(
  money: LedgerMoney,
): "paid" | "owed" | "held" | "contested" | "returned" {
  if (money.owed > 0) return "owed";
  if (money.held > 0 && money.held_reason === "underpaid") return "held";
  if ((money.contested ?? 0) > 0) return "contested";
  if (money.captured === 0 && money.held === 0 && money.returned > 0) return "returned";
  return "paid";
}
