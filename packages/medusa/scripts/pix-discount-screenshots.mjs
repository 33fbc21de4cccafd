#!/usr/bin/env node
// The "Desconto no Pix" card of the Pix Checkout admin page on a 390 px phone, in pt-BR: builds
// a throwaway Medusa app with the BUILT plugin and its dashboard, logs in with Chromium, turns the
// discount on through the card itself (switch, 5 %, Salvar), checks that the store now gives it
// to a Pix cart, and saves docs/admin-pix-discount-phone.png. Fails if the card does not render,
// the save does not reach the promotion, or the browser logs an error of the plugin.
// Run `npm run build -w @pix-checkout/medusa` first. Usage: node scripts/pix-discount-screenshots.mjs
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import {
  createDatabase,
  dropDatabase,
  medusa,
  packageDir,
  pixAppConfig,
  pixSeedScript,
  startMedusa,
  stopProcess,
  writeApp,
  writeFiles,
} from "./lib/built-app.mjs";

const require = createRequire(path.join(packageDir, "package.json"));
const { chromium } = require("playwright-core");

const PG = process.env.BENCH_PG_URL ?? "postgres://postgres@localhost:5432";
const PORT = Number(process.env.ADMIN_PORT ?? 9342);
const EMAIL = "admin@example.com";
const PASSWORD = "admin-screenshots-1";
const dir = path.join(packageDir, ".medusa", `discount-app-${process.pid}`);
const db = `pix_discount_${process.pid}`;
const docs = path.join(packageDir, "docs");

// A cart of R$ 129,90 to check the saved setting against.
const SEED = pixSeedScript(`
  const cart = await newCart("ana@example.com", "Camiseta", 129.9);
  fs.writeFileSync(process.env.SEED_OUT, JSON.stringify({ publishableKey, cartId: cart.id }));
`);

const { startSandbox } = await import("@pix-checkout/sandbox");
const sandbox = await startSandbox({ variant: "a" });
let server;
let browser;
try {
  writeApp(dir, "pix-discount-app", {
    "medusa-config.ts": pixAppConfig({
      apiKey: "sk_live_sandbox_default",
      baseUrl: sandbox.baseUrl,
      secret: "shots",
      dashboard: true,
    }),
    "tsconfig.json": JSON.stringify({
      compilerOptions: {
        target: "ES2021",
        module: "Node16",
        moduleResolution: "Node16",
        jsx: "react-jsx",
        outDir: "./.medusa/server",
        rootDir: "./",
        skipLibCheck: true,
        esModuleInterop: true,
      },
      include: ["medusa-config.ts", "src"],
      exclude: ["node_modules", ".medusa"],
    }),
  });
  mkdirSync(path.join(dir, "src"));
  const env = { ...process.env, MEDUSA_DISABLE_TELEMETRY: "true", LOG_LEVEL: "error" };
  process.stdout.write("building the app and its dashboard…\n");
  await medusa(["build"], { cwd: dir, env });
  const built = path.join(dir, ".medusa", "server");
  writeFiles(built, { "src/scripts/seed.js": SEED });

  await createDatabase(PG, db);
  const runEnv = { ...env, DATABASE_URL: `${PG}/${db}`, NODE_ENV: "production" };
  await medusa(["db:migrate"], { cwd: built, env: runEnv });
  await medusa(["user", "-e", EMAIL, "-p", PASSWORD], { cwd: built, env: runEnv });
  const seedOut = path.join(dir, "seed.json");
  await medusa(["exec", "./src/scripts/seed.js"], {
    cwd: built,
    env: { ...runEnv, SEED_OUT: seedOut },
  });
  const seed = JSON.parse(readFileSync(seedOut, "utf8"));

  const started = await startMedusa({ cwd: built, env: runEnv, port: PORT });
  server = started.child;
  const { url } = started;

  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
      "--lang=pt-BR",
    ],
    env: { ...process.env, LANGUAGE: "pt_BR" },
  });
  const page = await browser.newPage({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    locale: "pt-BR",
    timezoneId: "America/Sao_Paulo",
  });
  const errors = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", async (msg) => {
    if (msg.type() !== "error") return;
    const args = await Promise.all(msg.args().map((a) => a.jsonValue().catch(() => "")));
    const text = args.map(String).join(" ");
    if (/PixDiscountCard|PixCheckout/.test(text)) errors.push(text);
  });
  page.on("response", (r) => {
    if (r.url().includes("/admin/pix-checkout/pix-discount") && !r.ok()) {
      errors.push(`${r.status()} ${r.url()}`);
    }
  });
  await page.addInitScript(() => localStorage.setItem("lng", "ptBR"));
  await page.goto(`${url}/app/login`);
  // The dashboard's bundle is large; on a busy machine the form takes a while to appear.
  await page.locator('input[name="email"]').waitFor({ timeout: 120_000 });
  await page.fill('input[name="email"]', EMAIL);
  await page.fill('input[name="password"]', PASSWORD);
  await page.click('button[type="submit"]');
  await page.waitForURL((u) => !u.pathname.endsWith("/login"), { timeout: 60_000 });

  await page.goto(`${url}/app/pix-checkout`);
  const card = page.locator('[data-pix-checkout="pix-discount"]');
  await card.getByText("Desconto no Pix").first().waitFor({ timeout: 60_000 });
  // The merchant turns it on: 5 % for Pix.
  await card.getByRole("switch").click();
  await card.locator("#pix-discount-amount").fill("5");
  await card.getByRole("button", { name: "Salvar" }).click();
  await card.getByText("Ver a promoção DESCONTO-PIX no Medusa").waitFor({ timeout: 30_000 });
  await card.getByText("Os clientes veem: “5 % de desconto no Pix”.").waitFor();

  // What the card saved is what a Pix cart gets.
  const chosen = await fetch(`${url}/store/pix-checkout/carts/${seed.cartId}/payment-method`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-publishable-api-key": seed.publishableKey },
    body: JSON.stringify({ method: "pix" }),
  }).then((r) => r.json());
  if (chosen.total !== 12341 || chosen.pix_discount?.saved !== 649) {
    throw new Error(`a Pix cart of R$ 129,90 got ${JSON.stringify(chosen)}`);
  }

  mkdirSync(docs, { recursive: true });
  // Toasts fade; shoot the card settled.
  await page.waitForTimeout(4_000);
  await card.scrollIntoViewIfNeeded();
  await card.screenshot({ path: path.join(docs, "admin-pix-discount-phone.png") });
  if (errors.length > 0) throw new Error(`the dashboard logged errors:\n${errors.join("\n")}`);
  process.stdout.write("wrote docs/admin-pix-discount-phone.png\n");
} finally {
  await browser?.close();
  if (server) await stopProcess(server);
  await dropDatabase(PG, db).catch(() => undefined);
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
}
