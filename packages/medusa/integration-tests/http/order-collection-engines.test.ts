import path from "node:path";
import { medusaIntegrationTestRunner } from "@medusajs/test-utils";
import type { Sandbox } from "@pix-checkout/sandbox" with { "resolution-mode": "import" };
import {
  createStockedProduct,
  createStoreFixture,
  type StockedProduct,
  type StoreFixture,
} from "../helpers/store-fixture";
import { control, db, storefront, type Api } from "../helpers/checkout";
import { adminLogin } from "../helpers/admin-login";
import {
  adminClient,
  adminOrder,
  editOrder,
  paidVariantOrder,
  unpaidCollection,
  type Admin,
} from "../helpers/order-changes";
import { PUBLIC_BACKEND, copiedLink } from "../helpers/payment-page";
import { waitFor } from "../helpers/wait-for";

// The payment page in the two engines besides Chromium (order-collections.test.ts drives that
// one at 390 px): Firefox ESR through WebDriver BiDi (puppeteer), at a 1280 px desktop, and
// WebKitGTK's MiniBrowser through WebKitWebDriver on a private X display, as the element's own
// browser suite drives them (its test-support starts the driver and the display). In each: the
// copied link, "Gerar código Pix", the code in the element, paid in the sandbox, "Pagamento
// confirmado" with the order number, and no error on the page.

const API_KEY = "sk_live_beyond_engines_5ecret";
const WEBHOOK_SECRET = "whsec-test-a-0123456789";
const ELEMENT_SUPPORT = path.join(__dirname, "..", "..", "..", "element", "test-support");
let sandbox: Sandbox;

beforeAll(async () => {
  const { startSandbox } = await import("@pix-checkout/sandbox");
  sandbox = await startSandbox({ variant: "a", keys: [API_KEY] });
  process.env.PIX_SANDBOX_A_URL = sandbox.baseUrl;
  process.env.PIX_API_KEY = API_KEY;
});

afterAll(async () => sandbox?.close());

/** What the page says, read in the page: its title, subtitle, and the element's code. */
const READ_PAGE = `return {
  title: document.getElementById("pix-title")?.textContent ?? document.querySelector("h1")?.textContent ?? "",
  subtitle: document.getElementById("pix-subtitle")?.textContent ?? "",
  code: document.querySelector("pix-checkout")?.shadowRoot?.querySelector("[part~=code]")?.value ?? "",
  tab: document.title,
  message: document.querySelector("pix-checkout")?.shadowRoot?.querySelector("[part~=message]")?.textContent ?? "",
  errors: window.__pageErrors ?? [],
};`;
/** Collects the page's uncaught errors, for READ_PAGE. */
const WATCH_ERRORS = `window.__pageErrors = [];
window.addEventListener("error", (e) => window.__pageErrors.push(String(e.message)));
window.addEventListener("unhandledrejection", (e) => window.__pageErrors.push(String(e.reason)));
document.addEventListener("securitypolicyviolation", (e) => window.__pageErrors.push("CSP " + e.violatedDirective));`;

interface PageState {
  title: string;
  subtitle: string;
  code: string;
  /** The browser tab's title. */
  tab: string;
  /** The element's message (its paid, expired... views). */
  message: string;
  errors: string[];
}

/** The steps of one engine, given how to run a script in its page and tap the page's button. */
interface Engine {
  open(url: string): Promise<void>;
  run(script: string): Promise<PageState>;
  tapGenerate(): Promise<void>;
  close(): Promise<void>;
}

medusaIntegrationTestRunner({
  cwd: path.join(__dirname, "..", "app"),
  testSuite: ({ api, getContainer }) => {
    let store: StoreFixture;
    let admin: Admin;
    let base: string;
    let product: StockedProduct;
    const container = () => getContainer();

    beforeAll(async () => {
      store = await createStoreFixture(container());
      base = (api as unknown as Api).defaults.baseURL as string;
      await control(sandbox.url, "webhook-urls", {
        url: `${base}/hooks/pix-checkout/a?token=${WEBHOOK_SECRET}`,
      });
      admin = adminClient(api as unknown as Api, await adminLogin(container(), "loja@example.com"));
      product = await createStockedProduct(container(), store, 100);
    });

    /** An order edit's link, paid from `engine`: the page's whole path, in that engine. */
    async function payThroughPage(engine: Engine) {
      const { orderId } = await paidVariantOrder(
        container(),
        storefront(api as unknown as Api, store),
        store,
        sandbox.url,
        product.variantId,
        `kaio.${Date.now()}@example.com`,
      );
      await editOrder(admin, orderId, product.variantId, 1);
      const collection = await unpaidCollection(admin, orderId);
      const order = await adminOrder(admin, orderId);
      await engine.open(copiedLink(collection.id, orderId).replace(PUBLIC_BACKEND, base));
      await engine.run(`${WATCH_ERRORS}\nreturn {}`);
      const opened = await waitFor(
        async () => {
          const state = await engine.run(READ_PAGE);
          return state.title.startsWith("Diferença da edição") && state;
        },
        "the page's title",
        30_000,
      );
      expect(opened.title).toBe(`Diferença da edição do pedido #${order.display_id}`);
      expect(opened.subtitle).toMatch(/^R\$\s35,00$/);
      await engine.tapGenerate();
      const shown = await waitFor(
        async () => {
          const state = await engine.run(READ_PAGE);
          return state.code.startsWith("000201") && state;
        },
        "the code in the element",
        60_000,
      );
      const charge = await db(container())("pix_checkout_charge")
        .where({ payment_collection_id: collection.id })
        .first();
      expect(shown.code).toBe(charge.display.pix.copy_paste);
      // The element told the store its page shows the code (its reads alone record nothing).
      await waitFor(
        async () =>
          (
            await db(container())("pix_checkout_charge")
              .where({ charge_id: charge.charge_id })
              .first()
          ).shown_at !== null,
        "the code recorded as shown",
        30_000,
      );
      expect((await control(sandbox.url, `charges/${charge.charge_id}/pay`, {})).ok).toBe(true);
      const paid = await waitFor(
        async () => {
          const state = await engine.run(READ_PAGE);
          return state.tab === "Pagamento confirmado" && state;
        },
        "Pagamento confirmado",
        60_000,
      );
      // The page keeps the title that names the order; the element says it is paid, once.
      expect(paid.title).toBe(`Diferença da edição do pedido #${order.display_id}`);
      expect(paid.message).toContain("Pagamento confirmado");
      expect(paid.errors).toEqual([]);
    }

    it("Firefox ESR at a 1280 px desktop: the copied link, Gerar código Pix, the code, Pagamento confirmado", async () => {
      const { default: puppeteer } = await import("puppeteer");
      const browser = await puppeteer.launch({
        browser: "firefox",
        executablePath: process.env.FIREFOX_PATH ?? "/usr/bin/firefox-esr",
        headless: true,
      });
      try {
        const page = await browser.newPage();
        await page.setViewport({ width: 1280, height: 900 });
        await payThroughPage({
          open: async (url) => void (await page.goto(url)),
          run: (script) => page.evaluate(`(() => { ${script} })()`) as Promise<PageState>,
          tapGenerate: () => page.locator("::-p-text(Gerar código Pix)").click(),
          close: () => browser.close(),
        });
      } finally {
        await browser.close();
      }
    });

    it("WebKitGTK's MiniBrowser: the copied link, Gerar código Pix, the code, Pagamento confirmado", async () => {
      const { startXvfb } = await import(path.join(ELEMENT_SUPPORT, "x-display.mjs"));
      const { startWebKitDriver, WEBKIT_MINIBROWSER } = await import(
        path.join(ELEMENT_SUPPORT, "webkit-driver.mjs")
      );
      const { remote } = await import("webdriverio");
      const display = await startXvfb();
      const driver = await startWebKitDriver({ DISPLAY: display.display });
      const browser = await remote({
        hostname: "127.0.0.1",
        port: driver.port,
        logLevel: "error",
        capabilities: {
          browserName: "MiniBrowser",
          "webkitgtk:browserOptions": { binary: WEBKIT_MINIBROWSER, args: ["--automation"] },
          // webdriverio asks for BiDi (webSocketUrl) by default, which WebKitWebDriver refuses.
          "wdio:enforceWebDriverClassic": true,
        } as WebdriverIO.Capabilities,
      });
      try {
        await payThroughPage({
          open: (url) => browser.url(url).then(() => undefined),
          run: (script) => browser.execute(script) as Promise<PageState>,
          tapGenerate: async () => {
            const button = await browser.$("button=Gerar código Pix");
            await button.waitForClickable({ timeout: 30_000 });
            await button.click();
          },
          close: () => browser.deleteSession(),
        });
      } finally {
        await browser.deleteSession().catch(() => undefined);
        driver.stop();
        display.stop();
      }
    });
  },
});
