/// <reference lib="dom" />
import { useTranslation } from "react-i18next";

/** Translates one of the plugin's keys (`balance.title`) with interpolation values. */
export type PixT = (key: string, values?: Record<string, unknown>) => string;

/**
 * The plugin's strings in the admin user's language (i18n/json/<lang>.json, under
 * `pixCheckout`), and a status word translated, or shown as the API's word when the
 * translations have none (a status the API adds later).
 */
export function usePixTranslation(): { t: PixT; statusLabel: (status: string) => string } {
  const { t } = useTranslation(undefined, { keyPrefix: "pixCheckout" });
  const translate: PixT = (key, values) => String(t(key, values ?? {}));
  return {
    t: translate,
    statusLabel: (status) => String(t(`status.${status}`, { defaultValue: status })),
  };
}
