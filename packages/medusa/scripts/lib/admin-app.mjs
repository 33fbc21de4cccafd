// A throwaway Medusa app with the BUILT plugin and its dashboard, for the scripts that shoot
// the admin: built, migrated, seeded and started, with an admin user to log in as, in pt-BR.
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import {
  createDatabase,
  dropDatabase,
  medusa,
  packageDir,
  pixAppConfig,
  startMedusa,
  stopProcess,
  writeApp,
  writeFiles,
} from "./built-app.mjs";

const require = createRequire(path.join(packageDir, "package.json"));

/** The admin user every such app has. */
export const ADMIN = { email: "admin@example.com", password: "admin-screenshots-1" };

/**
 * Builds the app in `dir` (server and dashboard), creates database `db` at `pgUrl`, migrates,
 * adds the admin user, runs `seedScript` (a `medusa exec` script that writes JSON to
 * `process.env.SEED_OUT`) and starts it on `port`, its provider pointed at `sandbox`, with
 * `providerOptions` added to its options.
 * @param {{ dir: string, name: string, pgUrl: string, db: string, port: number, sandbox: { baseUrl: string }, seedScript: string, providerOptions?: Record<string, unknown> }} options
 * @returns {Promise<{ url: string, server: import("node:child_process").ChildProcess, seed: any }>}
 */
export async function startAdminApp({
  dir,
  name,
  pgUrl,
  db,
  port,
  sandbox,
  seedScript,
  providerOptions,
}) {
  writeApp(dir, name, {
    "medusa-config.ts": pixAppConfig({
      apiKey: "sk_live_sandbox_default",
      baseUrl: sandbox.baseUrl,
      secret: "shots",
      dashboard: true,
      providerOptions,
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
  writeFiles(built, { "src/scripts/seed.js": seedScript });

  await createDatabase(pgUrl, db);
  const runEnv = { ...env, DATABASE_URL: `${pgUrl}/${db}`, NODE_ENV: "production" };
  await medusa(["db:migrate"], { cwd: built, env: runEnv });
  await medusa(["user", "-e", ADMIN.email, "-p", ADMIN.password], { cwd: built, env: runEnv });
  const seedOut = path.join(dir, "seed.json");
  await medusa(["exec", "./src/scripts/seed.js"], {
    cwd: built,
    env: { ...runEnv, SEED_OUT: seedOut },
  });
  const seed = JSON.parse(readFileSync(seedOut, "utf8"));
  const started = await startMedusa({ cwd: built, env: runEnv, port });
  return { url: started.url, server: started.child, seed };
}

/**
 * Debian's Chromium in pt-BR: the browser's own language draws native date inputs
 * (dd/mm/aaaa, not mm/dd/yyyy).
 */
export function launchPtBrChromium() {
  const { chromium } = require("playwright-core");
  return chromium.launch({
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
}

/**
 * Logs `page` in to the dashboard at `url` as {@link ADMIN}, in Portuguese (the dashboard's
 * language detector reads `lng`), or as a fresh browser would with `{ fresh: true }` (no `lng`:
 * the dashboard then falls back to English and stores it).
 * @param {import("playwright-core").Page} page
 * @param {string} url
 * @param {{ fresh?: boolean }} [options]
 */
export async function logInToAdmin(page, url, { fresh = false } = {}) {
  if (!fresh) await page.addInitScript(() => localStorage.setItem("lng", "ptBR"));
  await page.goto(`${url}/app/login`);
  // The dashboard's bundle is large; on a busy machine the form takes a while to appear.
  await page.locator('input[name="email"]').waitFor({ timeout: 120_000 });
  await page.fill('input[name="email"]', ADMIN.email);
  await page.fill('input[name="password"]', ADMIN.password);
  await page.click('button[type="submit"]');
  await page.waitForURL((u) => !u.pathname.endsWith("/login"), { timeout: 60_000 });
}

/**
 * Runs `shoot` against a fresh admin app (see {@link startAdminApp}) with a sandbox, a
 * database and a folder of its own, and a pt-BR Chromium; then takes all of them down,
 * whatever `shoot` did. The database server is `BENCH_PG_URL` (local Postgres by default);
 * `shoot` gets the app's database (`databaseUrl`) too, for a scene that moves on while it runs.
 * @param {{ name: string, port: number, seedScript: string, providerOptions?: Record<string, unknown> }} options
 * @param {(app: { url: string, seed: any, sandbox: import("@pix-checkout/sandbox").Sandbox, browser: import("playwright-core").Browser, databaseUrl: string }) => Promise<void>} shoot
 */
export async function withAdminApp({ name, port, seedScript, providerOptions }, shoot) {
  const pgUrl = process.env.BENCH_PG_URL ?? "postgres://postgres@localhost:5432";
  const dir = path.join(packageDir, ".medusa", `${name}-${process.pid}`);
  const db = `${name.replaceAll("-", "_")}_${process.pid}`;
  const { startSandbox } = await import("@pix-checkout/sandbox");
  const sandbox = await startSandbox({ variant: "a" });
  let server;
  let browser;
  try {
    const app = await startAdminApp({
      dir,
      name,
      pgUrl,
      db,
      port,
      sandbox,
      seedScript,
      providerOptions,
    });
    server = app.server;
    browser = await launchPtBrChromium();
    await shoot({ url: app.url, seed: app.seed, sandbox, browser, databaseUrl: `${pgUrl}/${db}` });
  } finally {
    await browser?.close();
    if (server) await stopProcess(server);
    await dropDatabase(pgUrl, db).catch(() => undefined);
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A page of a Brazilian merchant's browser (pt-BR dates, São Paulo's clock) whose errors are
 * collected in `errors`: uncaught ones, and console errors naming one of the plugin's
 * components (`ours`). React warnings carry their component stack in the console arguments;
 * other console errors are printed, not counted.
 * @param {import("playwright-core").Browser} browser
 * @param {RegExp} ours
 * @param {Record<string, unknown>} contextOptions viewport and device options
 */
export async function merchantPage(browser, ours, contextOptions) {
  const page = await browser.newPage({
    ...contextOptions,
    locale: "pt-BR",
    timezoneId: "America/Sao_Paulo",
  });
  const errors = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", async (msg) => {
    if (msg.type() !== "error") return;
    const args = await Promise.all(msg.args().map((a) => a.jsonValue().catch(() => "")));
    const text = args.map(String).join(" ");
    if (ours.test(text)) errors.push(text);
    else
      process.stdout.write(
        `(dashboard console, not from this plugin) ${msg.text().slice(0, 160)}\n`,
      );
  });
  return { page, errors };
}
