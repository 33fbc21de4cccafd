// Translations of the plugin's admin page and order widget, in the plugin's own i18next
// namespace under Medusa's language codes. Medusa's dashboard (2.11.1 or newer) loads this
// file's default export as `{ [language]: { [namespace]: strings } }` and merges it into its
// react-i18next resources; the route's `translationNs` names the same namespace for the
// sidebar label. Anything missing falls back to English.
import { recordLanguagePicks } from "../lib/language-choice";
import en from "./json/en.json";
import ptBR from "./json/ptBR.json";

/**
 * The plugin's i18next namespace. The route config repeats it as a string literal, because
 * Medusa's build reads `translationNs` from the source without evaluating it.
 */
export const PIX_CHECKOUT_NS = "pix-checkout";

// The dashboard imports this file with its plugins, before its first render: from here the
// plugin sees every language the merchant picks in the profile, wherever in the admin.
if (typeof window !== "undefined") recordLanguagePicks();

export default {
  en: { [PIX_CHECKOUT_NS]: en },
  ptBR: { [PIX_CHECKOUT_NS]: ptBR },
};
