import type { PixData } from "../session.js";
import type { Backend } from "./backend.js";

const SVG = "http://www.w3.org/2000/svg";
const TAGS = new Set(["svg", "g", "path", "rect"]);
const ATTRIBUTES = new Set([
  "viewBox",
  "width",
  "height",
  "d",
  "x",
  "y",
  "fill",
  "stroke",
  "stroke-width",
  "fill-rule",
  "shape-rendering",
  "transform",
]);

/**
 * The QR of `pix` as an inline `<svg>` element: the backend's SVG (fetched with the key
 * header, like every other call), else one drawn from the copy-and-paste code by the lazily
 * loaded encoder. Inline markup needs no `blob:` or `data:` image source, so a store whose
 * Content-Security-Policy allows neither still shows the QR. This module is a chunk of its
 * own: a phone that never asks for the QR never downloads it.
 */
export async function qrElement(pix: PixData, backend: Backend | null): Promise<SVGSVGElement> {
  let svg: SVGSVGElement | null = null;
  if (pix.qr_image_url && backend) {
    try {
      const res = await backend.request(pix.qr_image_url, { signal: AbortSignal.timeout(10_000) });
      svg = cleanSvg(await res.text());
    } catch {
      // No usable image from the backend: draw the same code here rather than show no QR.
    }
  }
  svg ??= cleanSvg(await (await import("./qr-encoder.js")).qrSvg(pix.copy_paste));
  if (!svg) throw new Error("the QR encoder made no SVG");
  // The whole box, whatever size the image says (an attribute, not a rule of the first file).
  svg.setAttribute("width", "100%");
  svg.setAttribute("height", "100%");
  return svg;
}

/**
 * Rebuilds an SVG text from an allow-list of shapes and attributes: the backend's answer is
 * markup put into the store's page, and nothing in it may run, link or load anything.
 */
export function cleanSvg(text: string): SVGSVGElement | null {
  const root = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
  return root.localName === "svg" ? (copy(root) as SVGSVGElement | null) : null;
}

function copy(from: Element): Element | null {
  if (from.namespaceURI !== SVG || !TAGS.has(from.localName)) return null;
  const to = document.createElementNS(SVG, from.localName);
  for (const { name, value } of from.attributes) {
    if (ATTRIBUTES.has(name) && !/url|:/i.test(value)) to.setAttribute(name, value);
  }
  for (const child of from.children) {
    const kept = copy(child);
    if (kept) to.append(kept);
  }
  return to;
}
