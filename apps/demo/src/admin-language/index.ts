// Medusa's admin picks its language from a `lng` cookie or local storage and otherwise falls
// back to English, which it then stores: a Brazilian merchant's first visit would settle on
// English before any choice. This Vite plugin (medusa-config.ts, `admin.vite`) puts a small
// script at the top of the admin's page that, on a first visit (no `lng` stored yet), stores
// the dashboard's Portuguese (`ptBR`) when the browser's first language is Portuguese. A
// language picked later under Perfil → Idioma is stored and kept, as Medusa keeps it.

/**
 * The part of a Vite plugin this one is (Vite's own types are ESM-only, and this app compiles
 * as CommonJS).
 */
export interface IndexHtmlPlugin {
  name: string;
  transformIndexHtml: () => { tag: "script"; children: string; injectTo: "head-prepend" }[];
}

/** The dashboard's code for its Brazilian Portuguese translation. */
export const DASHBOARD_PORTUGUESE = "ptBR";

/**
 * What the page runs before the dashboard's scripts: the browser's first language, when it
 * is Portuguese and nothing is stored yet, becomes the stored one.
 */
export const firstVisitLanguageScript = `(function () {
  try {
    if (localStorage.getItem("lng") || /(?:^|;\\s*)lng=/.test(document.cookie)) return;
    var first = (navigator.languages && navigator.languages[0]) || navigator.language || "";
    if (/^pt(?:-|$)/i.test(first)) localStorage.setItem("lng", "${DASHBOARD_PORTUGUESE}");
  } catch (error) {
    /* no storage (a private window that refuses it): the dashboard's own choice stands */
  }
})();`;

/**
 * The admin's page opens in Portuguese for a browser whose first language is Portuguese.
 * @returns A Vite plugin for Medusa's `admin.vite`.
 */
export function adminLanguageFromBrowser(): IndexHtmlPlugin {
  return {
    name: "pix-demo-admin-language",
    transformIndexHtml: () => [
      { tag: "script", children: firstVisitLanguageScript, injectTo: "head-prepend" },
    ],
  };
}
