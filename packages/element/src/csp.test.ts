// The checkout flow on a store page whose Content-Security-Policy allows connections only to
// the store backend and images only from the page's own origin (web-test-runner.config.mjs,
// group strict-csp): the code, the QR, a copy, the payment over the stream, and a new code
// after expiry, without a single violation report. Every engine.
import { expect } from "@esm-bundle/chai";
import {
  eventually,
  mount,
  newId,
  nextEvent,
  patchSession,
  PIX_CODE,
  pixSession,
  putSession,
  readClipboard,
  realClick,
  shadow,
  unmountAll,
} from "../test-support/control.js";
import type { PixCheckout } from "./pix-checkout.component.js";
import "./pix-checkout.js";

const violations: string[] = [];
document.addEventListener("securitypolicyviolation", (event) => {
  violations.push(`${event.effectiveDirective} ${event.blockedURI}`);
});

afterEach(unmountAll);

/** The element's `name` part, or a throw (for `eventually`) while it is not there. */
function part(el: HTMLElement, name: string): HTMLElement {
  const found = shadow(el).querySelector<HTMLElement>(`[part~=${name}]`);
  if (!found) throw new Error(`no ${name} yet`);
  return found;
}

it("runs under the policy: a blob: image is refused here", async () => {
  // Proves the policy is in force, so that no violation below means something.
  const img = new Image();
  img.src = URL.createObjectURL(new Blob(["<svg xmlns='http://www.w3.org/2000/svg'/>"]));
  document.body.append(img);
  await eventually(() => expect(violations.some((v) => v.startsWith("img-src"))).to.equal(true));
  violations.length = 0;
});

it("pays by copying the code at 390 px and shows the QR on demand, with no violation", async () => {
  const id = newId("csp-phone");
  await putSession(
    pixSession(id, {
      pix: { copy_paste: PIX_CODE, qr_image_url: `/store/pix-checkout/sessions/${id}/qr.svg` },
    }),
  );
  const el = mount(id) as PixCheckout;
  el.style.width = "390px";
  // The copy-first order, which follows the element's measured width a frame after the first paint.
  await eventually(() => part(el, "show-qr-button"));
  const copy = part(el, "copy-button");
  const copied = nextEvent(el, "pix-copy");
  await realClick(copy);
  await copied;
  expect(await readClipboard()).to.equal(PIX_CODE);
  await realClick(part(el, "show-qr-button"));
  await eventually(() => expect(shadow(el).querySelector("[part=qr] svg path")).to.not.equal(null));
  const paid = nextEvent(el, "pix-paid");
  await patchSession(id, { status: "paid", paid_at: new Date().toISOString() });
  await paid;
  expect(violations).to.deep.equal([]);
});

it("draws the QR first on a desktop-wide card from the backend's SVG, with no violation", async () => {
  const id = newId("csp-desktop");
  await putSession(
    pixSession(id, {
      pix: { copy_paste: PIX_CODE, qr_image_url: `/store/pix-checkout/sessions/${id}/qr.svg` },
    }),
  );
  const el = mount(id, { layout: "qr-first" }) as PixCheckout;
  await eventually(() => expect(shadow(el).querySelector("[part=qr] svg path")).to.not.equal(null));
  expect(shadow(el).querySelector("img")).to.equal(null);
  expect(violations).to.deep.equal([]);
});

it("takes a new code after expiry in one tap, with no violation", async () => {
  const id = newId("csp-renew");
  await putSession(
    pixSession(id, {
      status: "expired",
      renew: { payment_collection_id: `pay_col_${id}`, provider_id: "pp_pix_pix-checkout" },
    }),
  );
  const el = mount(id) as PixCheckout;
  // Tapped once the line above it (its own chunk) has landed, which moves the button down.
  const renew = await eventually(() => {
    expect(shadow(el).querySelector("[part=message] .muted")?.textContent ?? "").to.match(/\S/);
    return part(el, "renew-button");
  });
  await realClick(renew);
  await eventually(() => expect(el.view).to.equal("pending"));
  await eventually(() => expect(part(el, "copy-button")).to.be.instanceOf(HTMLElement));
  expect(violations).to.deep.equal([]);
});
