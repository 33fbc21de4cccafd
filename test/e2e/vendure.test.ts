// A shopper paying a Vendure order by Pix in a real Chromium at 390 px, from the Vendure demo's
// storefront page (apps/vendure-demo): the same <pix-checkout> as on Medusa, talking to the
// Vendure server only, the payment service played by the sandbox over HTTP.
import { readFileSync } from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startVendureDemo, type VendureDemo } from "@pix-checkout/vendure-demo";
import { launchChromium } from "./support/browser.mjs";
import { dropDatabase, freePort, postgresServer } from "./support/demo.mjs";
import { newestCharge, payCharge, setPaidAmount } from "./support/sandbox-control.mjs";
import { brl, checkoutView, textOf } from "./support/shopper.mjs";

const databaseName = `pix_checkout_vendure_e2e_${process.pid}`;

let demo: VendureDemo;
let browser: Browser;

beforeAll(async () => {
  await dropDatabase(databaseName);
  demo = await startVendureDemo({
    databaseUrl: `${postgresServer}/${databaseName}`,
    ports: { store: await freePort(), sandbox: await freePort(), storefront: await freePort() },
    log: () => {},
  });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await demo?.stop();
  await dropDatabase(databaseName);
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
    const body = (await response.json()) as {
      data: {
        orders: {
          items: Array<{
            code: string;
            state: string;
            payments: Array<{
              refunds: Array<{ total: number; state: string; transactionId: string }>;
            }>;
          }>;
        };
      };
    };
    return { token: response.headers.get("vendure-auth-token"), body };
  };
  const login = await admin(
    `mutation { login(username: "superadmin", password: "superadmin") { ... on CurrentUser { id } } }`,
  );
  const { body } = await admin(
    `{ orders(options: { sort: { createdAt: DESC }, take: 1 }) { items { code state totalWithTax currencyCode customer { emailAddress } payments { state amount refunds { total state transactionId } } } } }`,
    login.token ?? undefined,
  );
  return body.data.orders.items[0]!;
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

describe("Pix and boleto in the Vendure demo's dashboard", () => {
  it("the merchant at 1280 px finds a code paid short held with why, the order's codes each with what it received and became, records the devolução on the order, which leaves the list and enters the day's books, then a MED blocked and returned by the payer's bank; at 1024 px nothing spills", async () => {
    // A shopper's order of R$ 64,90: its first Pix paid short, R$ 50,00 (held: it pays nothing
    // of the order), then a new code for the whole order, paid.
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      locale: "pt-BR",
    });
    const shopper = await context.newPage();
    await shopper.goto(demo.storefrontUrl);
    await shopper.getByLabel("Seu nome").fill("Bia Lima");
    await shopper.getByLabel("Seu e-mail").fill("bia.vendure@example.com");
    await shopper.getByRole("button", { name: "Pagar com Pix" }).click();
    await checkoutView(shopper, "pending").locator('[part~="code"]').waitFor();
    const first = await newestCharge(demo.sandbox.url);
    await setPaidAmount(demo.sandbox.url, first.uuid, 5000);
    await payCharge(demo.sandbox.url, first.uuid);
    await checkoutView(shopper, "held").waitFor({ timeout: 30_000 });
    // The storefront takes a new code for the order, as any Vendure storefront does.
    const token = await shopper.evaluate(`localStorage.getItem("pix-demo-vendure-token")`);
    const again = await fetch(demo.shopApiUrl, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({
        query: `mutation { addPaymentToOrder(input: { method: "pix", metadata: {} }) { ... on Order { id } } }`,
      }),
    });
    expect(again.status).toBe(200);
    const second = await newestCharge(demo.sandbox.url);
    expect(second.uuid).not.toBe(first.uuid);
    await payCharge(demo.sandbox.url, second.uuid);
    await expect
      .poll(async () => (await newestOrder()).state, { timeout: 30_000 })
      .toBe("PaymentSettled");
    const { code: orderCode } = await newestOrder();
    await context.close();

    await demo.dashboard!.ready;
    const merchant = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      locale: "pt-BR",
      acceptDownloads: true,
    });
    const page = await merchant.newPage();
    await page.goto(demo.dashboard!.url);
    await page.locator("input").first().fill("superadmin");
    await page.locator("input[type=password]").fill("superadmin");
    await page.keyboard.press("Enter");

    // The menu's Vendas → Pix e boleto: the held code, its amount, why, and its 90-day clock.
    await page.getByText("Vendas", { exact: true }).click();
    await page.getByRole("link", { name: "Pix e boleto" }).click();
    const held = page.getByTestId("pix-checkout-held");
    await held.waitFor();
    const heldText = (await held.innerText()).replace(/\s+/g, " ");
    expect(heldText).toContain(brl(5000));
    expect(heldText).toContain(`o Pix pago é de ${brl(5000)} e o código pedia ${brl(6490)}`);
    expect(heldText).toMatch(/devolução pelo Pix até \d\d\/\d\d\/\d{4} \(90 dias\)/);

    // Its order: both codes, each with what it received and became; the columns add up.
    await held.getByText(orderCode).click();
    const codes = page.getByTestId("pix-checkout-order-codes");
    await codes.waitFor();
    const rows = async () =>
      (await codes.locator("tbody tr").allInnerTexts()).map((row) =>
        row.replace(/\s+/g, " ").trim(),
      );
    // Each code: its money, then a line of what became of it; then the totals.
    const [heldMoney, heldWords, paidMoney, paidWords, totals] = await rows();
    expect(heldMoney).toMatch(/^Pix Retido/);
    expect(heldMoney).toContain(`${brl(6490)} ${brl(5000)} ${brl(0)} ${brl(5000)} ${brl(0)}`);
    expect(heldWords).toContain(first.uuid);
    expect(heldWords).toContain(`o Pix pago é de ${brl(5000)}`);
    expect(paidMoney).toMatch(/^Pix Capturado/);
    expect(paidMoney).toContain(`${brl(6490)} ${brl(6490)} ${brl(6490)} ${brl(0)} ${brl(0)}`);
    expect(paidWords).toContain(second.uuid);
    expect(totals).toBe(`Total ${brl(12980)} ${brl(11490)} ${brl(6490)} ${brl(5000)} ${brl(0)}`);

    // At 1280 and 1024 px every column shows: the table needs no sideways scroll in its block.
    // (This file has no DOM types: the element is read through the two numbers it needs.)
    type Box = { parentElement: { scrollWidth: number; clientWidth: number } };
    const spills = () =>
      codes.evaluate((table) => {
        const box = (table as unknown as Box).parentElement;
        return box.scrollWidth > box.clientWidth;
      });
    expect(await spills()).toBe(false);
    await page.setViewportSize({ width: 1024, height: 800 });
    expect(await spills()).toBe(false);
    await page.setViewportSize({ width: 1280, height: 900 });

    // Returned at the service's dashboard, recorded on the order with the devolução's id: the
    // code shows it returned, and the totals still add up.
    const reference = "D12345678202611301200abcdef";
    await codes.getByLabel("Identificador da devolução").fill(reference);
    await codes.getByRole("button", { name: "Registrar devolução" }).click();
    await expect
      .poll(async () => (await rows())[0])
      .toContain(`${brl(6490)} ${brl(5000)} ${brl(0)} ${brl(0)} ${brl(5000)}`);
    expect((await rows())[4]).toBe(
      `Total ${brl(12980)} ${brl(11490)} ${brl(6490)} ${brl(0)} ${brl(5000)}`,
    );

    // It left the list; the day's books (the CSV for Excel) carry its return with that id.
    await page.getByRole("link", { name: "Pix e boleto" }).click();
    await page.getByText("Nenhum pagamento retido.").waitFor();
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Baixar livro (CSV)" }).click();
    const books = readFileSync((await (await download).path())!, "utf8")
      .split("\r\n")
      .map((line) => line.split(";"));
    const returned = books.filter((row) => row[1] === orderCode && row[4] === "Devolução feita");
    expect(returned.map((row) => [row[9], row[11]])).toEqual([["50,00", reference]]);

    // A MED: the payer's bank blocked R$ 20,00 of the Pix that paid the order. The merchant
    // records it on the order; the money moves out of what is captured, the columns still add up.
    await page.goBack();
    await codes.waitFor();
    const paidCode = codes.locator("tbody tr").nth(3);
    await paidCode.getByRole("button", { name: "Registrar MED" }).click();
    await paidCode.getByLabel("Protocolo").fill("MED-2026-000123");
    const deadline = new Date(Date.now() + 10 * 86_400_000).toLocaleDateString("en-CA", {
      timeZone: "America/Sao_Paulo",
    });
    await paidCode.getByLabel("Prazo da instituição").fill(deadline);
    await paidCode.getByLabel("Valor bloqueado (R$)").fill("20,00");
    await paidCode.getByRole("button", { name: "Registrar", exact: true }).click();
    const med = codes.getByTestId("pix-checkout-med");
    await med.waitFor();
    expect((await rows())[3]).toContain(
      `MED aberto (protocolo MED-2026-000123): ${brl(2000)} bloqueados até`,
    );
    expect(await codes.locator("thead").innerText()).toMatch(/Bloqueado \(MED\)/);
    // Six columns of money now, and still no sideways scroll at 1024 px.
    await page.setViewportSize({ width: 1024, height: 800 });
    expect(await spills()).toBe(false);
    await page.setViewportSize({ width: 1280, height: 900 });
    expect((await rows())[2]).toContain(
      `${brl(6490)} ${brl(6490)} ${brl(4490)} ${brl(2000)} ${brl(0)} ${brl(0)}`,
    );
    expect((await rows())[4]).toBe(
      `Total ${brl(12980)} ${brl(11490)} ${brl(4490)} ${brl(2000)} ${brl(0)} ${brl(5000)}`,
    );

    // Listed among the open MEDs, nearest deadline first; from there, back to its order.
    await page.getByRole("link", { name: "Pix e boleto" }).click();
    const meds = page.getByTestId("pix-checkout-open-meds");
    await meds.waitFor();
    expect((await meds.innerText()).replace(/\s+/g, " ")).toContain(`MED-2026-000123 ${brl(2000)}`);
    await meds.getByText(orderCode).click();

    // The institution returned it to the payer: a refund on Vendure's order, settled with the
    // MED's protocol, and the code's money says so.
    await med.getByRole("button", { name: "Devolvido pelo MED" }).click();
    await expect
      .poll(async () => (await rows())[2])
      .toContain(`${brl(6490)} ${brl(6490)} ${brl(4490)} ${brl(0)} ${brl(0)} ${brl(2000)}`);
    expect((await rows())[4]).toBe(
      `Total ${brl(12980)} ${brl(11490)} ${brl(4490)} ${brl(0)} ${brl(0)} ${brl(7000)}`,
    );
    const refunds = (await newestOrder()).payments.flatMap((payment) => payment.refunds);
    expect(refunds).toEqual([
      { total: 2000, state: "Settled", transactionId: "MED MED-2026-000123" },
    ]);
    await merchant.close();
  });
});
