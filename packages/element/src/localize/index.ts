import { ptBR } from "./pt-br.js";
import type { Strings } from "./strings.js";

export type { Strings } from "./strings.js";

/** The languages the element speaks. */
export type Lang = "pt-BR" | "en" | "es";

// pt-BR ships in the main chunk; the other languages are small chunks loaded on first
// use, so the common (Brazilian) path does not pay for them.
const loaded: Partial<Record<Lang, Strings>> = { "pt-BR": ptBR };

/** Maps any BCP 47 tag to a supported language: `en-US` → `en`, `es-419` → `es`, else pt-BR. */
export function resolveLang(tag: string | null | undefined): Lang {
  const primary = (tag ?? "").toLowerCase().split("-")[0];
  return primary === "en" || primary === "es" ? primary : "pt-BR";
}

/** The strings of `lang`, or undefined until `loadStrings(lang)` has finished. */
export function stringsFor(lang: Lang): Strings | undefined {
  return loaded[lang];
}

/** Loads the strings of `lang` (once). */
export async function loadStrings(lang: Lang): Promise<Strings> {
  return (loaded[lang] ??=
    lang === "en"
      ? (await import("./en.js")).en
      : lang === "es"
        ? (await import("./es.js")).es
        : ptBR);
}
