#!/usr/bin/env node
// The plugin's screens in Vendure's dashboard, as a merchant sees them, for the docs: starts the
// Vendure demo (apps/vendure-demo: Vendure, the sandbox, the dashboard built with the screens)
// on a database of its own, places two orders through the Shop API as a storefront does (one
// whose first Pix was paid short, then paid by a second code; one paid, then blocked in part by
// a MED), logs in with Chromium and captures into docs/ the order's "Pix e boleto" block at
// 1280 px, the Vendas → Pix e boleto page, and a MED's order at 1024 px. Fails if a screen logs
// an error or scrolls sideways. Run `npm run build` first.
// Usage: node packages/vendure/scripts/dashboard-screenshots.mjs
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { startVendureDemo } from "@pix-checkout/vendure-demo";
import { launchChromium } from "../../../test/e2e/support/browser.mjs";
import { dropDatabase, freePort, postgresServer } from "../../../test/e2e/support/demo.mjs";

const docs = fileURLToPath(new URL("../docs/", import.meta.url));
const databaseName = `pix_checkout_vendure_shots_${process.pid}`;

/** One GraphQL call with its own bearer session, as a storefront or the admin keeps it. */
function graphqlClient(url) {
  let token = null;
  return async (query, variables = {}) => {
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify({ query, variables }),
    });
    token = response.headers.get("vendure-auth-token") ?? token;
    const { data, errors } = await response.json();
    if (errors?.length) throw new Error(errors[0].message);
    return data;
  };
}

/** A shopper's order up to its Pix, as any Vendure storefront does it; its code's charge id. */
async function orderWithPix(demo, name, email) {
  const shop = graphqlClient(demo.shopApiUrl);
  const { products } = await shop(
    `{ products(options: { take: 1 }) { items { variants { id } } } }`,
  );
  await shop(
    `mutation ($id: ID!) { addItemToOrder(productVariantId: $id, quantity: 1) { ... on Order { id } } }`,
    {
      id: products.items[0].variants[0].id,
    },
  );
  const [firstName, lastName] = name.split(" ");
  await shop(
    `mutation ($input: CreateCustomerInput!) { setCustomerForOrder(input: $input) { ... on Order { id } } }`,
    {
      input: { emailAddress: email, firstName, lastName },
    },
  );
  await shop(
    `mutation ($input: CreateAddressInput!) { setOrderShippingAddress(input: $input) { ... on Order { id } } }`,
    {
      input: {
        fullName: name,
        streetLine1: "Avenida Paulista, 1000",
        city: "São Paulo",
        province: "SP",
        postalCode: "01310-100",
        countryCode: "BR",
      },
    },
  );
  const { eligibleShippingMethods } = await shop(`{ eligibleShippingMethods { id } }`);
  await shop(
    `mutation ($id: [ID!]!) { setOrderShippingMethod(shippingMethodId: $id) { ... on Order { id } } }`,
    {
      id: [eligibleShippingMethods[0].id],
    },
  );
  await shop(
    `mutation { transitionOrderToState(state: "ArrangingPayment") { ... on Order { id } } }`,
  );
  const pix = async () => {
    const { addPaymentToOrder } = await shop(
      `mutation { addPaymentToOrder(input: { method: "pix", metadata: {} }) { ... on Order { id code payments { state transactionId } } } }`,
    );
    return addPaymentToOrder;
  };
  const order = await pix();
  const waiting = () =>
    order.payments.find((payment) => payment.state === "AwaitingPix").transactionId;
  return {
    order,
    chargeId: waiting(),
    again: async () => (await pix()).payments.find((p) => p.state === "AwaitingPix").transactionId,
  };
}

async function sandbox(demo, path, body) {
  const response = await fetch(`${demo.sandbox.url}/__sandbox/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body ?? {}),
  });
  if (!response.ok) throw new Error(`sandbox ${path}: ${response.status}`);
}

const settle = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function main() {
  mkdirSync(docs, { recursive: true });
  await dropDatabase(databaseName);
  const demo = await startVendureDemo({
    databaseUrl: `${postgresServer}/${databaseName}`,
    ports: { store: await freePort(), sandbox: await freePort(), storefront: await freePort() },
    log: () => {},
  });
  const browser = await launchChromium();
  try {
    // Ana's order: her first Pix paid R$ 50,00 of R$ 64,90 (held), then a new code paid whole.
    const ana = await orderWithPix(demo, "Ana Souza", "ana@example.com");
    await sandbox(demo, `transactions/${ana.chargeId}/amount`, { amount: 5000 });
    await sandbox(demo, `charges/${ana.chargeId}/pay`);
    await settle(1500);
    await sandbox(demo, `charges/${await ana.again()}/pay`);
    // Bruno's order, paid; then the payer's bank blocks R$ 30,00 of it by a MED.
    const bruno = await orderWithPix(demo, "Bruno Lima", "bruno@example.com");
    await sandbox(demo, `charges/${bruno.chargeId}/pay`);
    await settle(1500);
    const admin = graphqlClient(demo.adminApiUrl);
    await admin(
      `mutation { login(username: "superadmin", password: "superadmin") { ... on CurrentUser { id } } }`,
    );
    const { orders } = await admin(
      `{ orders(options: { sort: { createdAt: ASC } }) { items { id code payments { id state } } } }`,
    );
    const [anaOrder, brunoOrder] = orders.items;
    const deadline = new Date(Date.now() + 10 * 86_400_000).toLocaleDateString("en-CA", {
      timeZone: "America/Sao_Paulo",
    });
    await admin(
      `mutation ($id: ID!, $deadline: String!) { pixCheckoutRecordMed(paymentId: $id, protocol: "MED-2026-004512", deadline: $deadline, amount: 3000) { paymentId } }`,
      { id: brunoOrder.payments.find((p) => p.state === "Settled").id, deadline },
    );

    await demo.dashboard.ready;
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      locale: "pt-BR",
    });
    const page = await context.newPage();
    const problems = [];
    page.on("console", (message) => message.type() === "error" && problems.push(message.text()));
    page.on("pageerror", (error) => problems.push(error.message));
    await page.goto(demo.dashboard.url);
    await page.locator("input").first().fill("superadmin");
    await page.locator("input[type=password]").fill("superadmin");
    await page.keyboard.press("Enter");
    await page.getByText("Vendas", { exact: true }).waitFor();

    const scrollsSideways = () =>
      page.evaluate("document.documentElement.scrollWidth > innerWidth");
    const codesOf = async (orderId) => {
      await page.goto(`${demo.dashboard.url}orders/${orderId}`);
      const codes = page.getByTestId("pix-checkout-order-codes");
      await codes.waitFor();
      await codes.evaluate((table) =>
        table.closest("[data-slot=card], section, div")?.scrollIntoView(),
      );
      return codes;
    };

    let codes = await codesOf(anaOrder.id);
    if (await scrollsSideways()) throw new Error("Ana's order scrolls sideways at 1280 px");
    await codes
      .locator("xpath=ancestor::*[self::div][2]")
      .screenshot({ path: `${docs}dashboard-order-codes.png` });

    await page.goto(`${demo.dashboard.url}pix-checkout`);
    await page.getByTestId("pix-checkout-open-meds").waitFor();
    await page.getByTestId("pix-checkout-held").waitFor();
    if (await scrollsSideways())
      throw new Error("Vendas → Pix e boleto scrolls sideways at 1280 px");
    // The page fades in: the picture waits for it to settle.
    await page.waitForTimeout(800);
    await page.screenshot({ path: `${docs}dashboard-pending.png` });

    await page.setViewportSize({ width: 1024, height: 900 });
    codes = await codesOf(brunoOrder.id);
    if (await scrollsSideways()) throw new Error("Bruno's order scrolls sideways at 1024 px");
    await codes
      .locator("xpath=ancestor::*[self::div][2]")
      .screenshot({ path: `${docs}dashboard-order-med-1024.png` });

    if (problems.length) throw new Error(`the dashboard logged errors:\n${problems.join("\n")}`);
    await context.close();
    process.stdout.write(
      `Saved dashboard-order-codes.png, dashboard-pending.png, dashboard-order-med-1024.png to ${docs}\n`,
    );
  } finally {
    await browser.close();
    await demo.stop();
    await dropDatabase(databaseName);
  }
}

await main();
