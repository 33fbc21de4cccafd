#!/usr/bin/env node
// The "Desconto no Pix" card of the Pix Checkout admin page on a 390 px phone, in pt-BR: builds
// a throwaway Medusa app with the BUILT plugin and its dashboard, logs in with Chromium, turns the
// discount on through the card itself (switch, 5 %, Salvar), checks that the store now gives it
// to a Pix cart, and saves docs/admin-pix-discount-phone.png. Fails if the card does not render,
// the save does not reach the promotion, or the browser logs an error of the plugin.
// Run `npm run build -w @pix-checkout/medusa` first. Usage: node scripts/pix-discount-screenshots.mjs
import { mkdirSync } from "node:fs";
import path from "node:path";
import { logInToAdmin, merchantPage, withAdminApp } from "./lib/admin-app.mjs";
import { packageDir, pixSeedScript } from "./lib/built-app.mjs";

const docs = path.join(packageDir, "docs");

// A cart of R$ 129,90 to check the saved setting against.
const SEED = pixSeedScript(`
  const cart = await newCart("ana@example.com", "Camiseta", 129.9);
  fs.writeFileSync(process.env.SEED_OUT, JSON.stringify({ publishableKey, cartId: cart.id }));
`);

const app = {
  name: "pix-discount-app",
  port: Number(process.env.ADMIN_PORT ?? 9342),
  seedScript: SEED,
};
await withAdminApp(app, async ({ url, seed, browser }) => {
  const { page, errors } = await merchantPage(browser, /PixDiscountCard|PixCheckout/, {
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
  });
  page.on("response", (r) => {
    if (r.url().includes("/admin/pix-checkout/pix-discount") && !r.ok()) {
      errors.push(`${r.status()} ${r.url()}`);
    }
  });
  await logInToAdmin(page, url);

  await page.goto(`${url}/app/pix-checkout#desconto-pix`);
  const card = page.locator('[data-pix-checkout="pix-discount"]');
  await card.getByText("Desconto no Pix").first().waitFor({ timeout: 60_000 });
  // The merchant turns it on: 5 % for Pix.
  await card.getByRole("switch").click();
  await card.locator("#pix-discount-amount").fill("5");
  await card.getByRole("button", { name: "Salvar" }).click();
  await card.getByText("Ver a promoção DESCONTO-PIX no Medusa").waitFor({ timeout: 30_000 });
  await card.getByText("Os clientes veem: “5 % de desconto no Pix”.").waitFor();

  // What the card saved is what a Pix cart gets.
  const chosen = await fetch(`${url}/store/pix-checkout/carts/${seed.cartId}/payment-method`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-publishable-api-key": seed.publishableKey },
    body: JSON.stringify({ method: "pix" }),
  }).then((r) => r.json());
  // 5 % of R$ 129,90 is R$ 6,495: the discount is whole cents, rounded half up (R$ 6,50).
  if (chosen.total !== 12340 || chosen.pix_discount?.saved !== 650) {
    throw new Error(`a Pix cart of R$ 129,90 got ${JSON.stringify(chosen)}`);
  }

  mkdirSync(docs, { recursive: true });
  // Toasts fade; shoot the card settled.
  await page.waitForTimeout(4_000);
  await card.scrollIntoViewIfNeeded();
  await card.screenshot({ path: path.join(docs, "admin-pix-discount-phone.png") });
  if (errors.length > 0) throw new Error(`the dashboard logged errors:\n${errors.join("\n")}`);
  process.stdout.write("wrote docs/admin-pix-discount-phone.png\n");
});
