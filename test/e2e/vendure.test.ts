// A shopper paying a Vendure order by Pix in a real Chromium at 390 px, from the Vendure demo's
// storefront page (apps/vendure-demo): the same <pix-checkout> as on Medusa, talking to the
// Vendure server only, the payment service played by the sandbox over HTTP.
import type { Browser } from "playwright-core";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startVendureDemo, type VendureDemo } from "@pix-checkout/vendure-demo";
import { launchChromium } from "./support/browser.mjs";
import { freePort } from "./support/demo.mjs";
import { newestCharge, payCharge } from "./support/sandbox-control.mjs";
import { brl, checkoutView, textOf } from "./support/shopper.mjs";

const server = `postgres://postgres@${process.env.DB_HOST ?? "localhost"}:${process.env.DB_PORT ?? 5432}`;
const databaseName = `pix_checkout_vendure_e2e_${process.pid}`;

async function dropDatabase() {
  const client = new pg.Client({ connectionString: `${server}/postgres` });
  await client.connect();
  await client.query(
    `DROP DATABASE IF EXISTS ${client.escapeIdentifier(databaseName)} WITH (FORCE)`,
  );
  await client.end();
}

let demo: VendureDemo;
let browser: Browser;

beforeAll(async () => {
  await dropDatabase();
  demo = await startVendureDemo({
    databaseUrl: `${server}/${databaseName}`,
    ports: { store: await freePort(), sandbox: await freePort(), storefront: await freePort() },
    log: () => {},
  });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await demo?.stop();
  await dropDatabase();
});

/** The store's newest order as the merchant's Admin API has it. */
async function newestOrder() {
  const admin = async (query: string, token?: string) => {
    const response = await fetch(demo.adminApiUrl, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify({ query }),
    });
    const body = (await response.json()) as { data: { orders: { items: unknown[] } } };
    return { token: response.headers.get("vendure-auth-token"), body };
  };
  const login = await admin(
    `mutation { login(username: "superadmin", password: "superadmin") { ... on CurrentUser { id } } }`,
  );
  const { body } = await admin(
    `{ orders(options: { sort: { createdAt: DESC }, take: 1 }) { items { state totalWithTax currencyCode customer { emailAddress } payments { state amount } } } }`,
    login.token ?? undefined,
  );
  return body.data.orders.items[0];
}

describe("Pix on the Vendure demo's storefront", () => {
  it("a shopper at 390 px buys the shirt, sees her Pix in Portuguese, pays it and reads 'Pagamento confirmado' once Vendure settled the order; a reload and a second tab say the same", async () => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      locale: "pt-BR",
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    await page.goto(demo.storefrontUrl);
    await page.getByText("Camiseta Pix").waitFor();
    expect(await textOf(page)).toContain(brl(4990));
    await page.getByLabel("Seu nome").fill("Ana Souza");
    await page.getByLabel("Seu e-mail").fill("ana.vendure@example.com");
    await page.getByRole("button", { name: "Pagar com Pix" }).click();

    // The element shows the code for the whole order (shirt and PAC), in Portuguese.
    await checkoutView(page, "pending").locator('[part~="code"]').waitFor();
    const pending = await textOf(page);
    expect(pending).toContain(brl(4990 + 1500));
    expect(pending).toMatch(/Copiar código/);
    // Nothing of the page is wider than the phone.
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(390);

    const charge = await newestCharge(demo.sandbox.url);
    expect(charge.amount).toBe(4990 + 1500);
    await payCharge(demo.sandbox.url, charge.uuid);
    await checkoutView(page, "paid").waitFor({ timeout: 30_000 });
    expect(await textOf(page)).toMatch(/Pagamento confirmado/);

    expect(await newestOrder()).toMatchObject({
      customer: { emailAddress: "ana.vendure@example.com" },
      state: "PaymentSettled",
      totalWithTax: 4990 + 1500,
      currencyCode: "BRL",
      payments: [{ state: "Settled", amount: 4990 + 1500 }],
    });

    // A reload keeps the code's page (the session id is in the address), and a second tab too.
    await page.reload();
    await checkoutView(page, "paid").waitFor();
    const second = await context.newPage();
    await second.goto(page.url());
    await checkoutView(second, "paid").waitFor();
    await context.close();
  });
});
