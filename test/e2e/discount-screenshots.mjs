#!/usr/bin/env node
// Screenshots of the Pix discount where the shopper chooses the method, at 390 px in pt-BR: the
// demo storefront's payment step (docs/checkout-pix-discount-phone.png) and, with `--next`,
// apps/next-storefront's (apps/next-storefront/docs/payment-pix-discount-phone.png). The demo's
// seed turns on "5 % de desconto no Pix"; each flow checks the shown total moves with the
// method (Pix discounted, boleto full price) before it shoots Pix chosen. Starts its own demo
// (and Next.js build) on free ports, saves the PNGs and stops.
//
// Usage (after `npm run build`): node test/e2e/discount-screenshots.mjs [--next]
// The callbacks passed to page.evaluate run in the browser.
/* global window */
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium } from "./support/browser.mjs";
import { freePort, startE2eDemo } from "./support/demo.mjs";
import { startNextStorefront, toPaymentStep } from "./support/next-storefront.mjs";
import { fillCartAndShipping } from "./support/shopper.mjs";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "../..");
const phone = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 2,
  isMobile: true,
  locale: "pt-BR",
};
const withNext = process.argv.includes("--next");

/** The text of `locator` once it differs from `before`. */
async function changedText(locator, before) {
  for (let i = 0; i < 100; i += 1) {
    const text = (await locator.textContent())?.trim() ?? "";
    if (text && text !== before) return text;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the total stayed ${before}`);
}

const port = await freePort();
const demo = await startE2eDemo({
  databaseName: "pix_checkout_discount_screenshots",
  ...(withNext ? { extraStoreOrigins: [`http://127.0.0.1:${port}`] } : {}),
});
const next = withNext
  ? await startNextStorefront({
      storeUrl: demo.urls.store,
      publishableKey: demo.publishableKey,
      storefrontSecret: demo.storefrontSecret,
      port,
    })
  : undefined;
const browser = await launchChromium();
try {
  await mkdir(path.join(root, "docs"), { recursive: true });
  const page = await (await browser.newContext(phone)).newPage();
  await fillCartAndShipping(page, demo.urls.storefront, "ana.souza@example.com");
  // Pix is preselected: the discount is in the summary already.
  const offer = page.locator(".badge.discount");
  await offer.waitFor();
  if ((await offer.textContent())?.trim() !== "5 % de desconto no Pix") {
    throw new Error(`the Pix option says "${await offer.textContent()}"`);
  }
  const total = page.locator(".summary dd strong");
  await page.locator(".summary dd.discount").waitFor();
  const discounted = (await total.textContent())?.trim() ?? "";
  await page.getByRole("radio", { name: /Boleto/ }).check();
  const full = await changedText(total, discounted);
  await page.getByRole("radio", { name: /Pix/ }).check();
  if ((await changedText(total, full)) !== discounted) throw new Error("Pix did not come back");
  await page.locator("main > h2").evaluate((h) => window.scrollTo(0, h.offsetTop - 8));
  await page.evaluate("document.fonts.ready");
  await page.screenshot({ path: path.join(root, "docs/checkout-pix-discount-phone.png") });
  console.log(`saved docs/checkout-pix-discount-phone.png (Pix ${discounted}, boleto ${full})`);

  if (next) {
    const shopper = await (await browser.newContext(phone)).newPage();
    await toPaymentStep(shopper, next.url, "bruno.lima@example.com");
    await shopper.getByTestId("pix-discount-label").waitFor();
    const cartTotal = shopper.getByTestId("cart-total");
    const before = (await cartTotal.textContent())?.trim() ?? "";
    await shopper.getByTestId("payment-method-pp_pix_pix-checkout").check();
    const after = await changedText(cartTotal, before);
    // Pix chosen: the line says what the code saves against the boleto's total.
    await shopper.getByText(/5 % de desconto no Pix · você economiza R\$\s\d+,\d\d/).waitFor();
    await shopper.evaluate("document.fonts.ready");
    const file = "apps/next-storefront/docs/payment-pix-discount-phone.png";
    await shopper.screenshot({ path: path.join(root, file), fullPage: true });
    console.log(`saved ${file} (${before} → ${after} with Pix)`);
  }
} finally {
  await browser.close();
  await next?.stop();
  await demo.stop();
}
