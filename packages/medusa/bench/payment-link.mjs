#!/usr/bin/env node
// Pix beyond the cart, on the BUILT server (run `npm run build` first), one `medusa start`:
// orders that owe money after the sale, each with the payment collection Medusa's "Copy
// payment link" points at, paid from the plugin's page in Chromium at 390 px, as a customer's
// phone opens the link the merchant sent:
// - "Copy payment link → code on screen": from opening the link (a fresh browser context, no
//   cache) until the Pix code is on screen, split into the page being ready to tap (title,
//   amount and "Gerar código Pix") and the tap to the code (Medusa's store route, the create,
//   the element loading the session);
// - "payment → Pagamento confirmado": from the sandbox paying the charge (it fires the webhook)
//   until the page says "Pagamento confirmado" with the order number.
// p50, p95 and max of each. Usage: node bench/payment-link.mjs (BENCH_OUT=file.json also
// writes the figures). Env: BENCH_LINKS (default 20), CHROMIUM_PATH (default /usr/bin/chromium).
/* global document */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";
import { percentile } from "./lib/http-tools.mjs";
import { createBenchApp } from "./lib/bench-app.mjs";
import { APP_WEBHOOK_SECRET, medusa, writeFiles } from "../scripts/lib/built-app.mjs";

// BENCH_SMOKE (`npm run bench -- --smoke`, run by `npm test`): a few requests, to prove it runs.
const smoke = Boolean(process.env.BENCH_SMOKE);

const links = Number(process.env.BENCH_LINKS ?? (smoke ? 2 : 20));

// Runs inside the app (medusa exec): orders made in the admin's way (a converted draft: an
// order with no cart), each given a payment collection for its total through Medusa's own
// workflow, as "Cobrar por Pix" or `POST /admin/payment-collections` does.
const ORDERS = `const core = require("@medusajs/medusa/core-flows");
const fs = require("node:fs");
exports.default = async function orders({ container }) {
  const query = container.resolve("query");
  const { data: regions } = await query.graph({ entity: "region", fields: ["id"], filters: { currency_code: "brl" } });
  const { data: channels } = await query.graph({ entity: "sales_channel", fields: ["id"] });
  const out = [];
  for (let i = 0; i < Number(process.env.BENCH_LINKS); i += 1) {
    const { result: order } = await core.createOrderWorkflow(container).run({
      input: {
        region_id: regions[0].id,
        sales_channel_id: channels[0].id,
        currency_code: "brl",
        email: "link" + i + "@example.com",
        items: [{ title: "Rede de descanso", quantity: 1, unit_price: 89.9, requires_shipping: false }],
      },
    });
    const { result: collections } = await core.createOrderPaymentCollectionWorkflow(container).run({
      input: { order_id: order.id, amount: 89.9 },
    });
    out.push({ order_id: order.id, display_id: order.display_id, collection_id: collections[0].id });
  }
  fs.writeFileSync(process.env.BENCH_ORDERS_OUT, JSON.stringify(out));
};
`;

const { startSandbox } = await import("@pix-checkout/sandbox");
const sandbox = await startSandbox({ variant: "a" });
// Every link is opened from this machine: one client to the create line, which would hold a
// store's fourth code of a minute back (`fairness.clientCreatesPerMinute`, 3 by default).
process.env.BENCH_PLUGIN_OPTIONS = JSON.stringify({
  fairness: { clientCreatesPerMinute: 60, clientWaitingMax: 1000, emailWaitingMax: 100 },
});
const app = await createBenchApp({ apiKey: sandbox.defaultKey, baseUrl: sandbox.baseUrl });
let browser;
try {
  writeFiles(app.dir, { "src/scripts/orders.js": ORDERS });
  const ordersOut = path.join(app.dir, "orders.json");
  await medusa(["exec", "./src/scripts/orders.js"], {
    cwd: app.dir,
    // One more than measured: the first warms the server's routes up, unmeasured.
    env: { ...app.env, BENCH_LINKS: String(links + 1), BENCH_ORDERS_OUT: ordersOut },
  });
  const orders = JSON.parse((await import("node:fs")).readFileSync(ordersOut, "utf8"));
  const { url } = await app.start(9471);
  await fetch(`${sandbox.url}/__sandbox/webhook-urls`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ url: `${url}/hooks/pix-checkout/a?token=${APP_WEBHOOK_SECRET}` }),
  });
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
    ],
  });

  const ready = [];
  const tapToCode = [];
  const linkToCode = [];
  const payToConfirmed = [];
  // The first link unmeasured: the server's first request of each route warms its modules.
  for (const [i, order] of orders.entries()) {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      locale: "pt-BR",
    });
    const page = await context.newPage();
    const link = `${url}/pix-checkout/payment-collection/${order.collection_id}?order_id=${order.order_id}`;
    const opened = performance.now();
    await page.goto(link);
    const button = page.getByRole("button", { name: "Gerar código Pix" });
    // A page without the button (closed, not offered) says why: that goes with the failure.
    await button.waitFor().catch(async (error) => {
      throw new Error(
        `${error.message}\n${await page
          .locator("main")
          .innerText()
          .catch(() => "")}`,
      );
    });
    const tappable = performance.now();
    // The page's own call to Medusa's store route answers with the session, whose public data
    // names the charge the sandbox pays below.
    const [answer] = await Promise.all([
      page.waitForResponse(
        (r) => r.url().endsWith("/payment-sessions") && r.request().method() === "POST",
      ),
      button.tap(),
    ]);
    await page.getByRole("button", { name: "Copiar código Pix" }).waitFor({ timeout: 60_000 });
    const shown = performance.now();
    const made = await answer.json();
    const id = made.payment_collection.payment_sessions.find((s) => s.provider_id === "pp_pix_a")
      ?.data?.charge_id;
    if (!id) throw new Error(`no charge for ${order.order_id}: ${JSON.stringify(made)}`);
    const paidAt = performance.now();
    const paid = await fetch(`${sandbox.url}/__sandbox/charges/${id}/pay`, { method: "POST" });
    if (!paid.ok) throw new Error(`the sandbox did not pay ${id}: ${paid.status}`);
    // The page keeps the title naming the order; the element and the tab say it is paid.
    await page.waitForFunction(() => document.title === "Pagamento confirmado", null, {
      timeout: 60_000,
    });
    const confirmed = performance.now();
    await context.close();
    if (i === 0) continue;
    ready.push(tappable - opened);
    tapToCode.push(shown - tappable);
    linkToCode.push(shown - opened);
    payToConfirmed.push(confirmed - paidAt);
  }

  const stats = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    return {
      p50: Math.round(percentile(sorted, 50)),
      p95: Math.round(percentile(sorted, 95)),
      max: Math.round(sorted[sorted.length - 1]),
    };
  };
  const [toCode, toReady, tapped, toConfirmed] = [linkToCode, ready, tapToCode, payToConfirmed].map(
    stats,
  );
  const figures = {
    links: linkToCode.length,
    link_to_code_p50_ms: toCode.p50,
    link_to_code_p95_ms: toCode.p95,
    link_to_code_max_ms: toCode.max,
    link_to_button_p50_ms: toReady.p50,
    tap_to_code_p50_ms: tapped.p50,
    tap_to_code_p95_ms: tapped.p95,
    payment_to_confirmed_p50_ms: toConfirmed.p50,
    payment_to_confirmed_p95_ms: toConfirmed.p95,
    payment_to_confirmed_max_ms: toConfirmed.max,
  };
  console.log(
    `Copy payment link → code on screen (${figures.links} links, Chromium at 390 px, a fresh context each): p50 ${toCode.p50} ms, p95 ${toCode.p95} ms, max ${toCode.max} ms`,
  );
  console.log(
    `  of which the page ready to tap: p50 ${toReady.p50} ms; the tap to the code: p50 ${tapped.p50} ms, p95 ${tapped.p95} ms`,
  );
  console.log(
    `payment (the sandbox fires charge.paid) → "Pagamento confirmado" with the order number: p50 ${toConfirmed.p50} ms, p95 ${toConfirmed.p95} ms, max ${toConfirmed.max} ms`,
  );
  if (process.env.BENCH_OUT) {
    writeFileSync(
      process.env.BENCH_OUT,
      JSON.stringify({ name: "medusa payment link (built, Chromium 390 px)", figures }),
    );
  }
} finally {
  await browser?.close();
  await app.close();
  await sandbox.close();
}
