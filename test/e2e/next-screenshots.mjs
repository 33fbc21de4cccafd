#!/usr/bin/env node
// Screenshots of apps/next-storefront (the DTC starter's checkout with the guide's code) at
// phone size, for its README and the guide: the review step with the Pix code, the same step
// once that code expired ("Gerar novo código"), the boleto payer fields with the message for the
// missing ones, a boleto order's confirmation page while it awaits payment and once the merchant
// canceled the order, the review step after the bank paid the Pix short, and a paid Pix order's
// page once the merchant edited the order up, and the review step of a shopper who paid for the
// last unit after another did (sold out). Starts its own demo and Next.js build on free ports,
// walks the flows in the system Chromium, saves PNGs and stops.
//
// Usage (after `npm run build`): node test/e2e/next-screenshots.mjs
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium } from "./support/browser.mjs";
import { freePort, startE2eDemo } from "./support/demo.mjs";
import { fillBoletoPayer, startNextStorefront, toPaymentStep } from "./support/next-storefront.mjs";
import { adminCall, adminToken } from "./support/admin-api.mjs";
import { withOneUnitLeft } from "./support/last-unit.mjs";
import {
  expireCharge,
  listCharges,
  newestCharge,
  payCharge,
  setPaidAmount,
} from "./support/sandbox-control.mjs";
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
  // The merchant cancels the order in the admin while its page is open: the boleto ends with it.
  const token = await adminToken(demo.urls.store, demo.admin);
  const orderId = /\/order\/([^/]+)\/confirmed/.exec(boleto.url())[1];
  await adminCall(demo.urls.store, token, "POST", `/admin/orders/${orderId}/cancel`);
  await checkoutView(boleto, "canceled").waitFor({ timeout: 90_000 });
  // The element says it first; the page, rendered again, then says it in its heading (and
  // shows no code any more), never "Obrigado!" for a canceled order.
  await boleto.getByRole("heading", { name: "Pedido cancelado" }).waitFor({ timeout: 30_000 });
  await boleto
    .getByText(/Seu pedido #\d+ foi cancelado\./)
    .first()
    .waitFor();
  await shoot(boleto, "order-boleto-canceled-phone.png");

  // The bank pays the Pix short: the review step says what arrived of what the code asked.
  const short = await (await browser.newContext(phone)).newPage();
  await toPaymentStep(short, next.url, "carla.pix.menor@example.com");
  await short.getByTestId("payment-method-pp_pix_pix-checkout").check();
  await short.getByTestId("submit-payment-button").click();
  await short.waitForURL(/step=review/);
  await checkoutView(short, "pending").locator('[part~="code"]').waitFor();
  const asked = await short.evaluate("document.querySelector('pix-checkout').session.amount");
  const charge = await newestCharge(demo.urls.sandbox);
  await setPaidAmount(demo.urls.sandbox, charge.uuid, asked - 1000);
  await payCharge(demo.urls.sandbox, charge.uuid);
  await checkoutView(short, "held").waitFor({ timeout: 60_000 });
  await short
    .locator("pix-checkout")
    .getByText(/Recebemos/)
    .first()
    .waitFor();
  await shoot(short, "review-pix-underpaid-phone.png");

  // A paid Pix order the merchant edits up (one more unit): its page says what it still owes.
  const edited = await (await browser.newContext(phone)).newPage();
  await toPaymentStep(edited, next.url, "diego.pedido.editado@example.com");
  await edited.getByTestId("payment-method-pp_pix_pix-checkout").check();
  await edited.getByTestId("submit-payment-button").click();
  await edited.waitForURL(/step=review/);
  await checkoutView(edited, "pending").locator('[part~="code"]').waitFor();
  await payCharge(demo.urls.sandbox, (await newestCharge(demo.urls.sandbox)).uuid);
  await edited.waitForURL(/\/order\/.+\/confirmed/, { timeout: 60_000 });
  const paidId = /\/order\/([^/]+)\/confirmed/.exec(edited.url())[1];
  const { order } = await adminCall(
    demo.urls.store,
    token,
    "GET",
    `/admin/orders/${paidId}?fields=id,*items`,
  );
  const edit = (route, body) =>
    adminCall(demo.urls.store, token, "POST", `/admin/order-edits${route}`, body);
  await edit("", { order_id: paidId });
  const [item] = order.items;
  await edit(`/${paidId}/items/item/${item.id}`, { quantity: item.quantity + 1 });
  await edit(`/${paidId}/request`);
  await edit(`/${paidId}/confirm`);
  await edited.reload();
  await edited
    .locator("pix-checkout")
    .getByText(/a pagar/)
    .first()
    .waitFor({ timeout: 60_000 });
  await shoot(edited, "order-pix-edited-up-phone.png");

  // Two shoppers, the last unit: the first pays and takes it, the second pays after. The store
  // tries that cart a few times before it owes the money back as sold out. Last: it leaves the
  // shelf nearly empty.
  const pixReview = async (email) => {
    const page = await (await browser.newContext(phone)).newPage();
    await toPaymentStep(page, next.url, email);
    await page.getByTestId("payment-method-pp_pix_pix-checkout").check();
    await page.getByTestId("submit-payment-button").click();
    await page.waitForURL(/step=review/);
    const code = await page.locator('pix-checkout [part~="code"]').inputValue();
    return { page, code };
  };
  const firstBuyer = await pixReview("gabi.ultima.unidade@example.com");
  const lastBuyer = await pixReview("hugo.esgotado@example.com");
  // One unit left of everything while both pay (put back afterwards).
  await withOneUnitLeft(demo.urls.store, token, async () => {
    const charges = await listCharges(demo.urls.sandbox);
    const chargeOf = (code) => charges.find((c) => c.pix_copy_paste === code);
    await payCharge(demo.urls.sandbox, chargeOf(firstBuyer.code).uuid);
    await firstBuyer.page.waitForURL(/\/order\/.+\/confirmed/, { timeout: 60_000 });
    await payCharge(demo.urls.sandbox, chargeOf(lastBuyer.code).uuid);
    await lastBuyer.page.bringToFront();
    await checkoutView(lastBuyer.page, "refund_due").waitFor({ timeout: 12 * 60_000 });
    await lastBuyer.page
      .locator("pix-checkout")
      .getByText(/esgotou/)
      .first()
      .waitFor();
    await shoot(lastBuyer.page, "review-pix-sold-out-phone.png");
  });
} finally {
  await browser.close();
  await next.stop();
  await demo.stop();
}
