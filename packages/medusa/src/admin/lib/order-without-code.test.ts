// What the merchant reads about an order kept although its Pix or boleto code could never be
// made: its row in "Precisa de atenção", the count on the health card, and the order widget's
// line of what the order still owes (also for an order edited up after its code was paid).
// The real components, rendered with React's server renderer in Brazilian Portuguese and in
// English with the plugin's own translations, the data already in the query cache.
import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { TooltipProvider } from "@medusajs/ui";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { StaticRouter } from "react-router-dom";
import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
// The components are imported before the browser globals are stubbed below: react-aria (in
// @medusajs/ui) looks for a DOM when it loads and would take the stubs for one.
import PixCheckoutPage from "../routes/pix-checkout/page";
import PixCheckoutOrderWidget from "../widgets/pix-checkout-order";
import translations, { PIX_CHECKOUT_NS } from "../i18n";
import { formatInstant } from "./format";
import { HealthCard } from "./health-card";
import type { PixT } from "./i18n";
import { orderWithoutCodeWords } from "./order-without-code";
import { PERMISSIONS_KEY } from "./permissions";
import type { AdminCharge, AdminHealth, AdminOrderWithoutCode, AdminOutstanding } from "./types";

const FAILED_AT = "2026-11-26T17:03:00.000Z";

const KEPT: AdminOrderWithoutCode = {
  order: { id: "order_1", display_id: 1042, email: "diego@example.com" },
  session_id: "payses_1",
  method: "boleto",
  amount_cents: 34990,
  error_code: "payment_service_error",
  failed_at: FAILED_AT,
};

/** What `/admin/pix-checkout/orders/order_1` answers for a kept order: no charge, the link. */
const owed = (amount: number): AdminOutstanding => ({
  payment_collection_id: "pay_col_1",
  amount,
  currency: "BRL",
  purpose: "cart",
  display_id: 1042,
  link: "https://loja.example/pix-checkout/payment-collection/pay_col_1?order_id=order_1",
  page_path: "/pix-checkout/payment-collection/pay_col_1?order_id=order_1",
  whatsapp: "5511987654321",
  email: "diego@example.com",
});

/** The order-first Pix that paid R$ 100,00 before the order was edited up to R$ 150,00. */
const PAID_BEFORE_EDIT: AdminCharge = {
  charge_id: "ch_0002",
  provider_id: "pp_pix_a",
  method: "pix",
  status: "paid",
  purpose: "cart",
  amount: 10000,
  currency: "BRL",
  expires_at: "2026-11-25T13:00:00Z",
  paid_at: "2026-11-25T12:00:00Z",
  attention: null,
  money: {
    received: 10000,
    held: 0,
    held_reason: null,
    captured: 10000,
    owed: 0,
    owed_reason: null,
    returned: 0,
    contested: 0,
    med: null,
  },
  flagged: false,
  flag: null,
  pix: { copy_paste: "00020126...", payment_link: null },
  boleto: null,
  timeline: [],
};

const healthWith = (noCode: number): AdminHealth => ({
  state: "warning",
  checked_at: "2026-11-26T17:10:00.000Z",
  providers: ["a"],
  lines: [
    {
      id: "attention",
      state: "warning",
      value: noCode,
      detail: {
        held: 0,
        refund_due: 0,
        no_order: 0,
        not_captured: 0,
        note: 0,
        no_code: noCode,
        total: noCode,
        reason: "needs_attention",
      },
      action: "see_needs_attention",
    },
  ],
});

/** The markup of `element` in the dashboard's providers, `seeded` query data already fetched. */
function render(element: ReactElement, seeded: [readonly unknown[], unknown][] = []): string {
  const client = new QueryClient();
  client.setQueryData(PERMISSIONS_KEY, { rbac: false });
  for (const [key, data] of seeded) client.setQueryData(key, data);
  return renderToStaticMarkup(
    createElement(
      StaticRouter,
      { location: "/app/pix-checkout" },
      createElement(QueryClientProvider, { client }, createElement(TooltipProvider, null, element)),
    ),
  );
}

/** The text a merchant reads in some markup: tags dropped, entities decoded. */
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");

/** Renders in the admin language `language`, with a browser of the same language. */
async function speak(language: "ptBR" | "en"): Promise<void> {
  vi.stubGlobal("navigator", {
    languages: [language === "ptBR" ? "pt-BR" : "en-US"],
    language: language === "ptBR" ? "pt-BR" : "en-US",
  });
  await i18next.changeLanguage(language);
}

const attentionPage = (kept: AdminOrderWithoutCode[], charges: unknown[] = []) =>
  render(createElement(PixCheckoutPage), [
    [["pix-checkout", "charges", "needs_attention"], { charges, orders_without_code: kept }],
  ]);

describe("an order kept without a payment code, as the merchant reads it", () => {
  beforeAll(async () => {
    // What the views read of the browser: the admin's language and the page's address.
    vi.stubGlobal("document", { cookie: "" });
    vi.stubGlobal("localStorage", { getItem: () => null });
    vi.stubGlobal("window", {
      location: { hash: "", origin: "https://loja.example" },
      history: { replaceState: () => undefined },
    });
    await i18next
      .use(initReactI18next)
      // As Medusa's dashboard initializes it: React escapes, i18next does not.
      .init({
        resources: translations,
        lng: "ptBR",
        fallbackLng: "en",
        interpolation: { escapeValue: false },
      });
  });
  afterAll(() => {
    vi.unstubAllGlobals();
  });

  it("is a row of 'Precisa de atenção' that says what happened, when, and what to do, in Portuguese", async () => {
    await speak("ptBR");
    const html = attentionPage([KEPT]);
    const row = text(html);
    expect(html).toContain('data-pix-checkout="order-without-code"');
    // The order links to Medusa's order page, as the charges' rows do; its customer beside it.
    expect(html).toContain('href="/orders/order_1"');
    expect(row).toContain("#1042");
    expect(row).toContain("diego@example.com");
    expect(row).toContain("R$ 349,90");
    expect(row).toContain("Boleto não gerado");
    expect(row).toContain("Pedido sem código de pagamento");
    expect(row).toContain(
      `O boleto não pôde ser gerado em ${formatInstant(FAILED_AT, "pt-BR")}. O cliente não tem como pagar este pedido até receber o link de pagamento.`,
    );
    expect(row).toContain("Envie o link de pagamento do pedido ao cliente, ou cancele o pedido.");
    expect(row).toContain("Ver link de pagamento");
    expect(row).toContain("Erro: payment_service_error");
    // The list is not empty while only such an order waits.
    expect(row).not.toContain("Nada pendente");
    expect(row).not.toMatch(/could not|payment link|cancel the order/);
  });

  it("says the same in English", async () => {
    await speak("en");
    const row = text(attentionPage([{ ...KEPT, method: "pix", error_code: null }]));
    expect(row).toContain("Order without a payment code");
    expect(row).toContain("Pix code not created");
    expect(row).toContain(
      `The Pix code could not be created on ${formatInstant(FAILED_AT, "en")}. The customer has no way to pay this order until they get its payment link.`,
    );
    expect(row).toContain("Send the order's payment link to the customer, or cancel the order.");
    expect(row).toContain("See payment link");
    expect(row).not.toContain("Error:");
    expect(row).not.toContain("Nothing pending");
  });

  it("has its words for either method in both languages, none falling through to a key", () => {
    const translator =
      (language: "ptBR" | "en"): PixT =>
      (key, values) =>
        i18next.t(key, { ns: PIX_CHECKOUT_NS, lng: language, ...values });
    for (const language of ["ptBR", "en"] as const) {
      for (const method of ["pix", "boleto"] as const) {
        const words = orderWithoutCodeWords({ ...KEPT, method }, translator(language), () => "x");
        for (const said of Object.values(words)) {
          expect(said, `${language} ${method}`).not.toMatch(/attention\.|\{\{/);
        }
      }
    }
  });

  it("is counted on the health card's 'Precisa de atenção' line, in both languages", async () => {
    await speak("ptBR");
    const seeded: [readonly unknown[], unknown][] = [[["pix-checkout", "health"], healthWith(1)]];
    expect(text(render(createElement(HealthCard), seeded))).toContain(
      "1 no total: 0 retida(s), 0 devolução(ões) devida(s), 0 sem pedido, 0 sem captura, 0 aviso(s), 1 pedido(s) sem código de pagamento",
    );
    await speak("en");
    expect(text(render(createElement(HealthCard), seeded))).toContain(
      "1 in all: 0 held, 0 refund(s) due, 0 without an order, 0 not captured, 0 note(s), 1 order(s) without a payment code",
    );
  });
});

describe("the order widget's line of what an order-first order still owes", () => {
  beforeAll(async () => {
    vi.stubGlobal("document", { cookie: "" });
    vi.stubGlobal("localStorage", { getItem: () => null });
    await i18next
      .use(initReactI18next)
      // As Medusa's dashboard initializes it: React escapes, i18next does not.
      .init({
        resources: translations,
        lng: "ptBR",
        fallbackLng: "en",
        interpolation: { escapeValue: false },
      });
  });
  afterAll(() => {
    vi.unstubAllGlobals();
  });

  const widget = (charges: AdminCharge[], outstanding: AdminOutstanding) =>
    text(
      render(createElement(PixCheckoutOrderWidget, { data: { id: "order_1" } as never }), [
        [["pix-checkout", "order", "order_1"], { charges, outstanding }],
      ]),
    );

  it("names what is still owed, not the order's price: its code failed, so the whole order", async () => {
    await speak("ptBR");
    const pt = widget([], owed(34990));
    expect(pt).toContain("Valor em aberto do pedido #1042");
    expect(pt).toContain("R$ 349,90");
    expect(pt).toContain("Copiar link");
    await speak("en");
    expect(widget([], owed(34990))).toContain("Still owed on order #1042");
  });

  it("edited up after its code was paid: the rest, beside the code that paid the first part", async () => {
    await speak("ptBR");
    const pt = widget([PAID_BEFORE_EDIT], owed(5000));
    expect(pt).toContain("Valor em aberto do pedido #1042 R$ 50,00");
    expect(pt).toContain("R$ 100,00");
    await speak("en");
    expect(widget([PAID_BEFORE_EDIT], owed(5000))).toContain("Still owed on order #1042 R$ 50,00");
  });
});
