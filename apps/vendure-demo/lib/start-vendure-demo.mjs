// A whole Vendure store selling by Pix, in this process: the payment-service sandbox, Vendure
// with the plugin (on the PostgreSQL the Medusa demo would use: DATABASE_URL, else the one at
// localhost:5432, else an embedded one), and a storefront page with <pix-checkout> on an origin
// of its own, as a shop's storefront is.
import { randomBytes } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import core from "@vendure/core";
import {
  importProductsFromCsv,
  populateCollections,
  populateInitialData,
} from "@vendure/core/cli/index.js";
import { resolveDatabase } from "@pix-checkout/demo/database";
import { choosePorts } from "@pix-checkout/demo/ports";
import { startSandbox } from "@pix-checkout/sandbox";
import {
  BOLETO_HANDLER_CODE,
  PIX_HANDLER_CODE,
  PixCheckoutPlugin,
  PixCheckoutService,
} from "@pix-checkout/vendure";
import { DashboardPlugin } from "@vendure/dashboard/plugin";
import { ensureDashboard } from "./dashboard-build.mjs";
import { startVendureStorefront } from "./storefront-server.mjs";

const {
  bootstrap,
  ChannelService,
  CurrencyCode,
  DefaultLogger,
  DefaultSearchPlugin,
  GlobalSettingsService,
  LanguageCode,
  LogLevel,
  RequestContextService,
  SettingsStoreService,
  TransactionalConnection,
  User,
} = core;

/** Where the demo keeps what it makes (the embedded PostgreSQL's data, logs). */
const DATA = fileURLToPath(new URL("../.data/", import.meta.url));

/** What a new store is made of: Brazil, a shipping method, Pix and boleto, one shirt. */
const INITIAL_DATA = {
  defaultLanguage: LanguageCode.pt_BR,
  defaultZone: "Brasil",
  countries: [{ name: "Brasil", code: "BR", zone: "Brasil" }],
  taxRates: [{ name: "Sem imposto", percentage: 0 }],
  shippingMethods: [{ name: "PAC", price: 1500 }],
  paymentMethods: [
    { name: "Pix", handler: { code: PIX_HANDLER_CODE, arguments: [] } },
    { name: "Boleto", handler: { code: BOLETO_HANDLER_CODE, arguments: [] } },
  ],
  collections: [],
};

/**
 * @param {import("./start-vendure-demo.d.mts").VendureDemoOptions} [options]
 * @returns {Promise<import("./start-vendure-demo.d.mts").VendureDemo>}
 */
export async function startVendureDemo(options = {}) {
  const host = options.host ?? "127.0.0.1";
  // A port asked for must be free; a default that is taken (another demo, a test's) gives way to
  // a free one, as the Medusa demo's do. The embedded PostgreSQL's is this folder's own.
  const { postgres: askedPostgres, ...asked } = options.ports ?? {};
  const chosen = await choosePorts(host, DEFAULT_PORTS, asked);
  const ports = { ...chosen.ports, postgres: askedPostgres ?? 54330 };
  // eslint-disable-next-line no-console -- the demo's default voice is its terminal
  const log = options.log ?? ((message) => console.log(message));
  const dataDir = options.dataDir ?? DATA;
  await mkdir(dataDir, { recursive: true });
  const stops = [];
  const stop = async () => {
    for (const step of stops.reverse()) await step().catch(() => {});
  };
  try {
    const database = await resolveDatabase({
      databaseUrl: options.databaseUrl ?? process.env.DATABASE_URL,
      databaseName: options.databaseName ?? "pix_checkout_vendure_demo",
      embeddedPort: ports.postgres,
      embeddedDataDir: `${dataDir}postgres`,
      logDir: dataDir,
      log,
    });
    stops.push(database.stop);

    const storeUrl = `http://${host}:${ports.store}`;
    // The webhook's token: a secret of this run, never printed.
    const webhookSecret = randomBytes(18).toString("base64url");
    const sandbox = await startSandbox({
      variant: "a",
      host,
      port: ports.sandbox,
      webhookUrls: [`${storeUrl}/pix-checkout/webhook?token=${webhookSecret}`],
    });
    stops.push(() => sandbox.close());

    // Vendure posts usage data to its own server at start unless told not to; a demo does not.
    process.env.VENDURE_DISABLE_TELEMETRY ??= "true";
    const firstStart = !(await hasStore(database.url));
    // The merchant's dashboard, with the plugin's screens: built once (about 40 s), in the
    // background of this start when it is not yet.
    const dashboard =
      options.dashboard === false
        ? null
        : ensureDashboard({
            buildsDir: join(dataDir, "dashboard"),
            logDir: dataDir,
            track: (child) => stops.push(() => child.stop()),
          });
    dashboard?.ready.catch((error) => log(`The dashboard could not be built: ${error.message}`));
    const app = await bootstrap({
      apiOptions: {
        hostname: host,
        port: ports.store,
        // The storefront page is on an origin of its own and keeps its session as a bearer
        // token (no cookies, so no cross-site form can use a session).
        cors: {
          origin: [`http://${host}:${ports.storefront}`],
          exposedHeaders: ["vendure-auth-token"],
        },
      },
      authOptions: {
        tokenMethod: "bearer",
        superadminCredentials: { identifier: "superadmin", password: "superadmin" },
        cookieOptions: { secret: randomBytes(24).toString("base64url") },
      },
      // A demo's schema follows the entities; a shop runs Vendure's migrations instead.
      dbConnectionOptions: { type: "postgres", url: database.url, synchronize: true },
      logger: new DefaultLogger({ level: LogLevel.Warn }),
      plugins: [
        PixCheckoutPlugin.init({
          apiKey: sandbox.defaultKey,
          baseUrl: sandbox.baseUrl,
          variant: "a",
          webhookSecret,
        }),
        // The dashboard's product search and its index, as a shop's config has them.
        DefaultSearchPlugin.init({ bufferUpdates: false, indexStockStatus: true }),
        ...(dashboard
          ? [
              DashboardPlugin.init({
                route: "dashboard",
                appDir: dashboard.dir,
                // The dashboard plugin proxies /dashboard/ to any web server answering on this
                // port (its Vite development server, 5173 by default), ahead of the build: the
                // Medusa demo's storefront, or any Vite app, on 5173 would be served as the
                // dashboard. Port 0 is never answered, so the build is what is served.
                viteDevServerPort: 0,
              }),
            ]
          : []),
      ],
    });
    // Vendure stops itself on a shutdown signal (its bootstrap's `enableShutdownHooks`). Closing
    // it a second time meanwhile hung the demo's Ctrl-C until the bin's 10 s fallback; after a
    // signal, the demo waits for Vendure's own stop instead, then stops the database under it.
    let signalled = false;
    const onSignal = () => {
      signalled = true;
    };
    for (const signal of VENDURE_STOP_SIGNALS) process.on(signal, onSignal);
    stops.push(async () => {
      for (const signal of VENDURE_STOP_SIGNALS) process.off(signal, onSignal);
      if (signalled) await vendureStopped(app);
      else await app.close();
    });
    if (firstStart) await makeStore(app);
    if (dashboard) await speakPortuguese(app);

    // Vendure runs scheduled tasks in a worker (DefaultSchedulerPlugin); the demo runs one
    // process, so the net under the webhooks is asked here, every minute, as the task would.
    const service = app.get(PixCheckoutService);
    const reconcile = setInterval(() => void service.reconcile().catch(() => {}), 60_000);
    reconcile.unref();
    stops.push(async () => clearInterval(reconcile));

    const storefront = await startVendureStorefront({ host, port: ports.storefront, storeUrl });
    stops.push(() => storefront.close());

    return {
      ports,
      storeUrl,
      shopApiUrl: `${storeUrl}/shop-api`,
      adminApiUrl: `${storeUrl}/admin-api`,
      storefrontUrl: storefront.url,
      dashboard: dashboard && { url: `${storeUrl}/dashboard/`, ready: dashboard.ready },
      sandbox,
      databaseSource: database.source,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The signals on which Vendure's bootstrap stops the app itself (the demo's Ctrl+C among them). */
const VENDURE_STOP_SIGNALS = ["SIGINT", "SIGTERM"];

/**
 * Resolves once Vendure, stopping on a signal, has closed its database connections (the last of
 * its shutdown), or after 10 s.
 */
async function vendureStopped(app) {
  const connection = app.get(TransactionalConnection).rawConnection;
  const until = Date.now() + 10_000;
  while (connection.isInitialized && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Where the demo listens when these are free (the Medusa demo's are others: both run at once). */
const DEFAULT_PORTS = { store: 3100, sandbox: 4110, storefront: 5183 };

/** The settings key under which the dashboard keeps an administrator's display choices. */
const DASHBOARD_USER_SETTINGS = "vendure.dashboard.userSettings";

/**
 * The demo's administrator reads the dashboard in Portuguese, dates and reais as in Brazil: the
 * dashboard starts every user in English unless their settings say otherwise. Once; a choice
 * made in the dashboard afterwards stays.
 */
async function speakPortuguese(app) {
  const superadmin = await app
    .get(TransactionalConnection)
    .rawConnection.getRepository(User)
    .findOne({ where: { identifier: "superadmin" } });
  if (!superadmin) return;
  const ctx = await app.get(RequestContextService).create({ apiType: "admin", user: superadmin });
  const settings = app.get(SettingsStoreService);
  if ((await settings.get(ctx, DASHBOARD_USER_SETTINGS)) != null) return;
  await settings.set(ctx, DASHBOARD_USER_SETTINGS, {
    displayLanguage: "pt_BR",
    displayLocale: "pt-BR",
    contentLanguage: "pt_BR",
  });
}

/** Whether the database already holds a Vendure store (its channels). */
async function hasStore(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query("SELECT to_regclass('public.channel') AS found");
    return rows[0].found !== null;
  } finally {
    await client.end();
  }
}

/** A new store: reais first (Vendure's default channel is made in dollars), then the rest. */
async function makeStore(app) {
  const ctx = await app.get(RequestContextService).create({ apiType: "admin" });
  await app
    .get(GlobalSettingsService)
    .updateSettings(ctx, { availableLanguages: [LanguageCode.pt_BR, LanguageCode.en] });
  const channels = app.get(ChannelService);
  const channel = await channels.getDefaultChannel(ctx);
  const updated = await channels.update(ctx, {
    id: channel.id,
    defaultCurrencyCode: CurrencyCode.BRL,
    availableCurrencyCodes: [CurrencyCode.BRL],
    defaultLanguageCode: LanguageCode.pt_BR,
    availableLanguageCodes: [LanguageCode.pt_BR],
  });
  if ("errorCode" in updated) throw new Error(`the store's channel: ${updated.message}`);
  await populateInitialData(app, INITIAL_DATA);
  await importProductsFromCsv(
    app,
    fileURLToPath(new URL("./products.csv", import.meta.url)),
    LanguageCode.pt_BR,
  );
  await populateCollections(app, INITIAL_DATA);
}
