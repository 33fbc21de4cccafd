#!/usr/bin/env node
// The demo storefront's shipping step as a shopper on a phone lives it: from her tap on a
// shipping option ("PAC") to the payment step on screen ("Pagar com Pix"), in Chromium at
// 390 px, against the whole demo (`npm run demo`'s store, sandbox and storefront, its default
// options) on this machine. Three ways to the tap, each a fresh shopper (a new browser context
// and cart) every time:
//   - after "Calcular frete": the form saved and the options listed, then the tap;
//   - in the natural order: the form typed, then the tap at once (the form is saved by the tap);
//   - the same with a second between the last field and the tap.
// The time is the page's own, from the tap's touch to the first frame with the payment step's
// button. Beside it, what the page asked the store meanwhile: how many requests, and each one's
// median time (method and path, ids folded), so a change that adds one shows here.
// Usage: node test/bench/shipping-step.mjs (BENCH_OUT=file.json also writes the figures)
// Env: BENCH_TAPS (default 30 a way; BENCH_SMOKE=1: 3).
/* global window, document, addEventListener, requestAnimationFrame */
import { writeFileSync } from "node:fs";
import { launchChromium } from "../e2e/support/browser.mjs";
import { startE2eDemo } from "../e2e/support/demo.mjs";
import { fillDelivery, toDelivery } from "../e2e/support/shopper.mjs";
import { percentile } from "../../packages/medusa/bench/lib/http-tools.mjs";

const smoke = process.env.BENCH_SMOKE === "1";
const taps = Number(process.env.BENCH_TAPS ?? (smoke ? 3 : 30));

/** `POST /store/carts/cart_01…/shipping-methods` → `POST /store/carts/:id/shipping-methods`. */
const shapeOf = (method, url) =>
  `${method} ${new URL(url).pathname.replace(/\/(cart|reg|pay|ps)_[A-Za-z0-9]+/g, "/:id")}`;

const demo = await startE2eDemo({ databaseName: "pix_checkout_bench_shipping" });
const browser = await launchChromium();

/**
 * One shopper: a cart with the first product, the delivery typed, `before` done, then the tap on
 * PAC; answers the milliseconds from the tap to "Pagar com Pix" and the store calls in between.
 */
async function oneTap(before) {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    locale: "pt-BR",
    isMobile: true,
    hasTouch: true,
  });
  try {
    const page = await context.newPage();
    let inFlight = 0;
    page.on("request", () => inFlight++);
    page.on("requestfinished", () => inFlight--);
    page.on("requestfailed", () => inFlight--);
    await toDelivery(page, demo.urls.storefront);
    await fillDelivery(page, `frete-${Date.now().toString(36)}@example.com`);
    await before(page);
    const pac = page.getByRole("radio", { name: /PAC/ });
    await pac.waitFor();
    // What the page started before the tap ("Calcular frete" and what follows it) ends first:
    // the tap is timed alone. Quiet means no request for 300 ms.
    for (let quiet = 0; quiet < 3;) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      quiet = inFlight === 0 ? quiet + 1 : 0;
    }
    const calls = [];
    const sent = new Map();
    page.on("request", (request) => {
      if (request.url().startsWith(demo.urls.store) && request.method() !== "OPTIONS") {
        sent.set(request, performance.now());
      }
    });
    page.on("requestfinished", (request) => {
      const at = sent.get(request);
      if (at === undefined) return;
      calls.push({ shape: shapeOf(request.method(), request.url()), ms: performance.now() - at });
    });
    // Timed inside the page, from the tap's touch to the first frame that has the payment
    // step's button (Playwright's own waiting polls at up to 500 ms apart).
    await page.evaluate(() => {
      const timing = { tapped: 0, shown: 0 };
      window.__shippingTap = timing;
      addEventListener("touchstart", () => (timing.tapped = performance.now()), {
        capture: true,
        once: true,
      });
      const look = () => {
        const button = [...document.querySelectorAll("button")].find(
          (candidate) => candidate.textContent?.trim() === "Pagar com Pix",
        );
        if (timing.tapped && button) timing.shown = performance.now();
        else requestAnimationFrame(look);
      };
      requestAnimationFrame(look);
    });
    await pac.tap();
    await page.getByRole("button", { name: "Pagar com Pix" }).waitFor();
    const { tapped, shown } = await page.evaluate(() => window.__shippingTap);
    const ms = shown - tapped;
    return { ms, calls };
  } finally {
    await context.close();
  }
}

const ways = {
  after_calcular_frete: async (page) => {
    await page.getByRole("button", { name: "Calcular frete" }).click();
  },
  natural_order: async () => {},
  // The same with the second a shopper takes between the form and the options.
  natural_order_after_a_second: async () => {
    await new Promise((resolve) => setTimeout(resolve, 1000));
  },
};

/** The storefront's first page, until its products show. */
async function warmStorefront() {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(demo.urls.storefront, { timeout: 120_000 });
    await page
      .getByRole("button", { name: "Adicionar ao carrinho" })
      .first()
      .waitFor({ timeout: 120_000 });
  } finally {
    await context.close();
  }
}

const figures = {};
try {
  // One tap first, untimed: the first request of each kind compiles Medusa's routes and the
  // storefront's modules, a cost one shopper pays once a boot. The first page waits for its
  // products as long as a cold start takes beside another bench on a slow machine (more than
  // 30 s once, on 2026-11-30), which is not what this bench times.
  await warmStorefront();
  await oneTap(ways.after_calcular_frete);
  for (const [way, before] of Object.entries(ways)) {
    const samples = [];
    for (let i = 0; i < taps; i++) samples.push(await oneTap(before));
    const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
    figures[`${way}_tap_p50_ms`] = Math.round(percentile(sorted, 50));
    figures[`${way}_tap_p95_ms`] = Math.round(percentile(sorted, 95));
    figures[`${way}_store_calls`] = samples.at(-1).calls.length;
    // Each call's own time, its median over the taps: where the tap's time goes.
    const byShape = new Map();
    for (const { shape, ms } of samples.flatMap((s) => s.calls)) {
      byShape.set(shape, [...(byShape.get(shape) ?? []), ms]);
    }
    const each = [...byShape].map(([shape, times]) => {
      const median = Math.round(
        percentile(
          [...times].sort((a, b) => a - b),
          50,
        ),
      );
      return `${shape} p50 ${median} ms`;
    });
    console.log(
      `${way}: ${taps} taps, p50 ${figures[`${way}_tap_p50_ms`]} ms, p95 ${figures[`${way}_tap_p95_ms`]} ms; ` +
        `store calls on the tap: ${samples.at(-1).calls.length} (${each.join(", ")})`,
    );
  }
} finally {
  await browser.close();
  await demo.stop();
}

if (process.env.BENCH_OUT) {
  writeFileSync(
    process.env.BENCH_OUT,
    JSON.stringify({ name: "demo storefront shipping step (Chromium, 390 px)", figures }),
  );
}
