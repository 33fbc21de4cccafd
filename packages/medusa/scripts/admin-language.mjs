#!/usr/bin/env node
// The language of the plugin's admin pages in a real Medusa dashboard, from a fresh browser:
// builds a throwaway Medusa app with the BUILT plugin and its dashboard and logs in with a pt-BR
// Chromium that has no cookie and no local storage. Medusa's dashboard then speaks English and
// stores `lng=en`; the Pix Checkout page must still speak Portuguese. Then the merchant picks
// English in the profile (Settings → Profile → Edit → Language), and the page must speak English,
// after a reload too. Fails otherwise, or if the browser logs an error of the plugin.
// Run `npm run build -w @pix-checkout/medusa` first. Usage: node scripts/admin-language.mjs
import { logInToAdmin, merchantPage, withAdminApp } from "./lib/admin-app.mjs";
import { pixSeedScript } from "./lib/built-app.mjs";

const SEED = pixSeedScript(`
  fs.writeFileSync(process.env.SEED_OUT, JSON.stringify({ publishableKey }));
`);

const app = {
  name: "pix-admin-language",
  port: Number(process.env.ADMIN_PORT ?? 9343),
  seedScript: SEED,
};

/** Fails with `what` unless `check` holds. */
function expect(check, what) {
  if (!check) throw new Error(what);
}

/* global document -- read in the page, through page.evaluate */
await withAdminApp(app, async ({ url, browser }) => {
  const { page, errors } = await merchantPage(browser, /PixCheckout|Pix Checkout/, {
    viewport: { width: 1440, height: 1000 },
  });
  await logInToAdmin(page, url, { fresh: true });
  const stored = await page.evaluate(() => ({
    lng: localStorage.getItem("lng"),
    cookie: document.cookie,
    browser: navigator.languages[0],
  }));
  expect(stored.browser === "pt-BR", `the browser's first language is ${stored.browser}`);
  // The premise: the dashboard's first load stored its fallback as if it were a choice.
  expect(stored.lng === "en", `the dashboard stored lng=${stored.lng} on its first load`);
  expect(/(?:^|; )lng=en(?:;|$)/.test(stored.cookie), `cookies: ${stored.cookie}`);

  const tab = (name) => page.getByRole("tab", { name, exact: true });
  await page.goto(`${url}/app/pix-checkout`);
  await tab("Visão geral").waitFor({ timeout: 60_000 });
  // The dashboard's own words stay English: the merchant has not picked a language.
  await page.getByRole("link", { name: "Orders", exact: true }).first().waitFor();
  // The sidebar's label comes from the plugin's namespace (the route's translationNs).
  await page.getByRole("link", { name: "Pix Checkout", exact: true }).first().waitFor();
  process.stdout.write("fresh pt-BR browser: the dashboard in English, the plugin in Portuguese\n");

  // The merchant picks English in the profile, though the dashboard speaks it already.
  await page.goto(`${url}/app/settings/profile/edit`);
  const drawer = page.getByRole("dialog");
  await drawer.getByRole("combobox").click({ timeout: 60_000 });
  await page.getByRole("option", { name: "English", exact: true }).click();
  await drawer.getByRole("button", { name: "Save", exact: true }).click();
  await drawer.waitFor({ state: "detached", timeout: 30_000 });

  await page.goto(`${url}/app/pix-checkout`);
  await tab("Overview").waitFor({ timeout: 60_000 });
  expect((await tab("Visão geral").count()) === 0, "Portuguese after the merchant picked English");
  await page.reload();
  await tab("Overview").waitFor({ timeout: 60_000 });
  process.stdout.write(
    "English picked in the profile: the plugin in English, after a reload too\n",
  );

  // And back: the merchant picks Português (Brasil); dashboard and plugin follow.
  await page.goto(`${url}/app/settings/profile/edit`);
  await drawer.getByRole("combobox").click({ timeout: 60_000 });
  await page.getByRole("option", { name: "Português (Brasil)", exact: true }).click();
  await drawer.getByRole("button", { name: "Save", exact: true }).click();
  await drawer.waitFor({ state: "detached", timeout: 30_000 });
  await page.goto(`${url}/app/pix-checkout`);
  await tab("Visão geral").waitFor({ timeout: 60_000 });
  await page.getByRole("link", { name: "Pedidos", exact: true }).first().waitFor();
  process.stdout.write("Português (Brasil) picked: the dashboard and the plugin in Portuguese\n");

  if (errors.length > 0) throw new Error(`the dashboard logged errors:\n${errors.join("\n")}`);
});
