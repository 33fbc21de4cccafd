#!/usr/bin/env node
// Renders the plugin's admin extensions in a real Medusa dashboard and screenshots them:
// builds a throwaway Medusa app with the BUILT plugin (`medusa build`: server + dashboard),
// seeds an order paid by Pix through the sandbox, one paid after the merchant canceled it and
// one kept although its code could never be made, logs in with Chromium and captures into
// docs/ the order page widget (of the paid order, and of the kept one), the "Pix Checkout" page
// and its "Precisa de atenção" at 1024 px, with the "Registrar devolução" drawer open on the
// flagged one, and the health card healthy (before the late payment) and broken (the key
// revoked at the service). Fails if a view does not render or the browser logs an error, if the
// page or an order page scrolls sideways at 1280 or 1024 px, or if a plugin view shows an
// English sentence of its own. Run `npm run build` first. The browser's own pt-BR (native
// date inputs in dd/mm/aaaa) needs Debian's chromium-l10n; without it they read mm/dd/yyyy.
// Usage: node scripts/admin-screenshots.mjs
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { englishOnly, layoutProblems } from "./lib/admin-checks.mjs";
import { logInToAdmin, merchantPage, withAdminApp } from "./lib/admin-app.mjs";
import { APP_WEBHOOK_SECRET, packageDir, pixSeedScript } from "./lib/built-app.mjs";

const { knex } = createRequire(path.join(packageDir, "package.json"))(
  "@medusajs/framework/mikro-orm/knex",
);

const docs = path.join(packageDir, "docs");

// Runs inside the app (medusa exec): an order paid by Pix, a second order the merchant cancels
// before the shopper pays (its late payment is owed back), a third cart whose shopper pays
// more than its code asked (the excess is owed back), and a fourth order placed while its Pix
// waited in the create line (the minute's creates spent, as in a busy minute), whose create
// fails for good once the healthy card is taken: the store keeps such orders
// (`cancelOrderOnExpiry` off), and "Precisa de atenção" lists it. The minute is spent with rows
// of the line's own table, given back once the order exists; the create then stays failed with
// no end time, which neither the line nor the reconciliation reads, until the shot ends it.
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
  const db = container.resolve("__pg_connection__");
  const requests = () => db("pix_checkout_create_request");
  const { budget_key: budgetKey } = await requests().first();
  await requests().insert(Array.from({ length: 60 }, (_, i) => ({ id: "pxcr_shots_" + i, budget_key: budgetKey, provider_key: "a", provider_id: "pp_pix_a", method: "pix", session_id: "payses_shots_" + i, amount_cents: 100, state: "done", done_at: db.fn.now() })));
  const kept = await newCart("diego@example.com", "Cadeira de escritório", 349.9);
  const { result: keptCollection } = await core.createPaymentCollectionForCartWorkflow(container).run({ input: { cart_id: kept.id } });
  const { result: keptSession } = await core.createPaymentSessionsWorkflow(container).run({
    input: { payment_collection_id: keptCollection.id, provider_id: "pp_pix_a", data: {} },
  });
  if (keptSession.data?.status !== "preparing") throw new Error("the fourth code did not wait in line: " + JSON.stringify(keptSession.data));
  const { result: keptOrder } = await core.completeCartWorkflow(container).run({ input: { id: kept.id } });
  await requests().where({ session_id: keptSession.id }).update({ state: "failed", input: null, attempts: 1, error_code: "charge_outcome_unknown", error_message: "The create was interrupted and no charge of it was found; take a new code." });
  await requests().where("id", "like", "pxcr_shots_%").delete();
  fs.writeFileSync(process.env.SEED_OUT, JSON.stringify({ publishableKey, orderId: order.id, sessionId: session.id, chargeId: session.data.charge_id, lateChargeId: lateSession.data.charge_id, lateSessionId: lateSession.id, overChargeId: overSession.data.charge_id, overSessionId: overSession.id, keptOrderId: keptOrder.id, keptSessionId: keptSession.id }));
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
  // A create that fails after its cart became an order keeps the order for the merchant.
  providerOptions: { cancelOrderOnExpiry: false },
};
await withAdminApp(app, async ({ url, seed, sandbox, browser, databaseUrl }) => {
  await fetch(`${sandbox.url}/__sandbox/webhook-urls`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ url: `${url}/hooks/pix-checkout/a?token=${APP_WEBHOOK_SECRET}` }),
  });
  // Each shopper's page shows the code before the bank app pays it, as in a store, and says so
  // as the element does (a GET of the status records nothing): the overview's "códigos
  // mostrados" then counts every code the scene pays.
  const store = { "x-publishable-api-key": seed.publishableKey };
  const sessionView = (sessionId) =>
    fetch(`${url}/store/pix-checkout/sessions/${sessionId}`, { headers: store }).then((r) =>
      r.json(),
    );
  for (const sessionId of [seed.sessionId, seed.lateSessionId, seed.overSessionId]) {
    const shown = await fetch(`${url}/store/pix-checkout/sessions/${sessionId}/shown`, {
      method: "POST",
      headers: store,
    });
    if (shown.status !== 204)
      throw new Error(`the shopper's page could not say it shows ${sessionId}: ${shown.status}`);
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

  // The fourth order's create ends failed, two minutes ago: the reconciliation (every 15 s)
  // decides about its order, which the store keeps and lists.
  const db = knex({ client: "pg", connection: databaseUrl });
  try {
    const keptRequest = () =>
      db("pix_checkout_create_request").where({ session_id: seed.keptSessionId });
    await keptRequest().update({ done_at: db.raw("now() - interval '2 minutes'") });
    for (let i = 0; !(await keptRequest().first()).failure_decided_at; i += 1) {
      if (i > 120) throw new Error("the failed create's order was not decided in 60 s");
      await new Promise((r) => setTimeout(r, 500));
    }
  } finally {
    await db.destroy();
  }

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

  // The kept order's page: no charge, what it owes and the link that makes a new code.
  await page.goto(`${url}/app/orders/${seed.keptOrderId}`);
  const outstanding = page.locator('[data-pix-checkout="outstanding"]');
  await outstanding.getByText("Valor em aberto do pedido").waitFor({ timeout: 60_000 });
  await outstanding.locator('[data-pix-checkout="outstanding-qr"]').waitFor({ timeout: 30_000 });
  await widget.screenshot({ path: path.join(docs, "admin-order-without-code.png") });
  await checkLayout(page, "the kept order's page", english);
  await page.setViewportSize({ width: 1440, height: 1100 });

  // The webhooks have a tab of their own.
  await page.goto(`${url}/app/pix-checkout#webhooks`);
  await page.getByText("Webhooks recebidos").waitFor({ timeout: 60_000 });
  await page.getByText("charge.paid").first().waitFor({ timeout: 30_000 });
  await checkLayout(page, "the webhooks tab", english);
  await page.setViewportSize({ width: 1440, height: 1100 });
  await page.getByRole("tab", { name: "Visão geral" }).click();
  await page.locator('[data-pix-checkout="overview-today"]').waitFor({ timeout: 30_000 });
  // The seeded late payment, flagged for the merchant, and the order kept without a code.
  const attention = page.locator('[data-pix-checkout="attention"]');
  await attention.locator("tbody tr").first().waitFor({ timeout: 30_000 });
  await attention.locator('[data-pix-checkout="order-without-code"]').waitFor({ timeout: 30_000 });
  await page.screenshot({ path: path.join(docs, "admin-pix-checkout-page.png"), fullPage: true });
  await checkLayout(page, "the overview", english);
  // "Precisa de atenção" at the narrowest admin width it must fit (checkLayout left it there).
  await attention.screenshot({ path: path.join(docs, "admin-attention-1024.png") });
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
  // Where the amount will be recorded (Medusa's order, or only Pix Checkout, and why).
  await page
    .locator('[data-pix-checkout="refund-where"]')
    .getByText(/ficam registrados/)
    .first()
    .waitFor({ timeout: 30_000 });
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
    `wrote docs/admin-order-widget.png, docs/admin-order-without-code.png, docs/admin-pix-checkout-page.png, docs/admin-attention-1024.png, docs/admin-transactions.png, docs/admin-record-refund.png, docs/admin-health-ok.png and docs/admin-health-broken.png (order ${seed.orderId}); no sideways scroll at 1280 and 1024 px, no English\n`,
  );
});
