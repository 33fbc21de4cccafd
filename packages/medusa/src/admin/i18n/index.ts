// Translations of the plugin's admin page and order widget. Medusa's dashboard merges them
// into its own react-i18next resources (default namespace) and follows the admin user's
// language; anything missing falls back to English.
import en from "./json/en.json";
import ptBR from "./json/ptBR.json";

export default {
  en: { translation: en },
  ptBR: { translation: ptBR },
};
