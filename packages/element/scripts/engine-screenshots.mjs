#!/usr/bin/env node
// Renders the pending Pix view in each engine the tests run in (Chromium, Firefox ESR,
// WebKitGTK) into docs/pix-{chromium,firefox,webkit}.png: the built element (dist/) at
// 360 px against the test suite's fake backend, pictured by each browser's own driver.
// Run `npm run build` first, under `xvfb-run -a` where there is no X display (WebKit's
// MiniBrowser needs one). Not part of the tests.
import { readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import puppeteer from "puppeteer";
import { remote } from "webdriverio";
import { loadFakeBackend } from "../test-support/load-fake-backend.mjs";
import { startWebKitDriver, WEBKIT_MINIBROWSER } from "../test-support/webkit-driver.mjs";

const root = new URL("..", import.meta.url).pathname;
const { startFakeBackend, PUBLISHABLE_KEY } = await loadFakeBackend();
const backend = await startFakeBackend();

const PIX =
  "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D";
const now = Date.now();
// A long expiry: every engine shows the same minute however long the shots take.
const session = {
  session_id: "pix",
  method: "pix",
  status: "pending",
  amount: 12345,
  currency: "BRL",
  expires_at: new Date(now + 14 * 60_000 + 32_000 + 60_000).toISOString(),
  paid_at: null,
  server_time: new Date(now).toISOString(),
  pix: { copy_paste: PIX },
};
await fetch(`${backend.url}/__control/sessions/pix`, {
  method: "PUT",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ session }),
});

const files = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://x");
  if (url.pathname === "/") {
    res.writeHead(200, { "content-type": "text/html" });
    return res.end(`<!doctype html><meta name="viewport" content="width=device-width">
      <body style="margin:16px;background:#f4f4f4">
      <pix-checkout backend-url="${backend.url}" publishable-key="${PUBLISHABLE_KEY}" session-id="pix"></pix-checkout>
      <script type="module" src="/dist/index.js"></script>`);
  }
  try {
    const body = readFileSync(join(root, "dist", url.pathname.replace(/^\/dist\//, "")));
    res.writeHead(200, { "content-type": "text/javascript" });
    res.end(body);
  } catch {
    res.writeHead(404);
    res.end();
  }
});
await new Promise((resolve) => files.listen(0, "127.0.0.1", resolve));
const page = `http://127.0.0.1:${files.address().port}/`;

/**
 * True once the element shows the pending view: in the copy-first order a 360 px phone gets,
 * or, where the window cannot be that narrow (MiniBrowser), with its QR drawn (run in the page).
 */
const READY = `const el = document.querySelector("pix-checkout");
  const root = el && el.shadowRoot;
  const shown = root && root.querySelector("[part~=show-qr-button], [part=qr] svg path");
  return !!(el && el.view === "pending" && shown);`;

async function puppeteerShot(name, options) {
  const browser = await puppeteer.launch({ headless: true, ...options });
  try {
    const tab = await browser.newPage();
    await tab.setViewport({ width: 360, height: 900 });
    await tab.goto(page);
    await tab.waitForFunction(new Function(READY), { timeout: 15_000 });
    const el = await tab.$("pix-checkout");
    await el.screenshot({ path: join(root, "docs", `${name}.png`) });
  } finally {
    await browser.close();
  }
  process.stdout.write(`docs/${name}.png\n`);
}

await puppeteerShot("pix-chromium", {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
});
await puppeteerShot("pix-firefox", {
  browser: "firefox",
  executablePath: process.env.FIREFOX_PATH ?? "/usr/bin/firefox-esr",
});

const driver = await startWebKitDriver();
try {
  const browser = await remote({
    hostname: "127.0.0.1",
    port: driver.port,
    logLevel: "error",
    capabilities: {
      browserName: "MiniBrowser",
      "webkitgtk:browserOptions": { binary: WEBKIT_MINIBROWSER, args: ["--automation"] },
      "wdio:enforceWebDriverClassic": true,
    },
  });
  try {
    await browser.setWindowSize(360, 900);
    await browser.url(page);
    await browser.waitUntil(() => browser.execute(READY), { timeout: 15_000 });
    // Let WebKit paint the last layout before the viewport is taken.
    await browser.executeAsync((done) => {
      setTimeout(() => requestAnimationFrame(() => done()), 500);
    });
    // WebKitWebDriver's element screenshots come out blank under Xvfb: take the viewport and
    // let the page crop it to the element.
    const viewport = await browser.takeScreenshot();
    const png = await browser.executeAsync((shot, done) => {
      const rect = document.querySelector("pix-checkout").getBoundingClientRect();
      const img = new Image();
      img.onload = () => {
        const scale = img.naturalWidth / window.innerWidth;
        const canvas = document.createElement("canvas");
        canvas.width = Math.round(rect.width * scale);
        canvas.height = Math.round(rect.height * scale);
        const [x, y, w, h] = [rect.x, rect.y, rect.width, rect.height].map((v) => v * scale);
        canvas.getContext("2d").drawImage(img, x, y, w, h, 0, 0, canvas.width, canvas.height);
        done(canvas.toDataURL("image/png").split(",")[1]);
      };
      img.src = `data:image/png;base64,${shot}`;
    }, viewport);
    writeFileSync(join(root, "docs", "pix-webkit.png"), Buffer.from(png, "base64"));
    process.stdout.write("docs/pix-webkit.png\n");
  } finally {
    await browser.deleteSession();
  }
} finally {
  driver.stop();
}
await backend.close();
files.close();
