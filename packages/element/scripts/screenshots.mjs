#!/usr/bin/env node
// Renders the README's state screenshots into docs/: the built element (dist/) on a page,
// against the test suite's fake backend, in the system Chromium at 360-390 px and desktop width.
// Run `npm run build` first. Not part of the tests. Names given as arguments narrow the run
// to those pictures (`node scripts/screenshots.mjs superseded refund-due`).
import { build } from "esbuild";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { chromium } from "playwright";

const root = new URL("..", import.meta.url).pathname;
const bundled = await build({
  entryPoints: [join(root, "test-support/fake-backend.ts")],
  bundle: true,
  platform: "node",
  format: "esm",
  packages: "external",
  write: false,
  absWorkingDir: root,
});
// Written next to the package so that its bare imports (qrcode) resolve from node_modules.
const local = join(root, "test-support", ".fake-backend.tmp.mjs");
writeFileSync(local, bundled.outputFiles[0].text);
const { startFakeBackend, PUBLISHABLE_KEY } = await import(local);
rmSync(local);

const backend = await startFakeBackend();
const page = (id, dark) => `<!doctype html><meta name="viewport" content="width=device-width">
  <body style="margin:16px;background:${dark ? "#000" : "#f4f4f4"}">
  <pix-checkout backend-url="${backend.url}" publishable-key="${PUBLISHABLE_KEY}" session-id="${id}"></pix-checkout>
  <script type="module" src="/dist/index.js"></script>`;
const files = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://x");
  if (url.pathname === "/") {
    res.writeHead(200, { "content-type": "text/html" });
    return res.end(page(url.searchParams.get("id"), url.searchParams.has("dark")));
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
const origin = `http://127.0.0.1:${files.address().port}`;

const PIX =
  "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D";
const now = Date.now();
const session = (id, extra = {}) => ({
  session_id: id,
  method: "pix",
  status: "pending",
  amount: 12345,
  currency: "BRL",
  expires_at: new Date(now + 14 * 60_000 + 32_000).toISOString(),
  paid_at: null,
  server_time: new Date(now).toISOString(),
  pix: { copy_paste: PIX },
  ...extra,
});
const sessions = {
  pix: session("pix"),
  boleto: session("boleto", {
    method: "boleto",
    pix: undefined,
    boleto: {
      url: "https://bank.example/boleto.pdf",
      barcode: "00193373700000001000500940144816060680935031",
      digitable_line: "00190500954014481606906809350314337370000000100",
      due_date: "2030-01-31",
    },
  }),
  // The store's create line is past the payment service's minute budget: no code yet.
  preparing: session("preparing", {
    status: "preparing",
    expires_at: null,
    pix: undefined,
    ready_at: new Date(now + 42_000).toISOString(),
    queue_position: 17,
  }),
  paid: session("paid", { status: "paid" }),
  expired: session("expired", { status: "expired" }),
  // The store sends where a new code comes from once the old one can no longer be paid.
  "expired-renew": session("expired-renew", {
    status: "expired",
    renew: { payment_collection_id: "pay_col_shot", provider_id: "pp_pix_pix-checkout" },
  }),
  // The store's Pix discount applies: what paying by Pix saves, under the amount.
  "pix-discount": session("pix-discount", {
    amount: 11728,
    pix_discount: { code: "DESCONTO-PIX", type: "percentage", value: 5, saved: 617 },
  }),
  // 58 s left when the page opens: the 1-minute warning.
  "one-minute": session("one-minute", { expires_at: new Date(now + 58_000).toISOString() }),
  failed: session("failed", { status: "failed" }),
  // The merchant canceled the order: the code ended with it, and names it.
  canceled: session("canceled", {
    status: "canceled",
    order: { display_id: 1042, payment: "canceled" },
  }),
  // The fake sends a superseded session without its code, as the store does.
  superseded: session("superseded", { status: "superseded", replaced_by: "pix" }),
  // The shopper paid an older code of the cart (before it changed): the store returns it.
  "earlier-payment": session("earlier-payment", {
    amount: 7000,
    earlier_payment: { amount: 3500, order_paid: false },
  }),
  // The bank paid the code short: R$ 100,00 of R$ 123,45 arrived; the store decides.
  held: session("held", {
    status: "held",
    paid_at: new Date(now).toISOString(),
    pix: undefined,
    received: { amount: 10000 },
  }),
  // The payment arrived, but the cart's last unit sold meanwhile: Medusa refused the order, and
  // the store tries again before it gives the money back.
  confirming: session("confirming", {
    status: "confirming",
    paid_at: new Date(now).toISOString(),
    pix: undefined,
    received: { amount: 12345 },
  }),
  // The code paid its order, then the merchant edited the order up: it still owes R$ 35,00.
  "order-owes": session("order-owes", {
    status: "paid",
    paid_at: new Date(now).toISOString(),
    pix: undefined,
    order: { display_id: 1043, payment: "awaiting", owes: 3500 },
  }),
  // An item of the cart sold out before the payment arrived: no order, the money goes back.
  "refund-due": session("refund-due", {
    status: "refund_due",
    refund: { amount: 12345, reason: "out_of_stock" },
  }),
  // Another tab changed the cart; this tab's old code was paid from the clipboard anyway, for
  // less than the cart now asks: the money goes back, the order waits for the current code.
  "replaced-paid": session("replaced-paid", {
    status: "refund_due",
    amount: 19455,
    refund: { amount: 19455, reason: "paid_old_amount" },
    replaced_by: "pix",
    order: { display_id: 3, payment: "awaiting" },
  }),
};
for (const [id, s] of Object.entries(sessions)) {
  await fetch(`${backend.url}/__control/sessions/${id}`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ session: s }),
  });
}

// [file, viewport width, color scheme, session, what to tap first]
const shots = [
  ["phone-copy-first", 390, "light", "pix"],
  ["phone-qr", 390, "light", "pix", "show-qr-button"],
  ["phone-one-minute", 390, "light", "one-minute"],
  ["phone-pix-discount", 390, "light", "pix-discount"],
  ["phone-expired", 390, "light", "expired-renew"],
  ["desktop-1280", 1280, "light", "pix"],
  ["pix", 360, "light", "pix"],
  ["pix-desktop-dark", 1024, "dark", "pix"],
  ["boleto", 390, "light", "boleto"],
  ["preparing", 390, "light", "preparing"],
  ["paid", 360, "light", "paid"],
  ["expired", 360, "light", "expired"],
  ["failed", 360, "dark", "failed"],
  ["canceled", 360, "light", "canceled"],
  ["error", 360, "light", "no-such-session"],
  ["superseded", 390, "light", "superseded"],
  ["refund-due", 390, "light", "refund-due"],
  ["phone-held", 390, "light", "held"],
  ["phone-confirming", 390, "light", "confirming"],
  ["phone-order-owes", 390, "light", "order-owes"],
  ["phone-canceled", 390, "light", "canceled"],
  ["phone-replaced-code-paid", 390, "light", "replaced-paid"],
  ["phone-earlier-payment", 390, "light", "earlier-payment"],
];
const only = process.argv.slice(2);
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
for (const [name, width, colorScheme, id, tap] of shots) {
  if (only.length && !only.includes(name)) continue;
  const context = await browser.newContext({ viewport: { width, height: 800 }, colorScheme });
  const tab = await context.newPage();
  await tab.goto(`${origin}/?id=${id}${colorScheme === "dark" ? "&dark" : ""}`);
  if (tap) await tab.locator(`pix-checkout [part~=${tap}]`).click();
  await tab.waitForFunction(() => {
    const el = document.querySelector("pix-checkout");
    const qr = el?.shadowRoot?.querySelector("[part=qr]");
    // A message's words may come in a chunk of their own (superseded, refund due, and the
    // preparing view's estimate): wait for them.
    const body = el?.shadowRoot?.querySelector("[part=message] .muted");
    const estimate = el?.view !== "preparing" || el.shadowRoot.textContent.includes("Pronto em");
    // An older code's money: its line comes with the notice chunk too.
    const returned =
      !el?.session?.earlier_payment || el.shadowRoot.querySelector("[part=returned]");
    // A code's order ("Seu pedido #1043 ainda tem…") comes with the notice chunk too.
    const order =
      !el?.session?.order || el.shadowRoot.textContent.includes(`#${el.session.order.display_id}`);
    return (
      el &&
      el.view !== "loading" &&
      order &&
      (!qr || qr.querySelector("svg")) &&
      (!body || body.textContent.trim()) &&
      estimate &&
      returned
    );
  });
  const box = await tab.locator("pix-checkout").boundingBox();
  await tab.screenshot({
    path: join(root, "docs", `${name}.png`),
    clip: { x: 0, y: 0, width: Math.min(width, 460), height: Math.ceil((box?.height ?? 600) + 32) },
  });
  await context.close();
  process.stdout.write(`docs/${name}.png\n`);
}
await browser.close();
await backend.close();
files.close();
