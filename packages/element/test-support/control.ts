// Browser-side helpers for the tests: create sessions on the fake backend, drive them,
// mount the element, click and type through the browser's driver, wait for a condition.
// Not shipped. It registers no element: each test file imports the build it tests (src or dist).
import { executeServerCommand, sendKeys, sendMouse } from "@web/test-runner-commands";
import type { PixCheckout } from "../src/pix-checkout.component.js";
import type { CheckoutSession } from "../src/session.js";
import type { FakeBehaviour } from "./fake-backend.js";

// A failed assertion about a DOM node keeps the node as the error's `actual` (or `expected`),
// and a node cannot travel back to the runner: the page's results never arrive, and the runner
// reports only "did not finish" for the whole file, hiding which test failed and why. Every
// test file that renders imports this module (the pure ones, format, itf and sse, compare no
// nodes), so this root hook turns such values into text first.
afterEach(function () {
  const error = this.currentTest?.err as { actual?: unknown; expected?: unknown } | undefined;
  for (const key of ["actual", "expected"] as const) {
    const value = error?.[key];
    if (value instanceof Node) error![key] = describeNode(value);
  }
});

/** `<img class="x" src="…">`, or `#text "…"`: enough to tell which node a test was about. */
function describeNode(node: Node): string {
  if (node instanceof Element) return node.outerHTML.slice(0, 200);
  return `${node.nodeName} ${JSON.stringify(node.textContent?.slice(0, 80))}`;
}

/** The fake backend's origin; web-test-runner.config.mjs writes it into the test page. */
export const backendUrl = (globalThis as { pixBackendUrl?: string }).pixBackendUrl as string;
export const PUBLISHABLE_KEY = "pk_test_element";

/** A valid Pix BR Code (the Central Bank's example payload). */
export const PIX_CODE =
  "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D";

/** A bank slip's 44-digit barcode and the 47-digit digitable line that goes with it. */
export const BOLETO_BARCODE = "00193373700000001000500940144816060680935031";
export const BOLETO_LINE = "00190500954014481606906809350314337370000000100";

let counter = 0;

/** A fresh session id, unique across the run. */
export const newId = (label: string) => `ps_${label}_${Date.now().toString(36)}_${++counter}`;

/** A pending Pix session expiring in `minutes`, by the server's clock when `offsetMs` is given. */
export function pixSession(id: string, extra: Partial<CheckoutSession> = {}): CheckoutSession {
  const now = Date.now();
  return {
    session_id: id,
    method: "pix",
    status: "pending",
    amount: 12345,
    currency: "BRL",
    expires_at: new Date(now + 15 * 60_000).toISOString(),
    paid_at: null,
    server_time: new Date(now).toISOString(),
    pix: { copy_paste: PIX_CODE },
    ...extra,
  };
}

/**
 * A Pix session whose code is still being prepared (the store's create line is past the
 * payment service's minute budget): no code, no expiry, and the code due in `readyInMs`
 * (from now, by this page's clock) as `ready_at`, 17th in line.
 */
export function preparingSession(
  id: string,
  readyInMs = 42_000,
  extra: Partial<CheckoutSession> = {},
): CheckoutSession {
  return {
    ...pixSession(id),
    status: "preparing",
    expires_at: null,
    pix: undefined,
    ready_at: new Date(Date.now() + readyInMs).toISOString(),
    queue_position: 17,
    ...extra,
  };
}

/**
 * What the store sends when the charge of a preparing session exists: the code (with the
 * backend's QR image), its expiry, and no estimate any more.
 */
export const codeArrived = (id: string): Partial<CheckoutSession> => ({
  status: "pending",
  expires_at: new Date(Date.now() + 15 * 60_000).toISOString(),
  pix: { copy_paste: PIX_CODE, qr_image_url: `/store/pix-checkout/sessions/${id}/qr.svg` },
  ready_at: null,
  queue_position: null,
});

/** A pending boleto session due on 2030-01-31. */
export function boletoSession(id: string, extra: Partial<CheckoutSession> = {}): CheckoutSession {
  return {
    ...pixSession(id),
    method: "boleto",
    pix: undefined,
    expires_at: "2030-01-31T23:59:59.000Z",
    boleto: {
      url: "https://bank.example/boleto/123.pdf",
      barcode: BOLETO_BARCODE,
      digitable_line: BOLETO_LINE,
      due_date: "2030-01-31",
    },
    ...extra,
  };
}

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${backendUrl}/__control/sessions/${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`control ${method} ${path}: ${res.status}`);
  return res.status === 204 ? null : res.json();
}

/** Creates (or replaces) a session on the fake backend. */
export const putSession = (session: CheckoutSession, behaviour: FakeBehaviour = {}) =>
  call("PUT", session.session_id, { session, behaviour });

/** Changes a session; open streams receive it. */
export const patchSession = (id: string, patch: Partial<CheckoutSession>) =>
  call("PATCH", id, patch);

/** Changes how a session's routes behave. */
export const patchBehaviour = (id: string, patch: FakeBehaviour) =>
  call("PATCH", `${id}/behaviour`, patch);

/**
 * The cart behind session `id` changed: the fake makes `by` (when given) the cart's current
 * session and marks `id` superseded, with `replaced_by` naming `by` (or null) and no code.
 */
export const supersede = (id: string, by?: CheckoutSession) =>
  call("POST", `${id}/supersede`, { by });

/** Ends every open stream of a session, as a server restart would. */
export const closeStreams = (id: string) => call("POST", `${id}/close-streams`);

/** How many streams of a session are open on the fake backend right now. */
export const openStreams = async (id: string) => (await call("GET", `${id}/streams`)) as number;

/** The store routes a session received, in order: "GET status", "GET stream", "POST refresh", "GET qr.svg". */
export const requestLog = async (id: string) =>
  ((await call("GET", `${id}/log`)) as { route: string; at: number }[]).map((e) => e.route);

/** The codes the page reported to the store as shown (`POST …/shown`), in order. */
export const shownReports = async (id: string) => (await call("GET", `${id}/shown`)) as string[];

/** How many `POST …/shown` reached the store for a session, failed ones included. */
export const shownAttempts = async (id: string) =>
  (await call("GET", `${id}/shown-attempts`)) as number;

const mounted: PixCheckout[] = [];

/** Mounts `<pix-checkout>` for `sessionId` and returns it. */
export function mount(sessionId: string, attrs: Record<string, string> = {}): PixCheckout {
  const el = document.createElement("pix-checkout");
  el.setAttribute("backend-url", backendUrl);
  el.setAttribute("publishable-key", PUBLISHABLE_KEY);
  el.setAttribute("session-id", sessionId);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
  document.body.append(el);
  mounted.push(el);
  return el;
}

/** Removes every mounted element (afterEach). */
export function unmountAll() {
  for (const el of mounted.splice(0)) el.remove();
}

/** Resolves with the next `name` event's detail fired by `el`. */
export function nextEvent<T>(el: HTMLElement, name: string): Promise<T> {
  return new Promise((resolve) =>
    el.addEventListener(name, (e) => resolve((e as CustomEvent<T>).detail), { once: true }),
  );
}

/** The element's shadow root, typed. */
export const shadow = (el: HTMLElement) => el.shadowRoot as ShadowRoot;

/** Text of the shadow part `part`, trimmed, or null. */
export const partText = (el: HTMLElement, part: string) =>
  shadow(el).querySelector(`[part~="${part}"]`)?.textContent?.replace(/\s+/g, " ").trim() ?? null;

/**
 * Runs `check` (an assertion) until it passes, or throws its last error after `timeout` ms.
 * It waits for a state the element reaches asynchronously, never for a fixed time.
 */
export async function eventually<T>(
  check: () => T | Promise<T>,
  { timeout = 10_000, interval = 25 } = {},
): Promise<T> {
  const deadline = Date.now() + timeout;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, interval));
    }
  }
}

const restores: (() => void)[] = [];

/** Replaces `target[key]` until `restoreStubs()`; returns the calls' arguments as they come. */
export function stub<T extends object, K extends keyof T>(
  target: T,
  key: K,
  replacement: T[K],
): unknown[][] {
  const own = Object.getOwnPropertyDescriptor(target, key);
  const calls: unknown[][] = [];
  const fn = replacement as unknown as (...args: unknown[]) => unknown;
  Object.defineProperty(target, key, {
    configurable: true,
    writable: true,
    value: function (this: unknown, ...args: unknown[]) {
      calls.push(args);
      return fn.apply(this, args);
    },
  });
  restores.push(() => {
    if (own) Object.defineProperty(target, key, own);
    else delete (target as Record<PropertyKey, unknown>)[key as PropertyKey];
  });
  return calls;
}

/** Undoes every `stub`, newest first (afterEach). */
export function restoreStubs() {
  for (const restore of restores.splice(0).reverse()) restore();
}

/**
 * Clicks the middle of `target` with the browser's real mouse (through its driver), as a
 * shopper's tap: unlike `element.click()`, this gives the page the user activation that
 * the Clipboard API asks for.
 */
export async function realClick(target: Element) {
  const rect = await settledInView(target);
  await sendMouse({
    type: "click",
    position: [Math.round(rect.x + rect.width / 2), Math.round(rect.y + rect.height / 2)],
  });
  await sendMouse({ type: "move", position: [0, 0] });
}

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve));

/**
 * Scrolls `target` into the middle of the viewport and waits until it stays put for a frame:
 * a QR image or font that arrives late (a loaded machine) moves it after the scroll, and the
 * driver then clicks where it was, or refuses a point outside the viewport.
 */
async function settledInView(target: Element): Promise<DOMRect> {
  const deadline = performance.now() + 5_000;
  for (;;) {
    target.scrollIntoView({ block: "center", behavior: "instant" });
    await nextFrame();
    const before = target.getBoundingClientRect();
    await nextFrame();
    const after = target.getBoundingClientRect();
    const still = ["x", "y", "width", "height"].every(
      (key) => before[key as keyof DOMRect] === after[key as keyof DOMRect],
    );
    const visible = after.top >= 0 && after.bottom <= innerHeight && after.left >= 0;
    if ((still && visible) || performance.now() > deadline) return after;
  }
}

/** Presses one key (`"Tab"`, `"Enter"`) through the browser's driver. */
export const press = (key: string) => sendKeys({ press: key });

/** The engine under test, as the runner names it: "Chrome" (Chromium), "Firefox" or "MiniBrowser" (WebKitGTK). */
export const engine = async () =>
  (await executeServerCommand<string, undefined>("pix-engine")) as string;

/** A picture of `target` as the browser painted it (a driver screenshot, cropped), as pixels. */
export async function paintedPixels(target: Element): Promise<ImageData> {
  const rect = await settledInView(target);
  const png = (await executeServerCommand<string, undefined>("pix-screenshot")) as string;
  const img = new Image();
  img.src = `data:image/png;base64,${png}`;
  await img.decode();
  // The screenshot is of the viewport, in device pixels.
  const scale = img.naturalWidth / window.innerWidth;
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(rect.width * scale);
  canvas.height = Math.round(rect.height * scale);
  const ctx = canvas.getContext("2d") as CanvasRenderingContext2D;
  ctx.drawImage(
    img,
    rect.x * scale,
    rect.y * scale,
    rect.width * scale,
    rect.height * scale,
    0,
    0,
    canvas.width,
    canvas.height,
  );
  return ctx.getImageData(0, 0, canvas.width, canvas.height);
}

/**
 * Runs `action` inside a real click's handler, so that it has the user activation that
 * WebKit asks for before it lets a page read or write the clipboard.
 */
async function withUserActivation<T>(action: () => Promise<T>): Promise<T> {
  const trigger = document.createElement("button");
  trigger.textContent = "clipboard";
  trigger.style.cssText = "position:fixed;left:0;top:0;width:40px;height:40px;z-index:9";
  let result!: Promise<T>;
  trigger.addEventListener("click", () => void (result = action()), { once: true });
  document.body.append(trigger);
  try {
    await realClick(trigger);
    await eventually(() => {
      if (!result) throw new Error("the clipboard button was not clicked");
    });
    return await result;
  } finally {
    trigger.remove();
  }
}

/** What the system clipboard holds now (read as the page, with a real click). */
export const readClipboard = () => withUserActivation(() => navigator.clipboard.readText());

/** Puts `text` on the system clipboard (as the page, with a real click). */
export const writeClipboard = (text: string) =>
  withUserActivation(() => navigator.clipboard.writeText(text));
