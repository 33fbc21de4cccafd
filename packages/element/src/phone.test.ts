// The shopper on a phone: the code first and the QR on demand, the warnings before the code
// expires, and a new code in one tap once it has. Every engine, with axe in each state.
import jsQR from "jsqr";
import { expect } from "@esm-bundle/chai";
import {
  eventually,
  mount,
  newId,
  nextEvent,
  paintedPixels,
  patchSession,
  PIX_CODE,
  pixSession,
  putSession,
  realClick,
  requestLog,
  shadow,
  unmountAll,
} from "../test-support/control.js";
import { axeViolations } from "../test-support/a11y.js";
import type { PixRenewedDetail } from "./events.js";
import type { PixCheckout } from "./pix-checkout.component.js";
import type { CheckoutSession } from "./session.js";
import "./pix-checkout.js";

afterEach(unmountAll);

const $ = <T extends Element = HTMLElement>(el: HTMLElement, selector: string) =>
  shadow(el).querySelector<T>(selector);
const text = (el: HTMLElement, selector: string) =>
  $(el, selector)?.textContent?.replace(/\s+/g, " ").trim() ?? null;

/** Each test's own cart: the fake store finds a collection's sessions by it. */
const renewTarget = (id: string) => ({
  payment_collection_id: `pay_col_${id}`,
  provider_id: "pp_pix_pix-checkout",
});

/** A pending Pix session shown in a `width` px wide element; resolves once its code is on screen. */
async function showAt(
  width: number,
  label: string,
  extra: Partial<CheckoutSession> = {},
  attrs: Record<string, string> = {},
) {
  const id = newId(label);
  await putSession(pixSession(id, extra));
  const el = mount(id, attrs);
  el.style.width = `${width}px`;
  await eventually(() => expect($(el, "[part~=copy-button]")).to.not.equal(null));
  // The order follows the element's measured width, a frame after the first paint.
  const copyFirst = attrs.layout ? attrs.layout === "copy-first" : width < 400;
  await eventually(() => expect(!!$(el, "[part~=show-qr-button]")).to.equal(copyFirst));
  return { id, el };
}

async function scans(el: HTMLElement) {
  await eventually(() => expect($(el, "[part=qr] svg path")).to.not.equal(null));
  await eventually(async () => {
    const { data, width, height } = await paintedPixels($(el, "[part=qr]") as Element);
    expect(jsQR(data, width, height)?.data).to.equal(PIX_CODE);
  });
}

describe("copy first on a phone", () => {
  it("leads with the amount, the expiry, the code and a large copy button at 390 px, with no QR fetched", async () => {
    const { el, id } = await showAt(390, "phone");
    await eventually(() => expect(text(el, "[part~=copy-button]")).to.equal("Copiar código Pix"));
    expect(text(el, "[part=after-copy]")).to.equal(
      "Abra o app do seu banco, escolha Pix Copia e Cola e cole o código.",
    );
    expect($(el, "[part=qr]")).to.equal(null);
    const order = [...shadow(el).querySelectorAll("[part]")].map((node) =>
      node.getAttribute("part"),
    );
    expect(order.indexOf("amount")).to.be.below(order.indexOf("countdown"));
    expect(order.indexOf("countdown")).to.be.below(order.indexOf("code"));
    expect(order.indexOf("code")).to.be.below(order.indexOf("button show-qr-button"));
    const copy = $(el, "[part~=copy-button]") as HTMLElement;
    expect(copy.getBoundingClientRect().height).to.be.at.least(52);
    expect(copy.getBoundingClientRect().width).to.be.above(300);
    // The QR and its chunk wait for the tap: nothing asked for its picture.
    expect(await requestLog(id)).to.not.include("GET qr.svg");
    expect(await axeViolations(el)).to.deep.equal([]);
  });

  it("shows the QR in the same card after one tap on 'Mostrar QR code', and it scans as the code", async () => {
    const { el } = await showAt(390, "phone-qr");
    const show = $(el, "[part~=show-qr-button]") as HTMLElement;
    expect(show.textContent?.trim()).to.equal("Pagar com outro aparelho? Mostrar QR code");
    expect(show.getAttribute("aria-expanded")).to.equal("false");
    await realClick(show);
    await scans(el);
    expect(show.getAttribute("aria-expanded")).to.equal("true");
    // Open, the same button closes it, and says so.
    expect(show.textContent?.trim()).to.equal("Ocultar QR code");
    expect($(el, "img")).to.equal(null);
    expect(await axeViolations(el)).to.deep.equal([]);
  });

  it("keeps the QR first on a wide card, and layout forces either order", async () => {
    const wide = await showAt(420, "desktop");
    await scans(wide.el);
    expect($(wide.el, "[part~=show-qr-button]")).to.equal(null);
    expect(text(wide.el, "[part~=copy-button]")).to.equal("Copiar código");

    const forcedQr = await showAt(390, "force-qr", {}, { layout: "qr-first" });
    await eventually(() => expect($(forcedQr.el, "[part=qr]")).to.not.equal(null));
    expect($(forcedQr.el, "[part~=show-qr-button]")).to.equal(null);

    const forcedCopy = await showAt(420, "force-copy", {}, { layout: "copy-first" });
    expect($(forcedCopy.el, "[part=qr]")).to.equal(null);
    expect(text(forcedCopy.el, "[part~=copy-button]")).to.equal("Copiar código Pix");
  });

  it("switches order when the element itself narrows, whatever the window", async () => {
    const { el } = await showAt(420, "narrows");
    await eventually(() => expect($(el, "[part=qr]")).to.not.equal(null));
    el.style.width = "360px";
    await eventually(() => expect($(el, "[part~=show-qr-button]")).to.not.equal(null));
    expect($(el, "[part=qr]")).to.equal(null);
  });

  it("speaks English and Spanish in the copy-first order", async () => {
    const en = await showAt(390, "phone-en", {}, { lang: "en" });
    await eventually(() => expect(text(en.el, "[part~=copy-button]")).to.equal("Copy Pix code"));
    expect(text(en.el, "[part~=show-qr-button]")).to.equal(
      "Paying with another device? Show QR code",
    );
    const es = await showAt(390, "phone-es", {}, { lang: "es" });
    await eventually(() =>
      expect(text(es.el, "[part=after-copy]")).to.equal(
        "Abre la app de tu banco, elige Pix Copia y Pega y pega el código.",
      ),
    );
  });
});

describe("expiry warnings", () => {
  const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();

  it("shows nothing with more than 5 minutes left, and says the minutes once to screen readers", async () => {
    const { el } = await showAt(390, "warn-none", { expires_at: inMs(6 * 60_000) });
    const warning = $(el, "[part=warning]") as HTMLElement;
    // A tick after the region exists, so that it is announced as a change.
    await eventually(() =>
      expect(text(el, "[part=warning]")).to.equal("O código expira em menos de 6 min."),
    );
    expect(warning.getBoundingClientRect().height).to.be.at.most(1);
  });

  it("announces the countdown at its start, at 5 and at 1 minute left and at its end, never each second", async function () {
    this.timeout(30_000);
    const id = newId("warn-moments");
    // 5 min and 3 s: the start's minutes, then the 5-minute warning about 3 s later.
    await putSession(pixSession(id, { expires_at: inMs(5 * 60_000 + 3_000) }));
    const el = mount(id) as PixCheckout;
    await eventually(() => expect($(el, "[part=warning]")).to.not.equal(null));
    const timer = $(el, "[role=timer]") as HTMLElement;
    // The timer changes every second and is not a live region; nothing inside it is one either.
    expect(timer.getAttribute("aria-live")).to.equal(null);
    expect(timer.querySelector("[aria-live], [role=status], [role=alert]")).to.equal(null);
    const said: string[] = [];
    const ticks: string[] = [];
    const record = () => {
      const warning = text(el, "[part=warning]");
      const status = text(el, "[part=status]");
      // The countdown's region while the code shows; the status line says its end.
      const now = warning ?? `status: ${status}`;
      if (now !== said.at(-1)) said.push(now);
      const left = text(el, "[role=timer]");
      if (left && left !== ticks.at(-1)) ticks.push(left);
    };
    record();
    const observer = new MutationObserver(record);
    observer.observe(shadow(el), { subtree: true, childList: true, characterData: true });
    await eventually(() => expect(said.at(-1)).to.equal("O código expira em menos de 5 min."), {
      timeout: 6000,
    });
    // The backend's expiry moves (a resync): 61.5 s left, then the end.
    await patchSession(id, { expires_at: inMs(61_500) });
    await eventually(() => expect(said.at(-1)).to.equal("O código expira em menos de 1 min."), {
      timeout: 5000,
    });
    await patchSession(id, { expires_at: inMs(1_500) });
    await eventually(() => expect(said.at(-1)).to.equal("status: Código expirado"), {
      timeout: 5000,
    });
    observer.disconnect();
    // Empty until a tick after the region exists (so that its first words are a change).
    expect(said.filter(Boolean)).to.deep.equal([
      "O código expira em menos de 6 min.",
      "O código expira em menos de 5 min.",
      "O código expira em menos de 1 min.",
      "status: Código expirado",
    ]);
    // Meanwhile the timer itself changed many times.
    expect(ticks.length).to.be.above(4);
  });

  it("warns at 5 minutes left, then at 1 minute, in a polite live region that is also visible", async () => {
    const { el } = await showAt(390, "warn", { expires_at: inMs(61_500) });
    const warning = $(el, "[part=warning]") as HTMLElement;
    expect(warning.getAttribute("role")).to.equal("status");
    await eventually(() =>
      expect(text(el, "[part=warning]")).to.equal("O código expira em menos de 5 min."),
    );
    await eventually(
      () => expect(text(el, "[part=warning]")).to.equal("O código expira em menos de 1 min."),
      { timeout: 5000 },
    );
    expect(warning.getBoundingClientRect().height).to.be.above(0);
    expect(await axeViolations(el)).to.deep.equal([]);
  });

  it("warns in English", async () => {
    const { el } = await showAt(390, "warn-en", { expires_at: inMs(50_000) }, { lang: "en" });
    await eventually(() =>
      expect(text(el, "[part=warning]")).to.equal("Less than 1 minute left to pay this code."),
    );
  });
});

/** The expired view's "Gerar novo código", once the line above it has landed (it moves the button). */
function expiredWithButton(el: HTMLElement) {
  return eventually(() => {
    const found = $(el, "[part~=renew-button]");
    expect(text(el, "[part=message] .muted")).to.equal(
      "Este código não vale mais. Gere um novo para pagar.",
    );
    return found as HTMLElement;
  });
}

describe("a new code after expiry", () => {
  it("offers 'Gerar novo código' once the backend says expired, and one tap shows the new code", async () => {
    const id = newId("renew");
    await putSession(pixSession(id, { status: "expired", renew: renewTarget(id) }));
    const el = mount(id) as PixCheckout;
    el.style.width = "390px";
    const renew = await eventually(() => {
      const found = $(el, "[part~=renew-button]");
      expect(found?.textContent?.trim()).to.equal("Gerar novo código");
      // The line above the button comes with its chunk and moves the button down: a tap
      // before it lands would miss, as a shopper's would.
      expect(text(el, "[part=message] .muted")).to.equal(
        "Este código não vale mais. Gere um novo para pagar.",
      );
      return found as HTMLElement;
    });
    expect(await axeViolations(el)).to.deep.equal([]);
    const renewed = nextEvent<PixRenewedDetail>(el, "pix-renewed");
    await realClick(renew);
    const detail = await renewed;
    expect(detail).to.deep.equal({ previous: id, sessionId: `${id}_renewed` });
    expect(el.sessionId).to.equal(`${id}_renewed`);
    await eventually(() => expect(el.view).to.equal("pending"));
    await eventually(() =>
      expect($<HTMLInputElement>(el, "input")?.value).to.equal(`${PIX_CODE}-renewed`),
    );
  });

  it("reads the session before making a code: a cart paid meanwhile in another tab shows paid, and no new code is made", async () => {
    const id = newId("renew-paid-elsewhere");
    await putSession(pixSession(id, { status: "expired", renew: renewTarget(id) }));
    const el = mount(id) as PixCheckout;
    const renew = await expiredWithButton(el);
    // The element stopped listening at `expired`; the cart is paid by the e-mail's link since.
    await patchSession(id, { status: "paid", paid_at: new Date().toISOString() });
    const paid = nextEvent(el, "pix-paid");
    let renewed = false;
    el.addEventListener("pix-renewed", () => (renewed = true));
    await realClick(renew);
    await paid;
    await eventually(() => expect(el.view).to.equal("paid"));
    expect(el.sessionId).to.equal(id);
    expect(renewed).to.equal(false);
  });

  it("reads the session before making a code: a code another tab made since is the one shown, not a third", async () => {
    const id = newId("renew-replaced");
    const current = `${id}_current`;
    await putSession(pixSession(current, { pix: { copy_paste: `${PIX_CODE}-current` } }));
    await putSession(pixSession(id, { status: "expired", renew: renewTarget(id) }));
    const el = mount(id) as PixCheckout;
    const renew = await expiredWithButton(el);
    await patchSession(id, { replaced_by: current });
    const renewed = nextEvent<PixRenewedDetail>(el, "pix-renewed");
    await realClick(renew);
    expect(await renewed).to.deep.equal({ previous: id, sessionId: current });
    await eventually(() =>
      expect($<HTMLInputElement>(el, "input")?.value).to.equal(`${PIX_CODE}-current`),
    );
  });

  it("says it is a busy minute when the store's line of codes is full, and keeps the button to try again", async () => {
    const id = newId("renew-busy");
    const target = { ...renewTarget(id), payment_collection_id: `pay_col_busy_${id}` };
    await putSession(pixSession(id, { status: "expired", renew: target }));
    const el = mount(id) as PixCheckout;
    el.style.width = "390px";
    const renew = await eventually(() => {
      const found = $(el, "[part~=renew-button]");
      expect(text(el, "[part=message] .muted")).to.equal(
        "Este código não vale mais. Gere um novo para pagar.",
      );
      return found as HTMLElement;
    });
    await realClick(renew);
    await eventually(() =>
      expect(text(el, "[part=status]")).to.equal(
        "Muita procura agora. Nada foi cobrado: tente de novo em um minuto.",
      ),
    );
    expect(el.sessionId).to.equal(id);
    expect($(el, "[part~=renew-button]")).to.not.equal(null);
  });

  it("never offers a new code while the backend still says pending, even past the device's countdown", async () => {
    const id = newId("renew-early");
    await putSession(
      pixSession(id, {
        expires_at: new Date(Date.now() + 1500).toISOString(),
        renew: renewTarget(id),
      }),
    );
    const el = mount(id) as PixCheckout;
    await eventually(() => expect(el.view).to.equal("expired"));
    await el.updateComplete;
    expect($(el, "[part~=renew-button]")).to.equal(null);
    await patchSession(id, { status: "expired" });
    await eventually(() => expect($(el, "[part~=renew-button]")).to.not.equal(null));
  });

  it("leaves the new code to the store when it calls preventDefault() on pix-expired", async () => {
    const id = newId("renew-host");
    await putSession(pixSession(id, { status: "expired", renew: renewTarget(id) }));
    const el = document.createElement("pix-checkout") as PixCheckout;
    el.addEventListener("pix-expired", (event) => event.preventDefault());
    const mounted = mount(id);
    mounted.replaceWith(el);
    for (const name of ["backend-url", "publishable-key", "session-id"]) {
      el.setAttribute(name, mounted.getAttribute(name) as string);
    }
    await eventually(() => expect(el.view).to.equal("expired"));
    await el.updateComplete;
    expect($(el, "[part~=renew-button]")).to.equal(null);
    el.remove();
  });

  it("offers nothing when the backend sends no renew target (a store without it)", async () => {
    const id = newId("renew-none");
    await putSession(pixSession(id, { status: "expired" }));
    const el = mount(id) as PixCheckout;
    await eventually(() => expect(el.view).to.equal("expired"));
    await el.updateComplete;
    expect($(el, "[part~=renew-button]")).to.equal(null);
  });
});
