#!/usr/bin/env node
// Pix beyond the cart, in a real Medusa dashboard and on a phone: builds a throwaway Medusa app
// with the BUILT plugin (`medusa build`: server + dashboard), pays an order by Pix through the
// sandbox, edits it through Medusa's admin routes (one more unit: a difference to pay), then
// captures into docs/:
// - admin-order-outstanding.png: the order widget's outstanding card (what the edit left owed,
//   the payment link, its QR, Copiar link, Enviar por WhatsApp, Enviar por e-mail), at 1280 px;
// - payment-page-phone.png: the page that link opens, at 390 px, with its Pix code on screen.
// Fails if a view does not render or the browser logs an error of the plugin, if the order page
// scrolls sideways at 1280 or 1024 px, or if the widget shows an English sentence of its own.
// Run `npm run build` first. Usage: node scripts/beyond-cart-screenshots.mjs
import { mkdirSync } from "node:fs";
import path from "node:path";
import { englishOnly, layoutProblems } from "./lib/admin-checks.mjs";
import { ADMIN, logInToAdmin, merchantPage, withAdminApp } from "./lib/admin-app.mjs";
import { APP_WEBHOOK_SECRET, packageDir, pixSeedScript } from "./lib/built-app.mjs";

const docs = path.join(packageDir, "docs");

// Runs inside the app (medusa exec): a product sold without inventory, and a cart of one unit
// whose Pix the script pays once the store is up.
const SEED = pixSeedScript(`
  const { result: products } = await core.createProductsWorkflow(container).run({
    input: { products: [{
      title: "Rede de descanso", status: "published",
      options: [{ title: "Cor", values: ["Natural"] }],
      sales_channels: [{ id: channels[0].id }],
      variants: [{ title: "Natural", options: { Cor: "Natural" }, manage_inventory: false,
        prices: [{ amount: 39.9, currency_code: "brl" }] }],
    }] },
  });
  const variantId = products[0].variants[0].id;
  const { result: cart } = await core.createCartWorkflow(container).run({
    input: { region_id: regions[0].id, sales_channel_id: channels[0].id, currency_code: "brl",
      email: "ana@example.com",
      billing_address: { first_name: "Ana", last_name: "Souza", address_1: "Rua Augusta",
        city: "São Paulo", province: "SP", postal_code: "01310-100", country_code: "br", phone: "11987654321" },
      items: [{ variant_id: variantId, quantity: 1 }] },
  });
  const session = await pixSession(cart.id);
  fs.writeFileSync(process.env.SEED_OUT, JSON.stringify({ publishableKey, variantId, cartId: cart.id, chargeId: session.data.charge_id }));
`);

/** Fails when the page scrolls sideways, or a plugin view holds one of `english`. */
async function checkLayout(page, where, english) {
  const problems = await layoutProblems(page, where, english);
  if (problems.length > 0) throw new Error(problems.join("\n"));
}

const app = {
  name: "pix-beyond-app",
  port: Number(process.env.ADMIN_PORT ?? 9343),
  seedScript: SEED,
};
await withAdminApp(app, async ({ url, seed, sandbox, browser }) => {
  await fetch(`${sandbox.url}/__sandbox/webhook-urls`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ url: `${url}/hooks/pix-checkout/a?token=${APP_WEBHOOK_SECRET}` }),
  });
  // The shopper pays; the plugin completes the cart into an order.
  await fetch(`${sandbox.url}/__sandbox/charges/${seed.chargeId}/pay`, { method: "POST" });
  const login = await fetch(`${url}/auth/user/emailpass`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ADMIN),
  }).then((r) => r.json());
  const admin = async (method, route, body) => {
    const response = await fetch(`${url}${route}`, {
      method,
      headers: { "content-type": "application/json", authorization: `Bearer ${login.token}` },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    if (!response.ok)
      throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  let orderId;
  for (let i = 0; !orderId; i += 1) {
    const { orders } = await admin("GET", "/admin/orders?fields=id,payment_status");
    orderId = orders.find((o) => o.payment_status === "captured")?.id;
    if (i > 150) throw new Error("the seeded cart did not become a paid order");
    if (!orderId) await new Promise((r) => setTimeout(r, 200));
  }
  // The merchant adds a second unit through an order edit: R$ 39,90 to pay.
  await admin("POST", "/admin/order-edits", { order_id: orderId });
  await admin("POST", `/admin/order-edits/${orderId}/items`, {
    items: [{ variant_id: seed.variantId, quantity: 1 }],
  });
  await admin("POST", `/admin/order-edits/${orderId}/request`);
  await admin("POST", `/admin/order-edits/${orderId}/confirm`);
  const { outstanding } = await admin("GET", `/admin/pix-checkout/orders/${orderId}`);
  if (!outstanding?.page_path)
    throw new Error(`no outstanding amount: ${JSON.stringify(outstanding)}`);

  mkdirSync(docs, { recursive: true });
  const { page, errors } = await merchantPage(browser, /PixCheckout|OutstandingCard|ChargeCard/, {
    viewport: { width: 1280, height: 1000 },
  });
  await logInToAdmin(page, url);
  const english = englishOnly();
  await page.goto(`${url}/app/orders/${orderId}`);
  const card = page.locator('[data-pix-checkout="outstanding"]');
  await card.getByText("Diferença da edição do pedido").waitFor({ timeout: 120_000 });
  await card.locator('[data-pix-checkout="outstanding-qr"]').waitFor({ timeout: 30_000 });
  await card.getByRole("link", { name: "Enviar por WhatsApp" }).waitFor();
  await card.screenshot({ path: path.join(docs, "admin-order-outstanding.png") });
  await checkLayout(page, "the order page", english);
  if (errors.length > 0) throw new Error(`browser errors: ${errors.join("\n")}`);

  // The link, opened on a phone: the page, its button, the code.
  const phone = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    locale: "pt-BR",
  });
  const customer = await phone.newPage();
  const problems = [];
  customer.on("pageerror", (error) => problems.push(error.message));
  await customer.goto(`${url}${outstanding.page_path}`);
  await customer.getByRole("button", { name: "Gerar código Pix" }).tap();
  await customer.getByRole("button", { name: "Copiar código Pix" }).waitFor({ timeout: 60_000 });
  await customer.screenshot({ path: path.join(docs, "payment-page-phone.png"), fullPage: true });
  if (problems.length > 0) throw new Error(`payment page errors: ${problems.join("\n")}`);
  await phone.close();
  process.stdout.write("wrote docs/admin-order-outstanding.png and docs/payment-page-phone.png\n");
});
