#!/usr/bin/env node
// Renders the plugin's admin extensions in a real Medusa dashboard and screenshots them:
// builds a throwaway Medusa app with the BUILT plugin (`medusa build`: server + dashboard),
// seeds an order paid by Pix through the sandbox and one paid after the merchant canceled it,
// logs in with Chromium and captures the order page widget and the "Pix Checkout" page into
// docs/, with the "Registrar devolução" drawer open on the flagged one, and the health card
// healthy (before the late payment) and broken (the key revoked at the service). Fails if a view does not
// render or the browser logs an error, if the page or the order page scrolls sideways at 1280 or
// 1024 px, or if a plugin view shows an English sentence of its own. Run `npm run build` first. The browser's own pt-BR (native
// date inputs in dd/mm/aaaa) needs Debian's chromium-l10n; without it they read mm/dd/yyyy.
// Usage: node scripts/admin-screenshots.mjs
import { mkdirSync } from "node:fs";
import path from "node:path";
import { englishOnly, layoutProblems } from "./lib/admin-checks.mjs";
import { logInToAdmin, merchantPage, withAdminApp } from "./lib/admin-app.mjs";
import { APP_WEBHOOK_SECRET, packageDir, pixSeedScript } from "./lib/built-app.mjs";

const docs = path.join(packageDir, "docs");

// Runs inside the app (medusa exec): an order paid by Pix, a second order the merchant cancels
// before the shopper pays (its late payment is owed back), and a third cart whose shopper pays
// more than its code asked (the excess is owed back).
const SEED = pixSeedScript(`
  const cart = await newCart("ana@example.com", "Camiseta", 129.9);
  const session = await pixSession(cart.id);
  const { result: order } = await core.completeCartWorkflow(container).run({ input: { id: cart.id } });
  const late = await newCart("bruno@example.com", "Caneca", 59.9);
  const lateSession = await pixSession(late.id);
  const { result: lateOrder } = await core.completeCartWorkflow(container).run({ input: { id: late.id } });
  await core.cancelOrderWorkflow(container).run({ input: { order_id: lateOrder.id } });
  const over = await newCart("carla@example.com", "Rede de descanso", 89.9);
  const overSession = await pixSession(over.id);
  fs.writeFileSync(process.env.SEED_OUT, JSON.stringify({ publishableKey, orderId: order.id, sessionId: session.id, chargeId: session.data.charge_id, lateChargeId: lateSession.data.charge_id, lateSessionId: lateSession.id, overChargeId: overSession.data.charge_id, overSessionId: overSession.id }));
`);

/** Fails when the page scrolls sideways, or a plugin view holds one of `english`. */
async function checkLayout(page, where, english) {
  const problems = await layoutProblems(page, where, english);
  if (problems.length > 0) throw new Error(problems.join("\n"));
}

const app = {
  name: "pix-admin-app",
  port: Number(process.env.ADMIN_PORT ?? 9341),
  seedScript: SEED,
};
await withAdminApp(app, async ({ url, seed, sandbox, browser }) => {
  await fetch(`${sandbox.url}/__sandbox/webhook-urls`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ url: `${url}/hooks/pix-checkout/a?token=${APP_WEBHOOK_SECRET}` }),
  });
  // Each shopper's page shows the code before the bank app pays it, as in a store: the
  // overview's "códigos mostrados" then counts every code the scene pays.
  const sessionView = (sessionId) =>
    fetch(`${url}/store/pix-checkout/sessions/${sessionId}`, {
      headers: { "x-publishable-api-key": seed.publishableKey },
    }).then((r) => r.json());
  for (const sessionId of [seed.sessionId, seed.lateSessionId, seed.overSessionId]) {
    await sessionView(sessionId);
  }
  await fetch(`${sandbox.url}/__sandbox/charges/${seed.chargeId}/pay`, { method: "POST" });
  for (let i = 0; ; i += 1) {
    const view = await sessionView(seed.sessionId);
    if (view.status === "paid") break;
    if (i > 100) throw new Error("the seeded charge was not paid");
    await new Promise((r) => setTimeout(r, 200));
  }
  // Let the capture land on the timeline too.
  await new Promise((r) => setTimeout(r, 2_000));

  const { page, errors } = await merchantPage(
    browser,
    /PixCheckout|ChargeCard|TimelineLine|AttentionCard|BalanceCard|TransactionsCard|DeliveriesCard|HealthCard|HealthRow/,
    { viewport: { width: 1440, height: 1100 } },
  );
  // The last shot breaks the key on purpose: the balance and transactions then answer 502.
  let keyBroken = false;
  page.on("response", (r) => {
    if (r.url().includes("/admin/pix-checkout") && !r.ok() && !keyBroken) {
      errors.push(`${r.status()} ${r.url()}`);
    }
  });
  await logInToAdmin(page, url);
  const english = englishOnly();

  mkdirSync(docs, { recursive: true });
  // Healthy: one Pix paid through its webhook and captured, nothing waiting.
  const health = page.locator('[data-pix-checkout="health"]');
  await page.goto(`${url}/app/pix-checkout`);
  // All well: one line, opened by "Ver detalhes".
  await health.getByRole("button", { name: "Ver detalhes" }).click({ timeout: 60_000 });
  await health.locator('[data-health-line="webhooks"][data-health-state="ok"]').waitFor({
    timeout: 60_000,
  });
  await health.locator('[data-health-line="create_budget:a"]').waitFor({ timeout: 30_000 });
  const notOk = await health.locator('[data-health-state]:not([data-health-state="ok"])').count();
  if (notOk > 0) throw new Error(`the healthy store's card has ${notOk} line(s) not ok`);
  await health.screenshot({ path: path.join(docs, "admin-health-ok.png") });

  // The second order's shopper pays after the merchant canceled it: owed back. The third pays
  // R$ 95,00 for a code of R$ 89,90: the order is paid, R$ 5,10 is owed back.
  await fetch(`${sandbox.url}/__sandbox/charges/${seed.lateChargeId}/pay`, { method: "POST" });
  await fetch(`${sandbox.url}/__sandbox/transactions/${seed.overChargeId}/amount`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ amount: 9500 }),
  });
  await fetch(`${sandbox.url}/__sandbox/charges/${seed.overChargeId}/pay`, { method: "POST" });
  await page.goto(`${url}/app/orders/${seed.orderId}`);
  try {
    await page.getByText("Verificar agora").waitFor({ timeout: 60_000 });
  } catch (error) {
    await page.screenshot({ path: path.join(docs, "admin-failure.png"), fullPage: true });
    throw new Error(`${error.message}\nbrowser errors: ${errors.join("\n")}`);
  }
  const widget = page.locator('[data-pix-checkout="order-widget"]');
  await widget.getByText("paga").first().waitFor({ timeout: 30_000 });
  await widget.screenshot({ path: path.join(docs, "admin-order-widget.png") });
  await checkLayout(page, "the order page", english);
  await page.setViewportSize({ width: 1440, height: 1100 });

  // The webhooks have a tab of their own.
  await page.goto(`${url}/app/pix-checkout#webhooks`);
  await page.getByText("Webhooks recebidos").waitFor({ timeout: 60_000 });
  await page.getByText("charge.paid").first().waitFor({ timeout: 30_000 });
  await checkLayout(page, "the webhooks tab", english);
  await page.setViewportSize({ width: 1440, height: 1100 });
  await page.getByRole("tab", { name: "Visão geral" }).click();
  await page.locator('[data-pix-checkout="overview-today"]').waitFor({ timeout: 30_000 });
  // The seeded late payment, flagged for the merchant.
  await page
    .locator('[data-pix-checkout="attention"] tbody tr')
    .first()
    .waitFor({ timeout: 30_000 });
  await page.screenshot({ path: path.join(docs, "admin-pix-checkout-page.png"), fullPage: true });
  await checkLayout(page, "the overview", english);
  await page.setViewportSize({ width: 1440, height: 1100 });
  // The balance and the first transaction page come from the payment API (the sandbox).
  await page.getByRole("tab", { name: "Transações e saldo" }).click();
  await page
    .locator('[data-pix-checkout="balance"]')
    .getByText(/R\$/)
    .first()
    .waitFor({ timeout: 30_000 });
  await page
    .locator('[data-pix-checkout="transactions"] tbody tr')
    .first()
    .waitFor({ timeout: 30_000 });
  // The ledger beside the account's balance, and the owed money named in its rows.
  await page.locator('[data-pix-checkout="balance-ledger"]').waitFor({ timeout: 30_000 });
  await page
    .locator('[data-pix-checkout="transactions"]')
    .getByText("A devolver")
    .first()
    .waitFor({ timeout: 30_000 });
  await page.screenshot({ path: path.join(docs, "admin-transactions.png"), fullPage: true });
  await checkLayout(page, "the transactions tab", english);
  await page.setViewportSize({ width: 1440, height: 1100 });
  await page.getByRole("tab", { name: "Conciliação" }).click();
  await page.locator('[data-pix-checkout="export-period"]').waitFor({ timeout: 30_000 });
  await checkLayout(page, "the reconciliation tab", english);
  await page.setViewportSize({ width: 1440, height: 1100 });
  await page.getByRole("tab", { name: "Visão geral" }).click();
  // What the merchant does about it: record the refund made in the service's dashboard.
  await page
    .locator('[data-pix-checkout="attention"]')
    .getByRole("button", { name: "Registrar devolução" })
    .first()
    .click();
  await page.getByText("Registrar uma devolução feita").waitFor({ timeout: 30_000 });
  await page.getByLabel("Como foi devolvido").fill("Devolução Pix pelo painel em 23/11");
  const save = page.getByRole("dialog").getByRole("button", { name: "Registrar devolução" });
  await save.waitFor({ timeout: 30_000 });
  // The drawer slides in; shoot it settled, with the amount due and a note ready to save.
  await page.waitForTimeout(600);
  if (!(await save.isEnabled())) throw new Error("Registrar devolução stays disabled with a note");
  await page.screenshot({ path: path.join(docs, "admin-record-refund.png") });

  // Broken: the service stops accepting the key, and the late payment waits in the flags.
  keyBroken = true;
  await fetch(`${sandbox.url}/__sandbox/keys`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ key: "sk_live_sandbox_default", state: "revoked" }),
  });
  await page.goto(`${url}/app/pix-checkout`);
  await health.locator('[data-health-line="service:a"][data-health-state="broken"]').waitFor({
    timeout: 60_000,
  });
  await health.locator('[data-health-line="attention"][data-health-state="warning"]').waitFor({
    timeout: 30_000,
  });
  await health.screenshot({ path: path.join(docs, "admin-health-broken.png") });
  if (errors.length > 0) throw new Error(`the dashboard logged errors:\n${errors.join("\n")}`);
  process.stdout.write(
    `wrote docs/admin-order-widget.png, docs/admin-pix-checkout-page.png, docs/admin-transactions.png, docs/admin-record-refund.png, docs/admin-health-ok.png and docs/admin-health-broken.png (order ${seed.orderId}); no sideways scroll at 1280 and 1024 px, no English\n`,
  );
});
