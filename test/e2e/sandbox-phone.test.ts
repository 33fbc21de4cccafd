// The sandbox's human page on a phone: developers open it from the demo storefront's link to
// pay a charge, often on the phone that shows the storefront.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "@pix-checkout/sandbox";
import { launchChromium } from "./support/browser.mjs";
import {
  createBoletoCharge,
  createPixCharges,
} from "../../packages/sandbox/scripts/phone-scene.mjs";

const WIDTH = 390;
let sandbox: Sandbox;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  [sandbox, browser] = await Promise.all([startSandbox({ variant: "a" }), launchChromium()]);
  await createPixCharges(sandbox);
  page = await browser.newPage({ viewport: { width: WIDTH, height: 844 } });
  await page.goto(sandbox.url);
});

afterAll(async () => {
  await browser?.close();
  await sandbox?.close();
});

describe("the sandbox's page at 390 px", () => {
  it("fits the phone's width: nothing scrolls sideways", async () => {
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(WIDTH);
  });

  it("shows what identifies each charge: description, amount and time", async () => {
    for (const text of [
      "Pedido #1042 · Camiseta Pix",
      "R$ 48,92",
      "Pedido #1043 · Caneca",
      "R$ 129,90",
    ]) {
      await expect.poll(() => page.getByText(text).first().isVisible()).toBe(true);
    }
    const created = page.locator("table.cards").first().locator("td[data-label=Created]");
    expect(await created.count()).toBe(2);
    for (const cell of await created.all()) {
      expect(await cell.isVisible()).toBe(true);
      expect(await cell.textContent()).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    }
  });

  it("keeps each charge's id on at most two lines", async () => {
    // Lines each id link takes: its height over its line height.
    const lines = (await page.evaluate(`[...document.querySelectorAll("a[href^='/pay/']")].map(
      (a) => Math.round(a.getBoundingClientRect().height / parseFloat(getComputedStyle(a).lineHeight)),
    )`)) as number[];
    expect(lines.length).toBe(2);
    for (const n of lines) expect(n).toBeLessThanOrEqual(2);
  });

  it("lets a tap reach every Pay button: nothing covers it, and it is big enough for a finger", async () => {
    const pay = page.getByRole("button", { name: "Pay" });
    expect(await pay.count()).toBe(2);
    for (const button of await pay.all()) {
      await button.scrollIntoViewIfNeeded();
      const box = (await button.boundingBox())!;
      expect(box.height).toBeGreaterThanOrEqual(44);
      expect(box.x + box.width).toBeLessThanOrEqual(WIDTH);
      const onTop = await page.evaluate(
        `document.elementFromPoint(${box.x + box.width / 2}, ${box.y + box.height / 2})?.closest("button")?.dataset.action ?? null`,
      );
      const action = await button.getAttribute("data-action");
      expect(onTop).toBe(action);
    }
  });

  it("pays a charge from the phone", async () => {
    await page.getByRole("button", { name: "Pay" }).first().click();
    await page.waitForLoadState("load");
    await expect.poll(() => page.locator(".status-paid").count()).toBe(1);
  });
});

// The page behind the demo checkout's "Ver boleto": the shopper opens it on the same phone.
describe("the sandbox's boleto page at 390 px", () => {
  let boleto: Page;
  let charge: { uuid: string; digitable_line: string; boleto_url: string };

  beforeAll(async () => {
    charge = await createBoletoCharge(sandbox);
    boleto = await browser.newPage({ viewport: { width: WIDTH, height: 844 }, locale: "pt-BR" });
    await boleto.goto(charge.boleto_url);
  });

  it("is in Portuguese and fits the phone: the barcode scales down, nothing scrolls sideways", async () => {
    expect(await boleto.getAttribute("html", "lang")).toBe("pt-BR");
    expect(await boleto.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(
      WIDTH,
    );
    const barcode = (await boleto
      .getByRole("img", { name: "Código de barras do boleto" })
      .boundingBox())!;
    expect(barcode.x + barcode.width).toBeLessThanOrEqual(WIDTH);
    for (const label of ["Linha digitável", "Valor", "Vencimento", "Pagador", "R$ 1.234,56"]) {
      expect(await boleto.getByText(label, { exact: true }).first().isVisible()).toBe(true);
    }
    expect(await boleto.getByText(/\b(Amount|Due|Payer|Beneficiary|Print)\b/).count()).toBe(0);
  });

  it("shows the whole digitable line on the first screen, in its groups", async () => {
    const line = boleto.locator("p.line");
    const digits = (await line.textContent())!.replace(/\D/g, "");
    expect(digits).toBe(charge.digitable_line);
    const box = (await line.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(WIDTH);
    expect(box.y + box.height).toBeLessThanOrEqual(844);
  });

  it("pays the boleto from its own page", async () => {
    await boleto.getByRole("button", { name: "Simular pagamento" }).click();
    await boleto.waitForLoadState("load");
    await expect.poll(() => boleto.locator(".status-paid").textContent()).toBe("pago");
  });
});
