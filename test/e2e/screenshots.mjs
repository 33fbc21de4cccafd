#!/usr/bin/env node
// Screenshots of the demo store for the README: the checkout on a 390 px phone (Pix, paid, a
// boleto form refused for its CPF, the boleto, and the two-tab stories of an old code paid
// anyway: its money going back, and its money paying the cheaper cart). Starts its own demo on free ports with its own
// database, walks the flows in the system Chromium, saves PNGs under docs/ and stops. The admin's
// screenshots, in pt-BR, come from packages/medusa/scripts/admin-screenshots.mjs.
//
// Usage (after `npm run build`): node test/e2e/screenshots.mjs

// The callbacks passed to page.evaluate run in the browser.
/* global window, document */
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium } from "./support/browser.mjs";
import { startE2eDemo } from "./support/demo.mjs";
import { listCharges, newestCharge, payCharge } from "./support/sandbox-control.mjs";
import {
  checkoutView,
  confirmedOrderNumber,
  fillDelivery,
  toDelivery,
  fillCartAndShipping,
  payWithBoleto,
  payWithPix,
  submitBoleto,
} from "./support/shopper.mjs";

const docs = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../docs");
const phone = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true };

/** Saves the page once its fonts and images are in. */
async function shoot(page, name, options = {}) {
  await page.evaluate(() => document.fonts.ready);
  const file = path.join(docs, name);
  await page.screenshot({ path: file, ...options });
  console.log(`saved ${path.relative(process.cwd(), file)}`);
}

/** Waits until a (possibly smooth) scroll has come to rest. */
async function scrollSettled(page) {
  let last = -1;
  for (;;) {
    const y = await page.evaluate(
      () => new Promise((done) => setTimeout(() => done(window.scrollY), 150)),
    );
    if (y === last) return;
    last = y;
  }
}

/** The shopper scrolled to the payment element, as on a phone. */
async function showElement(page) {
  await page.locator("main > h2").evaluate((heading) => window.scrollTo(0, heading.offsetTop - 8));
}

await mkdir(docs, { recursive: true });
const demo = await startE2eDemo({
  databaseName: "pix_checkout_screenshots",
  log: (line) => console.log(line),
});
const browser = await launchChromium();
try {
  const storefront = demo.urls.storefront;
  if (!storefront) throw new Error("the demo started without its storefront");

  const pixContext = await browser.newContext(phone);
  const pixPage = await pixContext.newPage();
  await fillCartAndShipping(pixPage, storefront, "ana.souza@example.com");
  await payWithPix(pixPage);
  await showElement(pixPage);
  await shoot(pixPage, "checkout-pix-phone.png");
  const charge = await newestCharge(demo.urls.sandbox);
  await payCharge(demo.urls.sandbox, charge.uuid);
  await confirmedOrderNumber(pixPage);
  await pixPage.evaluate(() => window.scrollTo(0, 0));
  await shoot(pixPage, "checkout-paid-phone.png");
  await pixContext.close();

  const boletoContext = await browser.newContext(phone);
  const boletoPage = await boletoContext.newPage();
  await fillCartAndShipping(boletoPage, storefront, "ana.boleto@example.com");
  // The shopper's only mistake is the CPF: the submit takes them to it, with the reason.
  await submitBoleto(boletoPage, "111.111.111-11");
  await boletoPage.locator("#payer-document-error").waitFor();
  await scrollSettled(boletoPage);
  await shoot(boletoPage, "checkout-boleto-cpf-error-phone.png");
  await payWithBoleto(boletoPage);
  await showElement(boletoPage);
  await shoot(boletoPage, "checkout-boleto-phone.png");
  await boletoContext.close();

  // Two tabs, one cart. Tab 2 chooses a dearer shipping and gets a new code; the old code of
  // tab 1 is paid anyway, from the clipboard: its money goes back, the order waits for tab 2's.
  const twoTabs = await browser.newContext(phone);
  const oldTab = await twoTabs.newPage();
  await fillCartAndShipping(oldTab, storefront, "bia.duas.abas@example.com");
  await payWithPix(oldTab);
  const oldCode = await oldTab.locator('pix-checkout [part~="code"]').inputValue();
  const liveTab = await twoTabs.newPage();
  await liveTab.goto(`${storefront}/#/entrega`);
  await liveTab.getByRole("radio", { name: /SEDEX/ }).check();
  await payWithPix(liveTab);
  await checkoutView(oldTab, "superseded").waitFor();
  const old = (await listCharges(demo.urls.sandbox)).find((c) => c.pix_copy_paste === oldCode);
  await payCharge(demo.urls.sandbox, old.uuid);
  await checkoutView(oldTab, "refund_due").locator("[part~=current-code-button]").waitFor();
  await oldTab.bringToFront();
  await showElement(oldTab);
  await shoot(oldTab, "checkout-replaced-code-phone.png");
  await twoTabs.close();

  // The same, but tab 2's shipping is cheaper: the old code's money pays the cart, and the
  // confirmation names the difference coming back.
  const cheaper = await browser.newContext(phone);
  const firstTab = await cheaper.newPage();
  await toDelivery(firstTab, storefront);
  await fillDelivery(firstTab, "caio.duas.abas@example.com");
  await firstTab.getByRole("radio", { name: /SEDEX/ }).check();
  await payWithPix(firstTab);
  const firstCode = await firstTab.locator('pix-checkout [part~="code"]').inputValue();
  const secondTab = await cheaper.newPage();
  await secondTab.goto(`${storefront}/#/entrega`);
  await secondTab.getByRole("radio", { name: /PAC/ }).check();
  await payWithPix(secondTab);
  await checkoutView(firstTab, "superseded").waitFor();
  const first = (await listCharges(demo.urls.sandbox)).find((c) => c.pix_copy_paste === firstCode);
  await payCharge(demo.urls.sandbox, first.uuid);
  await firstTab.bringToFront();
  await confirmedOrderNumber(firstTab);
  await firstTab
    .getByText(/será devolvid|vai devolver/)
    .first()
    .waitFor({ timeout: 30_000 });
  await firstTab.evaluate(() => window.scrollTo(0, 0));
  await shoot(firstTab, "checkout-replaced-code-paid-phone.png");
  await cheaper.close();
} finally {
  await browser.close();
  await demo.stop();
}
