#!/usr/bin/env node
// Screenshots of apps/next-storefront (the DTC starter's checkout with the guide's code) at
// phone size, for its README and the guide: the review step with the Pix code, the same step
// once that code expired ("Gerar novo código"), the boleto payer fields with the message for the
// missing ones, and a boleto order's confirmation page while it awaits payment. Starts its own
// demo and Next.js build on free ports, walks the flows in the system Chromium, saves PNGs and
// stops.
//
// Usage (after `npm run build`): node test/e2e/next-screenshots.mjs
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium } from "./support/browser.mjs";
import { freePort, startE2eDemo } from "./support/demo.mjs";
import { fillBoletoPayer, startNextStorefront, toPaymentStep } from "./support/next-storefront.mjs";
import { expireCharge, newestCharge } from "./support/sandbox-control.mjs";
import { checkoutView } from "./support/shopper.mjs";

const docs = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../apps/next-storefront/docs",
);
const phone = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true };

await mkdir(docs, { recursive: true });
const port = await freePort();
const demo = await startE2eDemo({
  databaseName: "pix_checkout_screenshots",
  extraStoreOrigins: [`http://127.0.0.1:${port}`],
});
const next = await startNextStorefront({
  storeUrl: demo.urls.store,
  publishableKey: demo.publishableKey,
  storefrontSecret: demo.storefrontSecret,
  port,
});
const browser = await launchChromium();
try {
  async function shoot(page, name) {
    await page.evaluate("document.fonts.ready");
    await page.screenshot({ path: path.join(docs, name), fullPage: true });
    console.log(`saved apps/next-storefront/docs/${name}`);
  }

  const pix = await (await browser.newContext(phone)).newPage();
  await toPaymentStep(pix, next.url, "ana.souza@example.com");
  await pix.getByTestId("payment-method-pp_pix_pix-checkout").check();
  await pix.getByTestId("submit-payment-button").click();
  await pix.waitForURL(/step=review/);
  await checkoutView(pix, "pending").locator('[part~="code"]').waitFor();
  await shoot(pix, "review-pix-phone.png");
  await expireCharge(demo.urls.sandbox, (await newestCharge(demo.urls.sandbox)).uuid);
  await pix.getByRole("button", { name: "Gerar novo código" }).waitFor();
  await shoot(pix, "review-pix-expired-phone.png");

  const boleto = await (await browser.newContext(phone)).newPage();
  await toPaymentStep(boleto, next.url, "bruno.lima@example.com");
  await boleto.getByTestId("payment-method-pp_boleto_pix-checkout").check();
  await boleto.getByTestId("buyer-document-input").fill("529.982.247-25");
  await boleto.getByTestId("submit-payment-button").click();
  await boleto.getByTestId("payment-method-error-message").waitFor();
  await shoot(boleto, "payment-boleto-phone.png");
  await fillBoletoPayer(boleto);
  await boleto.getByTestId("submit-payment-button").click();
  await boleto.waitForURL(/step=review/);
  await boleto.getByTestId("submit-order-button").click();
  await boleto.waitForURL(/\/order\/.+\/confirmed/);
  await checkoutView(boleto, "pending").locator('[part~="barcode"]').waitFor();
  await shoot(boleto, "order-boleto-phone.png");
} finally {
  await browser.close();
  await next.stop();
  await demo.stop();
}
