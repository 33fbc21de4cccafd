// The element's browser tests (`npm test`, or `npm run test:browsers -w @pix-checkout/element`):
// every src/**/*.test.ts in three engines, all from Debian, none downloaded by a test tool:
// - Chromium (/usr/bin/chromium) through puppeteer-core (CDP),
// - Firefox ESR (/usr/bin/firefox-esr) through puppeteer (WebDriver BiDi),
// - WebKitGTK's MiniBrowser through WebKitWebDriver (classic WebDriver), which needs an X
//   display: the config starts a private Xvfb for it (test-support/x-display.mjs).
// PIX_BROWSERS=chromium,firefox narrows the run (a comma-separated list of the names below).
// A fake store backend (test-support/fake-backend.ts) runs on its own loopback port, so the
// test page talks to it cross-origin, as a storefront talks to Medusa.
import { esbuildPlugin } from "@web/dev-server-esbuild";
import { chromeLauncher } from "@web/test-runner-chrome";
import { puppeteerLauncher } from "@web/test-runner-puppeteer";
import { webdriverLauncher } from "@web/test-runner-webdriver";
import { defaultReporter } from "@web/test-runner";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadFakeBackend } from "./test-support/load-fake-backend.mjs";
import { startWebKitDriver, WEBKIT_MINIBROWSER } from "./test-support/webkit-driver.mjs";
import { startXvfb } from "./test-support/x-display.mjs";
import { jsonReporter } from "./test-support/json-reporter.mjs";
import { pixCommandsPlugin } from "./test-support/commands-plugin.mjs";
import { commonJsPlugin } from "./test-support/cjs-plugin.mjs";
import { servedPagesMiddleware } from "./test-support/served-pages.mjs";
import { payLinkPageMiddleware } from "./test-support/pay-link-page.mjs";

const root = fileURLToPath(new URL(".", import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const FIREFOX = process.env.FIREFOX_PATH ?? "/usr/bin/firefox-esr";

// Shoppers' clocks are mostly UTC−3: dates must not slip a day there. Every browser below is
// a child of this process and inherits the zone.
process.env.TZ = "America/Sao_Paulo";

// dist.test.ts checks what ships: build it first (esbuild, well under a second).
execFileSync("node", ["build.mjs"], { cwd: root, stdio: "inherit" });

const { startFakeBackend } = await loadFakeBackend();
const backend = await startFakeBackend();

const wanted = new Set(
  (process.env.PIX_BROWSERS ?? "chromium,firefox,webkit").split(",").map((s) => s.trim()),
);

// Firefox and WebKit cannot emulate media preferences per test (WebDriver has no such
// command), so a second instance of each is launched preferring the dark color scheme and
// reduced motion, and runs only src/preferences.test.ts. Chromium emulates them (CDP).
const firefox = (prefs = {}) =>
  puppeteerLauncher({
    launchOptions: {
      browser: "firefox",
      executablePath: FIREFOX,
      headless: true,
      extraPrefsFirefox: prefs,
    },
  });
const FIREFOX_DARK_REDUCED = {
  "layout.css.prefers-color-scheme.content-override": 0, // 0: dark
  "ui.prefersReducedMotion": 1,
};

// Everything started here that must stop with the run: WebKit drivers and their X displays.
const running = [];
// Each MiniBrowser gets an X display of its own: on a shared one the two instances share
// focus, the clipboard and the selections, which no shopper's phone does.
async function webkit(env = {}) {
  const xDisplay = await startXvfb();
  running.push(xDisplay);
  const driver = await startWebKitDriver({ ...env, DISPLAY: xDisplay.display });
  running.push(driver);
  return webdriverLauncher({
    automationProtocol: "webdriver",
    hostname: "127.0.0.1",
    port: driver.port,
    logLevel: "error",
    capabilities: {
      browserName: "MiniBrowser",
      "webkitgtk:browserOptions": { binary: WEBKIT_MINIBROWSER, args: ["--automation"] },
      // webdriverio asks for BiDi (webSocketUrl) by default, which WebKitWebDriver refuses.
      "wdio:enforceWebDriverClassic": true,
    },
  });
}
/** GTK settings for MiniBrowser: the dark variant of the theme, no animations. */
function gtkDarkReduced() {
  const home = mkdtempSync(join(tmpdir(), "pix-gtk-"));
  mkdirSync(join(home, "gtk-3.0"));
  writeFileSync(
    join(home, "gtk-3.0", "settings.ini"),
    "[Settings]\ngtk-application-prefer-dark-theme=1\ngtk-enable-animations=0\n",
  );
  return { XDG_CONFIG_HOME: home, GTK_THEME: "Adwaita:dark" };
}

const everything = [];
const preferences = [];
if (wanted.has("chromium")) {
  const chromium = chromeLauncher({
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
      ],
    },
    // Reading the clipboard back (to check what was copied) needs this permission in
    // Chromium. Writing gets none: a shopper's real click must be enough.
    async createPage({ config, context }) {
      await context.setPermission(`http://${config.hostname}:${config.port}`, {
        permission: { name: "clipboard-read" },
        state: "granted",
      });
      return context.newPage();
    },
  });
  everything.push(chromium);
  preferences.push(chromium);
}
if (wanted.has("firefox")) {
  everything.push(firefox());
  preferences.push(firefox(FIREFOX_DARK_REDUCED));
}
if (wanted.has("webkit")) {
  everything.push(await webkit());
  preferences.push(await webkit(gtkDarkReduced()));
}

// The test page's one inline script (the fake backend's address) carries this nonce.
const CSP_NONCE = "pix-csp-test";

// What every test page runs before the test framework: the fake backend's address, and a filter
// for the one error a browser reports that is no failure. "ResizeObserver loop completed with
// undelivered notifications" says only that a size change was left for the next frame (the
// Resize Observer spec reports it as an error event, and WebKit does so on a loaded machine when
// a status change re-lays the card); mocha would fail whichever test was running. Registered
// first, the listener stops that one event before mocha's `onerror` sees it; every other error
// still fails the test.
const pageSetup = `globalThis.pixBackendUrl = ${JSON.stringify(backend.url)};
  addEventListener("error", (event) => {
    if (/^ResizeObserver loop/.test(event.message)) event.stopImmediatePropagation();
  });`;
/**
 * The README's CSP for a store, plus what the test harness itself needs: its scripts and
 * its WebSocket come from the page's own origin, and the one inline script has a nonce.
 */
const strictCsp = (config) =>
  [
    "default-src 'none'",
    `script-src 'self' 'nonce-${CSP_NONCE}'`,
    `connect-src 'self' ws://${config.hostname}:${config.port} ${backend.url}`,
    "img-src 'self'",
    "style-src 'self'",
  ].join("; ");

export default {
  rootDir: root,
  // Groups only: files at the top level would add a default run in a Chrome of WTR's choosing.
  groups: [
    {
      name: "element",
      // src/internal/status-mapping.test.ts is Node's (vitest.unit.config.ts, `element-unit`).
      files: [
        "src/**/*.test.ts",
        "!src/preferences.test.ts",
        "!src/csp.test.ts",
        "!src/internal/status-mapping.test.ts",
      ],
      browsers: everything,
    },
    // A store page under the strict Content-Security-Policy the README gives: nothing but
    // the store backend to connect to, no image source beyond the page's own origin.
    {
      name: "strict-csp",
      files: ["src/csp.test.ts"],
      browsers: everything,
      testRunnerHtml: (testFramework, config) => `<!doctype html>
        <html><head><meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="${strictCsp(config)}">
        </head><body>
        <script nonce="${CSP_NONCE}">${pageSetup}</script>
        <script type="module" src="${testFramework}"></script>
        </body></html>`,
    },
    { name: "preferences", files: ["src/preferences.test.ts"], browsers: preferences },
    // The HTML pages the Medusa plugin serves (payment link, a reminder's links), drawn by its
    // own render functions and served at its paths (test-support/served-pages.mjs): WCAG 2.2
    // AA with axe-core and the keyboard, at 390 px and 1280 px (test-pages/served-pages.ts).
    // With them the demo storefront's `/pagar/<session>` page, the link in the demo's e-mails,
    // built from the storefront's own code (test-support/pay-link-page.mjs).
    { name: "served-pages", files: ["test-pages/**/*.test.ts"], browsers: everything },
  ],
  middleware: [await servedPagesMiddleware(backend.url), payLinkPageMiddleware(backend.url)],
  nodeResolve: { exportConditions: ["browser", "development"] },
  browsers: everything,
  // One page per browser at a time: the suite has timing tests, and CI has two cores.
  concurrency: 1,
  concurrentBrowsers: 3,
  browserStartTimeout: 60_000,
  testsStartTimeout: 60_000,
  // The longest file takes about 25 s on WebKit under load; a page that never reports its end
  // should cost two minutes, not five.
  testsFinishTimeout: Number(process.env.PIX_WTR_FINISH_TIMEOUT ?? 120_000),
  testFramework: { config: { timeout: 20_000 } },
  testRunnerHtml: (testFramework) => `<!doctype html>
    <html><head><meta charset="utf-8"></head><body>
    <script>${pageSetup}</script>
    <script type="module" src="${testFramework}"></script>
    </body></html>`,
  plugins: [
    esbuildPlugin({ ts: true, tsconfig: `${root}tsconfig.json`, target: "es2022" }),
    commonJsPlugin(root),
    pixCommandsPlugin({
      async onStop() {
        for (const child of running) child.stop();
        await backend.close();
      },
    }),
  ],
  reporters: [
    defaultReporter(),
    ...(process.env.PIX_WTR_JSON ? [jsonReporter(process.env.PIX_WTR_JSON)] : []),
  ],
};

// A run that dies before the server stops must not leave the driver behind.
process.once("exit", () => running.forEach((child) => child.stop()));
