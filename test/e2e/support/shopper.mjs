// What a shopper does on the demo storefront, step by step, in the storefront's own words
// (Portuguese labels). Playwright's CSS engine pierces <pix-checkout>'s open shadow root.
import { listCharges, payCharge } from "./sandbox-control.mjs";

/** A payer the boleto and the delivery form accept (the CPF is a valid test number). */
export const payer = {
  firstName: "Ana",
  lastName: "Souza",
  phone: "(11) 98765-4321",
  document: "529.982.247-25",
  postalCode: "01310-100",
  street: "Avenida Paulista",
  number: "1000",
  neighborhood: "Bela Vista",
  city: "São Paulo",
  province: "SP",
};

/** The element's visible state: `view` is also the class of its `base` part. */
export function checkoutView(page, view) {
  return page.locator(`pix-checkout [part~="base"].${view}`);
}

/**
 * Puts the first product in the cart, fills the delivery address and taps PAC, in the natural
 * order (no "Calcular frete" first): the shopper ends on the payment step.
 * @param {import("playwright-core").Page} page
 * @param {string} storefrontUrl
 * @param {string} email a distinct e-mail per flow, so the merchant can tell orders apart
 */
export async function fillCartAndShipping(page, storefrontUrl, email) {
  await toDelivery(page, storefrontUrl);
  await fillDelivery(page, email);
  await page.getByRole("radio", { name: /PAC/ }).check();
  await page.getByRole("button", { name: "Pagar com Pix" }).waitFor();
}

/**
 * Puts the first product in the cart and opens the delivery step.
 * @param {import("playwright-core").Page} page
 * @param {string} storefrontUrl
 */
export async function toDelivery(page, storefrontUrl) {
  await page.goto(storefrontUrl);
  await page.getByRole("button", { name: "Adicionar ao carrinho" }).first().click();
  await page.getByRole("button", { name: "Finalizar compra" }).click();
  await page.locator("#payer-email").waitFor();
}

/**
 * Fills the delivery form (e-mail and address), touching nothing else.
 * @param {import("playwright-core").Page} page
 * @param {string} email
 */
export async function fillDelivery(page, email) {
  await page.fill("#payer-email", email);
  await page.fill("#payer-firstName", payer.firstName);
  await page.fill("#payer-lastName", payer.lastName);
  await page.fill("#payer-phone", payer.phone);
  await page.fill("#payer-postalCode", payer.postalCode);
  await page.fill("#payer-street", payer.street);
  await page.fill("#payer-number", payer.number);
  await page.fill("#payer-neighborhood", payer.neighborhood);
  await page.fill("#payer-city", payer.city);
  await page.selectOption("#payer-province", payer.province);
}

/**
 * Pays with Pix and waits until the QR code is on screen; where the store asks the CPF or CNPJ
 * on every order (its payment step shows the field for Pix), types `document` first.
 * @param {import("playwright-core").Page} page
 * @param {string} [document]
 */
export async function payWithPix(page, document = payer.document) {
  const button = page.getByRole("button", { name: "Pagar com Pix" });
  // The payment step is on screen, the document field with it or not at all.
  await button.waitFor();
  const field = page.locator("#payer-document");
  if (await field.count()) await field.fill(document);
  await button.click();
  await checkoutView(page, "pending").locator('[part~="code"]').waitFor();
}

/**
 * Pays the way a phone shopper does: taps "Copiar código Pix" and pays the code that landed
 * on the clipboard (the sandbox charge whose copy-and-paste code it is). The context needs the
 * clipboard permissions. Returns the charge paid.
 * @param {import("playwright-core").Page} page
 * @param {string} sandboxUrl
 */
export async function payCopiedCode(page, sandboxUrl) {
  await page.locator('pix-checkout [part~="copy-button"]').click();
  await page.locator('pix-checkout [part~="copy-button"]', { hasText: "Copiado!" }).waitFor();
  const code = await page.evaluate(() => navigator.clipboard.readText());
  const charge = (await listCharges(sandboxUrl)).find((c) => c.pix_copy_paste === code);
  if (!charge) throw new Error(`no sandbox charge has the copied code ${code.slice(0, 24)}…`);
  await payCharge(sandboxUrl, charge.uuid);
  return charge;
}

/**
 * The phone order: the code and its copy button lead, the QR is behind "Mostrar QR code".
 * @param {import("playwright-core").Page} page
 */
export async function showsCopyFirst(page) {
  const view = checkoutView(page, "pending");
  await view.locator('[part~="show-qr-button"]').waitFor();
  if ((await view.locator('[part~="copy-button"]').textContent())?.trim() !== "Copiar código Pix")
    throw new Error("the copy button does not lead with 'Copiar código Pix'");
  if ((await view.locator('[part~="qr"]').count()) !== 0)
    throw new Error("the QR shows before the shopper asked for it");
}

/**
 * Chooses boleto, types `document` as the CPF or CNPJ and submits from the top of the page,
 * far from the fields: a refused field has to be brought to the shopper.
 * @param {import("playwright-core").Page} page
 * @param {string} document
 */
export async function submitBoleto(page, document) {
  await page.getByRole("radio", { name: /Boleto bancário/ }).check();
  await page.fill("#payer-document", document);
  await page.evaluate("scrollTo(0, 0)");
  await page.getByRole("button", { name: "Gerar boleto e finalizar pedido" }).click();
}

/**
 * Chooses boleto, gives the CPF and waits until the boleto is on screen. Returns the order
 * number the page shows (the order exists before the boleto is paid).
 * @param {import("playwright-core").Page} page
 */
export async function payWithBoleto(page) {
  await submitBoleto(page, payer.document);
  await checkoutView(page, "pending").locator('[part~="barcode"]').waitFor();
  const notice = await page.locator("p.notice strong").textContent();
  return Number(notice?.replace("#", ""));
}

/**
 * Waits for the order confirmation and returns the order number it shows.
 * @param {import("playwright-core").Page} page
 */
export async function confirmedOrderNumber(page) {
  await page.locator("main > h2", { hasText: "Pagamento confirmado" }).waitFor();
  const text = await page.locator("main p.success strong").textContent();
  return Number(text?.replace("#", ""));
}

/**
 * Everything a page shows or announces, the element's shadow root included, as one line. A
 * string, not a function: the suite's TypeScript has no DOM types.
 */
const pageText = `(() => {
  const parts = [];
  const walk = (node) => {
    if (node.shadowRoot) walk(node.shadowRoot);
    for (const child of node.childNodes) {
      if (child.nodeType === Node.TEXT_NODE) parts.push(child.textContent);
      else if (!["STYLE", "SCRIPT"].includes(child.nodeName)) walk(child);
    }
  };
  walk(document.body);
  return parts.join(" ").replace(/\\s+/g, " ");
})()`;

/**
 * What the page says now, its element's shadow root included (a status line, a notice).
 * @param {import("playwright-core").Page} page
 * @returns {Promise<string>}
 */
export function textOf(page) {
  return page.evaluate(pageText);
}

/**
 * Starts noting, ten times a second, each of `phrases` the page ever says (its element's
 * shadow root included), so a test can tell a phrase that came and went. Read with `saidSoFar`.
 * @param {import("playwright-core").Page} page
 * @param {string[]} phrases
 */
export async function watchFor(page, phrases) {
  await page.evaluate(`(() => {
    const phrases = ${JSON.stringify(phrases)};
    window.__said = [];
    setInterval(() => {
      const text = ${pageText};
      for (const phrase of phrases)
        if (text.includes(phrase) && !window.__said.includes(phrase)) window.__said.push(phrase);
    }, 100);
  })()`);
}

/**
 * The phrases `watchFor` saw on the page so far.
 * @param {import("playwright-core").Page} page
 * @returns {Promise<string[]>}
 */
export function saidSoFar(page) {
  return page.evaluate("window.__said ?? []");
}

/**
 * An amount as `textOf` reads it: `R$ 209,45`, the no-break space after R$ a plain one.
 * @param {number} cents
 */
export function brl(cents) {
  return new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL" })
    .format(cents / 100)
    .replace(/\s/g, " ");
}
