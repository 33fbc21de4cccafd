// The shipped build, not the sources: dist/index.js with its lazily loaded chunks (the
// QR encoder, the stream reader, the boleto view, "Já paguei", the preparing, superseded and refund
// views' words)
// must work as the sources do.
// web-test-runner.config.mjs builds it.
import jsQR from "jsqr";
import { expect } from "@esm-bundle/chai";
import {
  BOLETO_LINE,
  boletoSession,
  codeArrived,
  eventually,
  mount,
  newId,
  nextEvent,
  paintedPixels,
  patchSession,
  PIX_CODE,
  pixSession,
  preparingSession,
  putSession,
  readClipboard,
  realClick,
  shadow,
  supersede,
  unmountAll,
} from "../test-support/control.js";
import type { PixCheckout } from "./pix-checkout.component.js";

const built = "../dist/index.js";
await import(/* @vite-ignore */ built);

afterEach(unmountAll);

it("registers <pix-checkout> from dist/index.js", () => {
  expect(customElements.get("pix-checkout")).to.not.equal(undefined);
});

it("draws a scannable QR with the lazily loaded encoder chunk of the build", async () => {
  const id = newId("dist-qr");
  await putSession(pixSession(id));
  const el = mount(id) as PixCheckout;
  await eventually(() =>
    expect(el.shadowRoot?.querySelector("[part=qr] svg path")).to.not.equal(null),
  );
  const qr = el.shadowRoot?.querySelector("[part=qr]") as HTMLElement;
  // WebKit may paint a decoded image a frame or two later: look again until it shows.
  await eventually(async () => {
    const { data, width, height } = await paintedPixels(qr);
    expect(jsQR(data, width, height)?.data).to.equal(PIX_CODE);
  });
});

it("receives a payment over the stream with the stream chunk of the build", async () => {
  const id = newId("dist-stream");
  await putSession(pixSession(id));
  const el = mount(id) as PixCheckout;
  await eventually(() => expect(el.view).to.equal("pending"));
  await patchSession(id, { status: "paid" });
  await eventually(() => expect(el.view).to.equal("paid"));
});

it('says what "Já paguei" found with the re-check chunk of the build', async () => {
  const id = newId("dist-recheck");
  await putSession(pixSession(id));
  const el = mount(id) as PixCheckout;
  const refresh = await eventually(() => {
    const found = el.shadowRoot?.querySelector<HTMLElement>("[part~=refresh-button]");
    expect(found).to.not.equal(null);
    return found as HTMLElement;
  });
  await realClick(refresh);
  await eventually(() =>
    expect(el.shadowRoot?.querySelector("[part=status]")?.textContent?.trim()).to.equal(
      "Ainda não recebemos o pagamento deste código.",
    ),
  );
});

it("shows the boleto view from the boleto chunk of the build and copies its line", async () => {
  const id = newId("dist-boleto");
  await putSession(boletoSession(id));
  const el = mount(id) as PixCheckout;
  await eventually(() =>
    expect(shadow(el).querySelector("[part=barcode]")?.getAttribute("aria-label")).to.equal(
      "Código de barras do boleto",
    ),
  );
  expect(shadow(el).querySelector("[part=header]")?.textContent).to.include("Pague com boleto");
  const copied = nextEvent(el, "pix-copy");
  await realClick(shadow(el).querySelector("[part~=copy-button]") as HTMLElement);
  await copied;
  expect(await readClipboard()).to.equal(BOLETO_LINE);
});

it("shows the superseded view from the notice chunk of the build and switches to the current code", async () => {
  const id = newId("dist-superseded");
  await putSession(pixSession(id));
  const el = mount(id) as PixCheckout;
  await eventually(() => expect(el.view).to.equal("pending"));
  const current = newId("dist-current");
  await supersede(id, pixSession(current, { pix: { copy_paste: "the current code" } }));
  const show = await eventually(() => {
    const found = shadow(el).querySelector<HTMLElement>("[part~=current-code-button]");
    expect(found?.textContent?.trim()).to.equal("Ver o código atual");
    return found as HTMLElement;
  });
  await realClick(show);
  await eventually(() =>
    expect(shadow(el).querySelector<HTMLInputElement>("input")?.value).to.equal("the current code"),
  );
  expect(el.sessionId).to.equal(current);
});

it("shows the preparing view from the notice chunk of the build, then the code the stream brings", async () => {
  const id = newId("dist-preparing");
  await putSession(preparingSession(id, 42_000));
  const el = mount(id) as PixCheckout;
  await eventually(() =>
    expect(shadow(el).textContent?.replace(/\s+/g, " ")).to.include("Pronto em cerca de 40 s."),
  );
  expect(shadow(el).querySelector("[part=qr]")).to.equal(null);
  await patchSession(id, codeArrived(id));
  await eventually(() =>
    expect(shadow(el).querySelector<HTMLInputElement>("input")?.value).to.equal(PIX_CODE),
  );
});

it("applies the build's minified styles, custom properties included", async () => {
  const id = newId("dist-styles");
  await putSession(pixSession(id));
  const el = mount(id) as PixCheckout;
  el.style.setProperty("--pix-checkout-radius", "3px");
  await eventually(() => expect(el.view).to.equal("pending"));
  const base = shadow(el).querySelector("[part=base]") as HTMLElement;
  expect(getComputedStyle(base).display).to.equal("grid");
  expect(getComputedStyle(base).borderTopLeftRadius).to.equal("3px");
  const button = shadow(el).querySelector("[part~=copy-button]") as HTMLElement;
  // --a: var(--pix-checkout-accent,#0b6e63) with no page override: the default accent.
  expect(getComputedStyle(button).backgroundColor).to.equal("rgb(11, 110, 99)");
});
