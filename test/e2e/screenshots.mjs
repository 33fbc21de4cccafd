#!/usr/bin/env node
// Screenshots of the demo store for the README: the checkout on a 390 px phone (Pix, paid, a
// boleto form refused for its CPF, the boleto, and the two-tab stories of an old code paid
// anyway: its money going back, and its money paying the cheaper cart). Starts its own demo on free ports with its own
// database, walks the flows in the system Chromium, saves PNGs under docs/ and stops. The admin's
// screenshots, in pt-BR, come from packages/medusa/scripts/admin-screenshots.mjs.
//
// Usage (after `npm run build`): node test/e2e/screenshots.mjs [flow …], where the flows
// (all by default) are pix, boleto, two-tabs, cheaper, underpaid, canceled, edited-up and
// sold-out (which waits several minutes for the store to give the paid cart up).

// The callbacks passed to page.evaluate run in the browser.
/* global window, document */
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium } from "./support/browser.mjs";
import { startE2eDemo } from "./support/demo.mjs";
import { adminCall, adminToken, listOrders } from "./support/admin-api.mjs";
import { withOneUnitLeft } from "./support/last-unit.mjs";
import { listCharges, newestCharge, payCharge, setPaidAmount } from "./support/sandbox-control.mjs";
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

/** The element's words once they are on screen (its notices come in a chunk of their own). */
async function elementSays(page, text) {
  await page.locator("pix-checkout").getByText(text).first().waitFor({ timeout: 60_000 });
}

const only = process.argv.slice(2);
const wants = (flow) => only.length === 0 || only.includes(flow);

await mkdir(docs, { recursive: true });
const demo = await startE2eDemo({
  databaseName: "pix_checkout_screenshots",
  log: (line) => console.log(line),
});
const browser = await launchChromium();
try {
  const storefront = demo.urls.storefront;
  if (!storefront) throw new Error("the demo started without its storefront");

  if (wants("pix")) {
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
  }

  if (wants("boleto")) {
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
  }

  if (wants("two-tabs")) {
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
  }

  if (wants("cheaper")) {
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
    const first = (await listCharges(demo.urls.sandbox)).find(
      (c) => c.pix_copy_paste === firstCode,
    );
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
  }
  const token = await adminToken(demo.urls.store, demo.admin);
  /** Medusa's order with this number, as the merchant finds it. */
  const orderNumbered = async (displayId) => {
    const listed = (await listOrders(demo.urls.store, token)).find(
      (order) => order.display_id === displayId,
    );
    if (!listed) throw new Error(`the admin lists no order #${displayId}`);
    const route = `/admin/orders/${listed.id}?fields=id,display_id,*items`;
    return (await adminCall(demo.urls.store, token, "GET", route)).order;
  };

  // The bank pays the Pix short: what arrived of what the code asked, and the store decides.
  if (wants("underpaid")) {
    const context = await browser.newContext(phone);
    const page = await context.newPage();
    await fillCartAndShipping(page, storefront, "davi.pix.menor@example.com");
    await payWithPix(page);
    const asked = await page.evaluate(() => document.querySelector("pix-checkout").session.amount);
    const charge = await newestCharge(demo.urls.sandbox);
    await setPaidAmount(demo.urls.sandbox, charge.uuid, asked - 1000);
    await payCharge(demo.urls.sandbox, charge.uuid);
    await checkoutView(page, "held").waitFor({ timeout: 60_000 });
    await elementSays(page, /Recebemos/);
    // "Não pague de novo antes disso": the page offers no way back to pay while the store decides.
    await page
      .getByRole("button", { name: "Voltar ao pagamento" })
      .waitFor({ state: "detached", timeout: 10_000 });
    await showElement(page);
    await shoot(page, "checkout-underpaid-phone.png");
    await context.close();
  }

  // A boleto order on screen, and the merchant cancels it in the admin: the page's code ends.
  if (wants("canceled")) {
    const context = await browser.newContext(phone);
    const page = await context.newPage();
    await fillCartAndShipping(page, storefront, "eva.boleto.cancelado@example.com");
    const displayId = await payWithBoleto(page);
    const order = await orderNumbered(displayId);
    await adminCall(demo.urls.store, token, "POST", `/admin/orders/${order.id}/cancel`);
    await checkoutView(page, "canceled").waitFor({ timeout: 90_000 });
    await elementSays(page, `#${displayId}`);
    await showElement(page);
    await shoot(page, "checkout-boleto-canceled-phone.png");
    await context.close();
  }

  // A paid Pix order, then the merchant edits it up (one more unit): the order's page says
  // what it still owes.
  if (wants("edited-up")) {
    const context = await browser.newContext(phone);
    const page = await context.newPage();
    await fillCartAndShipping(page, storefront, "fabio.pedido.editado@example.com");
    await payWithPix(page);
    const charge = await newestCharge(demo.urls.sandbox);
    await payCharge(demo.urls.sandbox, charge.uuid);
    const displayId = await confirmedOrderNumber(page);
    const order = await orderNumbered(displayId);
    const [item] = order.items;
    const edit = (route, body) =>
      adminCall(demo.urls.store, token, "POST", `/admin/order-edits${route}`, body);
    await edit("", { order_id: order.id });
    await edit(`/${order.id}/items/item/${item.id}`, { quantity: item.quantity + 1 });
    await edit(`/${order.id}/request`);
    await edit(`/${order.id}/confirm`);
    await page.reload();
    await page.locator("main > h2", { hasText: "Pedido aguardando pagamento" }).waitFor();
    await elementSays(page, /a pagar/);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shoot(page, "checkout-edited-up-phone.png");
    await context.close();
  }

  // Two shoppers, the last unit: both carts get a code, the first pays and takes the unit; the
  // second pays after it. The store tries that cart a few times (its reconciliation, a minute or
  // so apart) before it owes the money back as sold out. Last: it leaves the shelf nearly empty.
  if (wants("sold-out")) {
    const first = await browser.newContext(phone);
    const firstPage = await first.newPage();
    await fillCartAndShipping(firstPage, storefront, "gabi.ultima.unidade@example.com");
    await payWithPix(firstPage);
    const firstCode = await firstPage.locator('pix-checkout [part~="code"]').inputValue();
    const second = await browser.newContext(phone);
    const secondPage = await second.newPage();
    await fillCartAndShipping(secondPage, storefront, "hugo.esgotado@example.com");
    await payWithPix(secondPage);
    const secondCode = await secondPage.locator('pix-checkout [part~="code"]').inputValue();
    // One unit left of everything while both pay (put back afterwards).
    await withOneUnitLeft(demo.urls.store, token, async () => {
      const charges = await listCharges(demo.urls.sandbox);
      const chargeOf = (code) => charges.find((c) => c.pix_copy_paste === code);
      await payCharge(demo.urls.sandbox, chargeOf(firstCode).uuid);
      await confirmedOrderNumber(firstPage);
      await payCharge(demo.urls.sandbox, chargeOf(secondCode).uuid);
      await secondPage.bringToFront();
      await checkoutView(secondPage, "refund_due").waitFor({ timeout: 12 * 60_000 });
      await elementSays(secondPage, /esgotou/);
      await showElement(secondPage);
      await shoot(secondPage, "checkout-sold-out-phone.png");
    });
    await first.close();
    await second.close();
  }
} finally {
  await browser.close();
  await demo.stop();
}
