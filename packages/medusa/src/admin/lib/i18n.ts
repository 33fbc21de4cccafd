/// <reference lib="dom" />
import { useTranslation } from "react-i18next";
import { formatCents, formatInstant, localeOfAdminLanguage } from "./format";
import type { FlagReason } from "./types";

/** Translates one of the plugin's keys (`balance.title`) with interpolation values. */
export type PixT = (key: string, values?: Record<string, unknown>) => string;

/**
 * The plugin's strings in the admin user's language (i18n/json/<lang>.json, under
 * `pixCheckout`), and a status word translated, or shown as the API's word when the
 * translations have none (a status the API adds later), and instants written the way
 * that language writes dates.
 */
export function usePixTranslation(): {
  t: PixT;
  statusLabel: (status: string) => string;
  instant: (value: string | null | undefined) => string;
  flagReason: (flag: FlagReason | null) => string;
} {
  const { t, i18n } = useTranslation(undefined, { keyPrefix: "pixCheckout" });
  const locale = localeOfAdminLanguage(i18n.resolvedLanguage ?? i18n.language);
  const translate: PixT = (key, values) => String(t(key, values ?? {}));
  return {
    t: translate,
    statusLabel: (status) => String(t(`status.${status}`, { defaultValue: status })),
    instant: (value) => formatInstant(value, locale),
    flagReason: (flag) => {
      if (!flag) return "";
      if (flag.code === "other") return flag.message;
      const values: Record<string, unknown> = { ...flag };
      if (flag.code === "amount_mismatch") {
        values.api = formatCents(flag.api_cents);
        values.recorded = formatCents(flag.recorded_cents);
      }
      if (flag.code === "refund_due") {
        values.amount = formatCents(flag.amount_cents);
        values.why = String(t(`refundReason.${flag.reason}`, { defaultValue: "" }));
      }
      if (flag.code === "paid_after_charge_closed") {
        values.status = String(t(`status.${flag.status}`, { defaultValue: flag.status }));
      }
      return String(t(`flag.${flag.code}`, { defaultValue: flag.code, ...values }));
    },
  };
}
