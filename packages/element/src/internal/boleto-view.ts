import type { TemplateResult, html as litHtml, nothing as litNothing } from "lit";
import { boletoStrings } from "../localize/boleto.js";
import type { Lang } from "../localize/index.js";
import type { BoletoStrings } from "../localize/strings.js";
import type { BoletoData } from "../session.js";
import { itfPath } from "./itf.js";

/** What the boleto view draws, computed from the backend's boleto data. */
export interface BoletoModel {
  /** Due date in the shopper's language. */
  due: string;
  /** The ITF bars, or null when the barcode is not drawable. */
  bars: { d: string; width: number } | null;
  /** The digitable line as banks print it. */
  line: string;
  /** The digitable line's digits: what the copy button copies. */
  digits: string;
  /** The view's strings in the shopper's language. */
  t: BoletoStrings;
  /** The PDF link, only if it is http(s): a `javascript:` URL must never become a link. */
  href: string | null;
}

/**
 * What the element lends the boleto view. Lit comes in as arguments, never as an
 * import: an import would make esbuild move Lit into a chunk shared with the main file,
 * a second request before the first paint.
 */
export interface BoletoKit {
  html: typeof litHtml;
  nothing: typeof litNothing;
  /** The element's read-only field with its copy button (shared with the Pix view). */
  field(kind: "boleto", label: string, shown: string, copied: string, copyLabel: string): unknown;
}

/** The boleto view: the header's title and everything below the header. */
export interface BoletoView {
  title: string;
  body: TemplateResult;
}

/**
 * Renders the boleto view. It is a chunk of its own, loaded when a boleto session
 * arrives, so Pix checkouts never download its template, the ITF encoder or the boleto
 * strings.
 */
export function boletoView(
  boleto: BoletoData,
  lang: Lang,
  { html, nothing, field }: BoletoKit,
): BoletoView {
  const { due, bars, line, digits, t, href } = boletoModel(boleto, lang);
  return {
    title: t.title,
    body: html`<p part="due-date" class="muted">${t.dueDate(due)}</p>
      ${
        bars
          ? html`<div part="barcode" role="img" aria-label=${t.barcodeLabel}>
              <svg
                viewBox="0 0 ${bars.width} 1"
                preserveAspectRatio="none"
                width="100%"
                height="56"
                aria-hidden="true"
              >
                <rect width="100%" height="100%" fill="#fff"></rect>
                <path d=${bars.d}></path>
              </svg>
            </div>`
          : nothing
      }
      ${field("boleto", t.digitableLine, line, digits, t.copyLine)}
      <p class="steps">${t.steps}</p>
      ${
        href
          ? html`<div class="actions">
              <a
                part="button boleto-link"
                class="button"
                href=${href}
                target="_blank"
                rel="noopener"
              >
                ${t.openBoleto}
              </a>
            </div>`
          : nothing
      }`,
  };
}

/** What the boleto view draws, computed from the backend's boleto data. */
export function boletoModel(boleto: BoletoData, lang: Lang): BoletoModel {
  let bars: BoletoModel["bars"] = null;
  try {
    bars = itfPath(boleto.barcode.replace(/\D/g, ""));
  } catch {
    // Not a drawable barcode: the digitable line still pays it.
  }
  return {
    due: formatDay(boleto.due_date, lang),
    bars,
    line: formatDigitableLine(boleto.digitable_line),
    digits: boleto.digitable_line.replace(/\D/g, ""),
    t: boletoStrings[lang],
    href: /^https?:\/\//i.test(boleto.url) ? boleto.url : null,
  };
}

/** A `YYYY-MM-DD` due date in the shopper's language; the date is a calendar day, so UTC. */
export function formatDay(ymd: string, locale: string): string {
  const date = new Date(`${ymd.slice(0, 10)}T12:00:00Z`);
  if (Number.isNaN(date.getTime())) return ymd;
  return new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(date);
}

/**
 * Groups a boleto digitable line as banks print it: 47 digits (bank slips) as
 * `AAAAA.AAAAA BBBBB.BBBBBB CCCCC.CCCCCC D EEEEEEEEEEEEEE`, 48 digits (utility
 * slips) as four blocks of 11+1. Anything else is shown as given.
 */
export function formatDigitableLine(line: string): string {
  const d = line.replace(/\D/g, "");
  if (d.length === 47) {
    return `${d.slice(0, 5)}.${d.slice(5, 10)} ${d.slice(10, 15)}.${d.slice(15, 21)} ${d.slice(21, 26)}.${d.slice(26, 32)} ${d[32]} ${d.slice(33)}`;
  }
  if (d.length === 48)
    return (d.match(/\d{12}/g) ?? []).map((b) => `${b.slice(0, 11)}-${b[11]}`).join(" ");
  return line;
}
