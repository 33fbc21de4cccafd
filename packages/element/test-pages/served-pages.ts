// The accessibility suite of the pages the Medusa plugin serves (payment link, a reminder's
// new-code and opt-out links), in every state, run by @web/test-runner in Chromium, Firefox
// and WebKit like the element's own tests. Each page comes from the plugin's real render
// functions (packages/medusa/integration-tests/pages/served-pages.ts, served by
// test-support/served-pages.mjs at the plugin's own paths); the demo storefront's `/pagar/`
// page comes from the storefront's own code (test-support/pay-link-page.mjs). Each opens in a
// frame as wide as a 390 px phone or a 1280 px desktop, so its CSS lays it out for that width.
// Then:
// - axe-core with the WCAG 2.2 AA rules (wcag2a, wcag2aa, wcag21a, wcag21aa, wcag22aa) and
//   axe's best practices (landmarks, one h1), inside the frame and the element's shadow DOM;
// - the keyboard alone: Tab from before the page to after it reaches every control the page
//   shows, the element's included, in reading order, each with a visible focus indicator and
//   not hidden by anything else on the page (WCAG 2.4.7, 2.4.11);
// - every control's box at least 24 × 24 CSS px (WCAG 2.5.8), by getBoundingClientRect.
import { expect } from "@esm-bundle/chai";
import type { AxeResults } from "axe-core";
import type { CheckoutSession } from "../src/session.js";
import {
  boletoSession,
  eventually,
  newId,
  pixSession,
  press,
  putSession,
  realClick,
} from "../test-support/control.js";

/**
 * One page and state (packages/medusa/integration-tests/pages/served-pages.ts,
 * test-support/pay-link-page.mjs).
 */
export interface ServedPageCase {
  /** Where the page is; `{session}` in it is the session's id, else it goes in `?session=`. */
  path: string;
  title: string;
  session?: {
    method: "pix" | "boleto";
    status: "pending" | "paid" | "expired" | "canceled" | "superseded";
    /** The order the store's answer names (`payment: "paid"` once Medusa's order is paid). */
    order?: { display_id: number; payment?: "paid" | "awaiting" };
    /** Expired, with where a new code comes from: "Gerar novo código". */
    renewable?: boolean;
    /** Superseded by the cart's current session: "Ver o código atual". */
    replaced?: boolean;
    /** The store cannot answer: no such session (404), or unavailable (503 every time). */
    store?: "missing" | "down";
  };
  /** Words the page shows once it knows the session, beside the element. */
  shows?: string;
  /** The page without the element's package (the demo's banner saying to build it). */
  element?: "missing";
  press?: string;
}

/** The rules the README promises for the pages. */
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

const CONTROLS =
  'a[href], button, input:not([type="hidden"]), select, textarea, summary, [tabindex]:not([tabindex="-1"])';

interface OpenPage {
  frame: HTMLIFrameElement;
  doc: Document;
  win: Window & { axe?: { run(context: Document, options: unknown): Promise<AxeResults> } };
}

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve));

/** Everything the suite put on the test page, removed after each test. */
const added: Element[] = [];

/** A button outside the page, where keyboard navigation starts or ends. */
function outsideButton(label: string) {
  const button = document.createElement("button");
  button.textContent = label;
  document.body.append(button);
  added.push(button);
  return button;
}

/** Opens `page` in a frame `width` × `height` CSS px, with its element's session ready. */
async function openPage(page: ServedPageCase, width: number, height: number): Promise<OpenPage> {
  let url = page.path;
  if (page.session) {
    const { method, status, order, renewable, replaced, store } = page.session;
    // As the plugin names them: the storefront's `/pagar/` route takes no other id.
    const id = `payses_${newId("page").replace(/[^A-Za-z0-9]/g, "")}`;
    const extra: Partial<CheckoutSession> = { status };
    if (status === "paid") extra.paid_at = new Date().toISOString();
    if (order) extra.order = order;
    if (renewable) extra.renew = { payment_collection_id: `paycol_${id}`, provider_id: "pp_pix" };
    if (replaced) extra.replaced_by = `${id}next`;
    const session = method === "boleto" ? boletoSession(id, extra) : pixSession(id, extra);
    // No event stream through the test server: the element reads the status route instead.
    if (store !== "missing") {
      await putSession(session, {
        stream: "missing",
        ...(store === "down" ? { fail: { count: 1_000, mode: "http" as const } } : {}),
      });
    }
    url = url.includes("{session}")
      ? url.replace("{session}", encodeURIComponent(id))
      : `${url}?session=${encodeURIComponent(id)}`;
  }
  outsideButton("antes da página");
  const frame = document.createElement("iframe");
  frame.title = page.title;
  frame.style.cssText = `display:block;border:0;width:${width}px;height:${height}px`;
  const loaded = new Promise((resolve) => frame.addEventListener("load", resolve, { once: true }));
  frame.src = url;
  document.body.append(frame);
  added.push(frame);
  outsideButton("depois da página");
  await loaded;
  const doc = frame.contentDocument as Document;
  const win = frame.contentWindow as OpenPage["win"];
  if (page.session) {
    const expected =
      page.element === "missing" ? undefined : page.session.store ? "error" : page.session.status;
    await eventually(
      () => {
        const el = doc.querySelector("pix-checkout") as (HTMLElement & { view?: string }) | null;
        // Without its package, the element stays an unknown tag with no view.
        expect(el?.view).to.equal(expected);
        if (page.session?.method === "boleto" && !page.session.store) {
          expect(el?.shadowRoot?.querySelector("[part=barcode]")).to.not.equal(null);
        }
        if (page.shows) expect(doc.body.textContent?.replace(/\s+/g, " ")).to.include(page.shows);
      },
      { timeout: 10_000 },
    );
  }
  if (page.press) {
    (doc.getElementById(page.press) as HTMLElement).click();
  }
  await doc.fonts?.ready;
  await nextFrame();
  await nextFrame();
  const axeLoaded = new Promise((resolve, reject) => {
    const script = doc.createElement("script");
    script.src = "/__axe.js";
    script.onload = resolve;
    script.onerror = reject;
    doc.head.append(script);
  });
  await axeLoaded;
  return { frame, doc, win };
}

/** axe's violations on the page, one line each with the nodes' selectors and its help text. */
async function violations({ doc, win }: OpenPage) {
  const result = await win.axe!.run(doc, { runOnly: { type: "tag", values: AXE_TAGS } });
  // The frame's own document was checked, not an empty one: its language and title rules ran.
  const passed = result.passes.map((rule) => rule.id);
  expect(passed).to.include.members(["html-has-lang", "html-lang-valid", "document-title"]);
  return result.violations.map(
    (v) => `${v.id} (${v.help}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
  );
}

const isShown = (el: Element) =>
  el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";

/** The page's controls a shopper can reach, in reading order, through shadow roots. */
function controlsOf(root: Document | ShadowRoot | Element): HTMLElement[] {
  const found: HTMLElement[] = [];
  for (const child of Array.from(root.children)) {
    const el = child as HTMLElement;
    if (el.matches(CONTROLS) && !(el as HTMLButtonElement).disabled && isShown(el)) found.push(el);
    if (el.shadowRoot) found.push(...controlsOf(el.shadowRoot));
    found.push(...controlsOf(el));
  }
  return found;
}

/** The focused element, through the frame and any shadow roots. */
function focused(): Element | null {
  let active: Element | null = document.activeElement;
  for (;;) {
    if (active instanceof HTMLIFrameElement) {
      active = active.contentDocument?.activeElement ?? null;
    } else if (active?.shadowRoot?.activeElement) {
      active = active.shadowRoot.activeElement;
    } else {
      return active;
    }
  }
}

/** What a control is, for a failure message: its tag, id or part, and its words. */
function named(el: Element) {
  const which = el.id
    ? `#${el.id}`
    : el.getAttribute("part")
      ? `[part=${el.getAttribute("part")}]`
      : "";
  const words = (el.getAttribute("aria-label") ?? el.textContent ?? "").replace(/\s+/g, " ").trim();
  return `${el.tagName.toLowerCase()}${which} "${words.slice(0, 40)}"`;
}

/** The topmost element at a point of `doc`'s viewport, through shadow roots. */
function deepElementFromPoint(doc: Document, x: number, y: number): Element | null {
  let hit = doc.elementFromPoint(x, y);
  while (hit?.shadowRoot) {
    const inner = hit.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  return hit;
}

/** Why `el`'s focus cannot be seen, or null when it can (outline or box shadow drawn). */
function focusProblem(el: Element, win: Window): string | null {
  const style = getComputedStyle(el);
  const outline =
    style.outlineStyle !== "none" &&
    (style.outlineStyle === "auto" || parseFloat(style.outlineWidth) >= 2);
  if (!outline && style.boxShadow === "none") {
    return `${named(el)} shows no focus indicator (outline ${style.outlineStyle} ${style.outlineWidth}, no box-shadow)`;
  }
  const rect = el.getBoundingClientRect();
  const x = rect.left + rect.width / 2;
  const y = rect.top + rect.height / 2;
  if (x < 0 || y < 0 || x > win.innerWidth || y > win.innerHeight) {
    return `${named(el)} is focused outside the viewport (${Math.round(x)}, ${Math.round(y)})`;
  }
  const hit = deepElementFromPoint(el.ownerDocument, x, y);
  if (!hit || (hit !== el && !el.contains(hit))) {
    return `${named(el)} is hidden under ${hit ? named(hit) : "nothing"} while focused`;
  }
  return null;
}

/** Which of the pages a suite file covers. */
const KINDS = {
  "demo storefront's /pagar/": (path: string) => path.startsWith("/pagar/"),
  "payment link": (path: string) => path.startsWith("/pix-checkout/payment-collection/"),
  "new-code link": (path: string) =>
    path.startsWith("/pix-checkout/recovery/") && !path.endsWith("/opt-out"),
  "opt-out link": (path: string) => path.endsWith("/opt-out"),
};

/** One test per state of the `kind` pages at one width (a 390 px phone, a 1280 px desktop). */
export async function servedPagesSuite(kind: keyof typeof KINDS, width: number, height: number) {
  const all = (await (await fetch("/__served-pages.json")).json()) as ServedPageCase[];
  const cases = all.filter((c) => KINDS[kind](c.path));
  const whose = kind.startsWith("demo") ? "the" : "the plugin's";
  describe(`${whose} ${kind} pages at ${width} px`, function () {
    this.timeout(60_000);
    afterEach(() => {
      for (const el of added.splice(0)) el.remove();
    });
    it("are all there", () => expect(cases.length).to.be.greaterThan(0));

    for (const page of cases) {
      it(`${page.title} (${page.path}) meets WCAG 2.2 AA: axe, Tab order, visible focus, 24 px targets`, async () => {
        const problems: string[] = [];
        const opened = await openPage(page, width, height);
        problems.push(...(await violations(opened)));

        const controls = controlsOf(opened.doc.body);
        for (const el of controls) {
          const { width: w, height: h } = el.getBoundingClientRect();
          if (w < 24 || h < 24) {
            problems.push(`${named(el)} is ${w.toFixed(1)} × ${h.toFixed(1)} px, under 24 × 24`);
          }
        }

        // Keyboard only: from the button before the frame to the one after it.
        const [start, end] = added.filter((el) => el instanceof HTMLButtonElement) as HTMLElement[];
        // From the top of the page: a page that focused a control itself (the new-code page's
        // "Tentar de novo") would otherwise have Firefox resume from that control.
        (opened.doc.activeElement as HTMLElement | null)?.blur();
        // A real click first: focus() alone moves the focus in the page, but the browser may
        // still send the next key to the frame that had it (a loaded Chromium or Firefox), and
        // Tab then resumes from the control the page focused.
        await realClick(start!);
        start!.focus();
        const reached: Element[] = [];
        for (let i = 0; i < controls.length + 4; i++) {
          await press("Tab");
          const now = focused();
          if (!now || now === end) break;
          // Entering a frame, some engines focus its document first: no control, nothing to see.
          if (now === opened.doc.body || now === opened.doc.documentElement) continue;
          reached.push(now);
          const problem = focusProblem(now, opened.win);
          if (problem) problems.push(problem);
        }
        const order = (list: Element[]) => list.map(named).join(" → ") || "(nothing)";
        if (order(reached) !== order(controls)) {
          problems.push(`Tab reaches ${order(reached)}; the page shows ${order(controls)}`);
        }
        expect(problems, problems.join("\n")).to.deep.equal([]);
      });
    }
  });
}
