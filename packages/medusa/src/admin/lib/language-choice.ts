import type { i18n } from "i18next";
import { getI18n } from "react-i18next";

/** Where the plugin keeps the language the merchant last picked in Medusa's profile. */
export const PICKED_LANGUAGE_KEY = "pix-checkout.picked-language";

/** The part of Medusa's i18next instance the plugin listens to. */
type LanguageEvents = Pick<i18n, "isInitialized" | "on">;

/** The page's local storage, or none where there is no page (tests, server rendering). */
function pageStorage(): Storage | undefined {
  try {
    return typeof localStorage === "undefined" ? undefined : localStorage;
  } catch {
    return undefined; // storage blocked by the browser's settings
  }
}

/** The language the merchant last picked in Medusa's profile, as recorded here; else null. */
export function pickedAdminLanguage(storage: Pick<Storage, "getItem"> | undefined = pageStorage()) {
  try {
    return storage?.getItem(PICKED_LANGUAGE_KEY) ?? null;
  } catch {
    return null;
  }
}

/**
 * Records each language the merchant picks in Medusa's profile, for `pluginLanguage`.
 *
 * Medusa's dashboard caches its language in `lng` (cookie and local storage) both when the
 * profile's form calls `i18n.changeLanguage(code)` and when its first load, finding no `lng`,
 * falls back to `en`; the stored value cannot tell the two apart. The events can: the first load
 * changes the language while i18next initializes, a pick afterwards. So this waits until the
 * dashboard's instance (react-i18next's, the one the plugin's views translate with) is
 * initialized, then records every later change. It runs when Medusa loads the plugin's
 * translations, before any page of the plugin is open, so a pick on the profile page counts.
 */
export function recordLanguagePicks(
  dashboard: () => LanguageEvents | undefined = getI18n,
  storage: Pick<Storage, "setItem"> | undefined = pageStorage(),
  later: (next: () => void) => void = (next) => void setTimeout(next, 100),
  tries = 300,
): void {
  if (!storage) return;
  const instance = dashboard();
  if (instance?.isInitialized) {
    instance.on("languageChanged", (language: string) => {
      try {
        storage.setItem(PICKED_LANGUAGE_KEY, language);
      } catch {
        // A full or blocked storage: the plugin then follows the browser, as before a pick.
      }
    });
    return;
  }
  // The dashboard initializes i18next when it first renders, just after loading its plugins.
  if (tries > 0) later(() => recordLanguagePicks(dashboard, storage, later, tries - 1));
}
