/// <reference lib="dom" />
import { useTranslation } from "react-i18next";
import { PIX_CHECKOUT_NS } from "../i18n";
import { formatCents, formatInstant, localeOfAdminLanguage, pluginLanguage } from "./format";
import { pickedAdminLanguage } from "./language-choice";
import type { FlagReason } from "./types";

/** The language the plugin's views speak (see `pluginLanguage`). */
export function usePluginLanguage(adminLanguage: string | undefined): string | undefined {
  return pluginLanguage(
    adminLanguage,
    pickedAdminLanguage(),
    navigator.languages ?? [navigator.language],
  );
}

/** Translates one of the plugin's keys (`balance.title`) with interpolation values. */
export type PixT = (key: string, values?: Record<string, unknown>) => string;

/**
 * The plugin's strings in its views' language (i18n/json/<lang>.json, the plugin's own
 * namespace), and a status word translated, or shown as the API's word when the
 * translations have none (a status the API adds later), and instants written the way
 * that language writes dates.
 */
export function usePixTranslation(): {
  t: PixT;
  statusLabel: (status: string) => string;
  instant: (value: string | null | undefined) => string;
  flagReason: (flag: FlagReason | null) => string;
} {
  const { i18n: admin } = useTranslation();
  const language = usePluginLanguage(admin.resolvedLanguage ?? admin.language);
  const { t } = useTranslation(PIX_CHECKOUT_NS, { lng: language });
  const locale = localeOfAdminLanguage(language);
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
