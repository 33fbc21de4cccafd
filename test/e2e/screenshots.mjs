#!/usr/bin/env node
// Screenshots of the demo store for the README: the checkout at phone size (Pix, boleto, paid)
// and the admin order page with the plugin's widget. Starts its own demo on free ports with its
// own database, walks the flows in the system Chromium, saves PNGs under docs/ and stops.
//
// Usage (after `npm run build`): node test/e2e/screenshots.mjs

// The callbacks passed to page.evaluate run in the browser.
/* global window, document */
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { adminToken, listOrders } from "./support/admin-api.mjs";
import { launchChromium } from "./support/browser.mjs";
import { startE2eDemo } from "./support/demo.mjs";
import { newestCharge, payCharge } from "./support/sandbox-control.mjs";
import {
  confirmedOrderNumber,
  fillCartAndShipping,
  payWithBoleto,
  payWithPix,
} from "./support/shopper.mjs";

const docs = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../docs");
const phone = { viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true };
/** The admin's first visit compiles it with Vite (about 40 s on a busy machine). */
const ADMIN_COMPILE_MS = 240_000;

/** Saves the page once its fonts and images are in. */
async function shoot(page, name, options = {}) {
  await page.evaluate(() => document.fonts.ready);
  const file = path.join(docs, name);
  await page.screenshot({ path: file, ...options });
  console.log(`saved ${path.relative(process.cwd(), file)}`);
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
  const orderNumber = await confirmedOrderNumber(pixPage);
  await pixPage.evaluate(() => window.scrollTo(0, 0));
  await shoot(pixPage, "checkout-paid-phone.png");
  await pixContext.close();

  const boletoContext = await browser.newContext(phone);
  const boletoPage = await boletoContext.newPage();
  await fillCartAndShipping(boletoPage, storefront, "ana.boleto@example.com");
  await payWithBoleto(boletoPage);
  await showElement(boletoPage);
  await shoot(boletoPage, "checkout-boleto-phone.png");
  await boletoContext.close();

  const token = await adminToken(demo.urls.store, demo.admin);
  const order = (await listOrders(demo.urls.store, token)).find(
    (o) => o.display_id === orderNumber,
  );
  if (!order) throw new Error(`order #${orderNumber} is not in the admin`);

  const adminContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const admin = await adminContext.newPage();
  console.log("opening the admin (its first visit compiles it)…");
  await admin.goto(`${demo.urls.store}/app/login`, { timeout: ADMIN_COMPILE_MS });
  await admin.locator('input[name="email"]').waitFor({ timeout: ADMIN_COMPILE_MS });
  await admin.fill('input[name="email"]', demo.admin.email);
  await admin.fill('input[name="password"]', demo.admin.password);
  await admin.click('button[type="submit"]');
  await admin.waitForURL((url) => !url.pathname.endsWith("/login"), { timeout: 60_000 });
  await admin.goto(`${demo.urls.store}/app/orders/${order.id}`);
  const widget = admin.locator('[data-pix-checkout="order-widget"]');
  await widget.getByText("captured").first().waitFor({ timeout: 60_000 });
  await widget.scrollIntoViewIfNeeded();
  await shoot(admin, "admin-order-widget.png");
  await adminContext.close();
} finally {
  await browser.close();
  await demo.stop();
}
