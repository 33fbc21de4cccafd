// What every admin screen of the plugin must pass in a real browser, shared by the screenshot
// script and the end-to-end test: no sideways scroll at the admin widths a merchant uses, and
// none of the plugin's own English sentences on a Portuguese screen.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const i18n = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../src/admin/i18n/json");

/** The widths a merchant's admin is judged at. */
export const ADMIN_WIDTHS = [1280, 1024];

/**
 * The plugin's English sentences that its Portuguese says otherwise: none may be on screen.
 * @returns {string[]}
 */
export function englishOnly() {
  /** @param {string} language */
  const words = (language) => JSON.parse(readFileSync(path.join(i18n, `${language}.json`), "utf8"));
  /** @type {(tree: Record<string, unknown>, prefix?: string) => [string, string][]} */
  const flat = (tree, prefix = "") =>
    Object.entries(tree).flatMap(([key, value]) =>
      typeof value === "string"
        ? [/** @type {[string, string]} */ ([`${prefix}${key}`, value])]
        : flat(/** @type {Record<string, unknown>} */ (value), `${prefix}${key}.`),
    );
  const pt = new Map(flat(words("ptBR")));
  return flat(words("en"))
    .filter(([key, text]) => pt.get(key) !== text && /[a-z]{4} [a-z]{3}/i.test(text))
    .map(([, text]) => text.split("{{")[0].trim())
    .filter((text) => text.length >= 8);
}

/**
 * In the page: every box that scrolls sideways (its content wider than itself, and it lets it
 * scroll), and every plugin view whose right edge is past the window, described in one line.
 */
/* global document, getComputedStyle -- SIDEWAYS runs in the page, through page.evaluate */
/** @param {number} width */
function SIDEWAYS(width) {
  /** @type {string[]} */
  const found = [];
  /** @param {HTMLElement} el */
  const name = (el) =>
    el.tagName.toLowerCase() +
    (el.dataset.pixCheckout ? `[data-pix-checkout=${el.dataset.pixCheckout}]` : "") +
    (typeof el.className === "string" && el.className
      ? `.${el.className.trim().split(/\s+/).slice(0, 2).join(".")}`
      : "");
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("body *"))) {
    const overflow = getComputedStyle(el).overflowX;
    if ((overflow === "auto" || overflow === "scroll") && el.scrollWidth > el.clientWidth + 1) {
      found.push(`${name(el)} scrolls sideways (${el.scrollWidth} px in ${el.clientWidth})`);
    }
  }
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (
    document.querySelectorAll("[data-pix-checkout]")
  )) {
    const right = Math.round(el.getBoundingClientRect().right);
    if (right > width) found.push(`${name(el)} ends at ${right} px, past the window`);
  }
  return found;
}

/**
 * Why `page` fails: it scrolls sideways at a width of {@link ADMIN_WIDTHS}, or a plugin view
 * (`[data-pix-checkout]`) holds one of `english`. An empty list when it passes. Leaves the page
 * at the last width.
 * @param {import("playwright-core").Page} page
 * @param {string} where
 * @param {string[]} english
 * @returns {Promise<string[]>}
 */
export async function layoutProblems(page, where, english) {
  const problems = [];
  for (const width of ADMIN_WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(300);
    const wide = /** @type {number} */ (
      await page.evaluate("document.documentElement.scrollWidth")
    );
    if (wide > width) problems.push(`${where} scrolls sideways at ${width} px (${wide} px wide)`);
    // The page may not scroll while a box inside it does (Medusa's main area, a table's
    // wrapper): any box that scrolls sideways, or a plugin view reaching past the window,
    // is a table the merchant cannot read whole.
    const inner = /** @type {string[]} */ (await page.evaluate(SIDEWAYS, width));
    for (const box of inner) problems.push(`${where} at ${width} px: ${box}`);
  }
  const text = (await page.locator("[data-pix-checkout]").allInnerTexts()).join("\n");
  const found = english.filter((sentence) => text.includes(sentence));
  if (found.length > 0) problems.push(`${where} shows English: ${found.join(" | ")}`);
  return problems;
}
