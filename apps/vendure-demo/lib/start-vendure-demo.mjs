// A whole Vendure store selling by Pix, in this process: the payment-service sandbox, Vendure
// with the plugin (on the PostgreSQL the Medusa demo would use: DATABASE_URL, else the one at
// localhost:5432, else an embedded one), and a storefront page with <pix-checkout> on an origin
// of its own, as a shop's storefront is.
import { randomBytes } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import pg from "pg";
import core from "@vendure/core";
import {
  importProductsFromCsv,
  populateCollections,
  populateInitialData,
} from "@vendure/core/cli/index.js";
import { resolveDatabase } from "@pix-checkout/demo/database";
import { startSandbox } from "@pix-checkout/sandbox";
import {
  BOLETO_HANDLER_CODE,
  PIX_HANDLER_CODE,
  PixCheckoutPlugin,
  PixCheckoutService,
} from "@pix-checkout/vendure";
import { startVendureStorefront } from "./storefront-server.mjs";

const {
  bootstrap,
  ChannelService,
  CurrencyCode,
  DefaultLogger,
  GlobalSettingsService,
  LanguageCode,
  LogLevel,
  RequestContextService,
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
  const ports = { store: 3100, sandbox: 4110, storefront: 5183, postgres: 54330, ...options.ports };
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
      ],
    });
    stops.push(() => app.close());
    if (firstStart) await makeStore(app);

    // Vendure runs scheduled tasks in a worker (DefaultSchedulerPlugin); the demo runs one
    // process, so the net under the webhooks is asked here, every minute, as the task would.
    const service = app.get(PixCheckoutService);
    const reconcile = setInterval(() => void service.reconcile().catch(() => {}), 60_000);
    reconcile.unref();
    stops.push(async () => clearInterval(reconcile));

    const storefront = await startVendureStorefront({ host, port: ports.storefront, storeUrl });
    stops.push(() => storefront.close());

    return {
      storeUrl,
      shopApiUrl: `${storeUrl}/shop-api`,
      adminApiUrl: `${storeUrl}/admin-api`,
      storefrontUrl: storefront.url,
      sandbox,
      databaseSource: database.source,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
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
