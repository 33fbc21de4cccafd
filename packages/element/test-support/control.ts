// Browser-side helpers for the tests: create sessions on the fake backend, drive them,
// mount the element. Not shipped.
// It registers no element: each test file imports the build it tests (src or dist).
import { inject } from "vitest";
import type { PixCheckout } from "../src/pix-checkout.component.js";
import type { CheckoutSession } from "../src/session.js";
import type { FakeBehaviour } from "./fake-backend.js";

export const backendUrl = inject("backendUrl");
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

/** Ends every open stream of a session, as a server restart would. */
export const closeStreams = (id: string) => call("POST", `${id}/close-streams`);

/** How many streams of a session are open on the fake backend right now. */
export const openStreams = async (id: string) => (await call("GET", `${id}/streams`)) as number;

/** The store routes a session received, in order: "GET status", "GET stream", "POST refresh", "GET qr.svg". */
export const requestLog = async (id: string) =>
  ((await call("GET", `${id}/log`)) as { route: string; at: number }[]).map((e) => e.route);

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

declare module "vitest/browser" {
  interface BrowserCommands {
    emulateMedia(media: {
      colorScheme?: "light" | "dark";
      reducedMotion?: "reduce" | "no-preference";
    }): Promise<void>;
  }
}
