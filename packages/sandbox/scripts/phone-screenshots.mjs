// The sandbox's pages on a 390 px phone, for its README: the developer's page with two pending
// Pix charges (docs/sandbox-phone.png) and a boleto's own page, the one behind a checkout's
// "Ver boleto" (docs/sandbox-boleto-phone.png). Starts a sandbox on a free port, shoots in the
// system Chromium and stops. Run `npm run build -w @pix-checkout/sandbox` first.
// Usage: node packages/sandbox/scripts/phone-screenshots.mjs
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { startSandbox } from "@pix-checkout/sandbox";

const docs = join(dirname(fileURLToPath(import.meta.url)), "..", "docs");
const phone = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true };

const sandbox = await startSandbox({ variant: "a" });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
  ],
});
try {
  const create = async (body) => {
    const res = await fetch(`${sandbox.baseUrl}/charges`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${sandbox.defaultKey}`,
        "content-type": "application/json",
      },
      body: JSON.stringify(body),
    });
    if (res.status !== 201) throw new Error(`create answered ${res.status}: ${await res.text()}`);
    return res.json();
  };
  for (const [amount, description] of [
    [4892, "Pedido #1042 · Camiseta Pix (ref payses_01JDEMO0000000000000000001)"],
    [12990, "Pedido #1043 · Caneca"],
  ]) {
    await create({ amount, payment_method: "pix", description });
  }
  const page = await browser.newPage({ ...phone, locale: "pt-BR" });
  await page.goto(sandbox.url);
  await shoot(page, "sandbox-phone.png");

  const boleto = await create({
    amount: 18900,
    payment_method: "boleto",
    description: "Pedido #1044 · Rede de descanso",
    customer: {
      name: "Ana Souza",
      email: "ana@example.com",
      document: "123.456.789-09",
      phone: "(11) 98765-4321",
    },
    billing_address: {
      zip: "01310-100",
      state: "SP",
      city: "São Paulo",
      street: "Avenida Paulista",
      neighborhood: "Bela Vista",
      number: "1000",
    },
  });
  await page.goto(boleto.boleto_url);
  const width = await page.evaluate("document.documentElement.scrollWidth");
  if (width > 390) throw new Error(`the boleto page scrolls sideways (${width} px)`);
  await shoot(page, "sandbox-boleto-phone.png");
} finally {
  await browser.close();
  await sandbox.close();
}

/** Saves the first screen, once fonts are in. */
async function shoot(page, name) {
  await page.evaluate("document.fonts.ready.then(() => true)");
  await page.screenshot({ path: join(docs, name) });
  process.stdout.write(`wrote packages/sandbox/docs/${name}\n`);
}
