// The shipped build, not the sources: dist/index.js with its lazily loaded chunks (the
// QR encoder, the stream reader, the boleto view) must work as the sources do.
// globalSetup builds it.
import jsQR from "jsqr";
import { afterEach, expect, it } from "vitest";
import { page, userEvent } from "vitest/browser";
import {
  BOLETO_LINE,
  boletoSession,
  mount,
  newId,
  patchSession,
  PIX_CODE,
  pixSession,
  putSession,
  shadow,
  unmountAll,
} from "../test-support/control.js";
import type { PixCheckout } from "./pix-checkout.component.js";

const built = "../dist/index.js";
await import(/* @vite-ignore */ built);

afterEach(unmountAll);

it("registers <pix-checkout> from dist/index.js", () => {
  expect(customElements.get("pix-checkout")).toBeDefined();
});

it("draws a scannable QR with the lazily loaded encoder chunk of the build", async () => {
  const id = newId("dist-qr");
  await putSession(pixSession(id));
  const el = mount(id) as PixCheckout;
  await expect
    .poll(() => el.shadowRoot?.querySelector<HTMLImageElement>("[part=qr] img")?.src ?? "")
    .toMatch(/^data:image\/svg/);
  const qr = el.shadowRoot?.querySelector("[part=qr]") as HTMLElement;
  await (qr.querySelector("img") as HTMLImageElement).decode();
  const png = await page.screenshot({ element: qr, save: false });
  const img = new Image();
  img.src = `data:image/png;base64,${png}`;
  await img.decode();
  const canvas = Object.assign(document.createElement("canvas"), {
    width: img.width,
    height: img.height,
  });
  const ctx = canvas.getContext("2d") as CanvasRenderingContext2D;
  ctx.drawImage(img, 0, 0);
  expect(
    jsQR(ctx.getImageData(0, 0, img.width, img.height).data, img.width, img.height)?.data,
  ).toBe(PIX_CODE);
});

it("receives a payment over the stream with the stream chunk of the build", async () => {
  const id = newId("dist-stream");
  await putSession(pixSession(id));
  const el = mount(id) as PixCheckout;
  await expect.poll(() => el.view).toBe("pending");
  await patchSession(id, { status: "paid" });
  await expect.poll(() => el.view).toBe("paid");
});

it("shows the boleto view from the boleto chunk of the build and copies its line", async () => {
  const id = newId("dist-boleto");
  await putSession(boletoSession(id));
  const el = mount(id) as PixCheckout;
  await expect
    .poll(() => shadow(el).querySelector("[part=barcode]")?.getAttribute("aria-label"))
    .toBe("Código de barras do boleto");
  expect(shadow(el).querySelector("[part=header]")?.textContent).toContain("Pague com boleto");
  await userEvent.click(shadow(el).querySelector("[part~=copy-button]") as HTMLElement);
  await expect.poll(() => navigator.clipboard.readText()).toBe(BOLETO_LINE);
});

it("applies the build's minified styles, custom properties included", async () => {
  const id = newId("dist-styles");
  await putSession(pixSession(id));
  const el = mount(id) as PixCheckout;
  el.style.setProperty("--pix-checkout-radius", "3px");
  await expect.poll(() => el.view).toBe("pending");
  const base = shadow(el).querySelector("[part=base]") as HTMLElement;
  expect(getComputedStyle(base).display).toBe("grid");
  expect(getComputedStyle(base).borderTopLeftRadius).toBe("3px");
  const button = shadow(el).querySelector("[part~=copy-button]") as HTMLElement;
  // --a: var(--pix-checkout-accent,#0b6e63) with no page override: the default accent.
  expect(getComputedStyle(button).backgroundColor).toBe("rgb(11, 110, 99)");
});
