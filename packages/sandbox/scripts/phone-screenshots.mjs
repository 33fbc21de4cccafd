// The sandbox's pages on a 390 px phone, for its README: the developer's page with two pending
// Pix charges (docs/sandbox-phone.png) and a boleto's own page, the one behind a checkout's
// "Ver boleto" (docs/sandbox-boleto-phone.png). Starts a sandbox on a free port, shoots in the
// system Chromium and stops. Run `npm run build -w @pix-checkout/sandbox` first.
// Usage: node packages/sandbox/scripts/phone-screenshots.mjs
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { startSandbox } from "@pix-checkout/sandbox";
import { createBoletoCharge, createPixCharges } from "./phone-scene.mjs";

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
  await createPixCharges(sandbox);
  const page = await browser.newPage({ ...phone, locale: "pt-BR" });
  await page.goto(sandbox.url);
  await shoot(page, "sandbox-phone.png");

  const boleto = await createBoletoCharge(sandbox);
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
