import { collectionPageHtml, pageNonce } from "../../src/internal/storefront/collection-page-html";
import type { CollectionPage } from "../../src/internal/storefront/collection-page-model";
import {
  newCodePage,
  brokenLinkPage,
  optOutPage,
  secondChancePage,
  storeUnavailablePage,
  tooManyPage,
  unavailablePage,
  type StorePlace,
} from "../../src/internal/recovery/pages";

/*
 * Every HTML page the plugin serves, in each of its states, drawn by the plugin's own render
 * functions (the ones its routes call) from models shaped as the routes build them. The
 * element's browser suite (packages/element/test-pages/served-pages.ts) opens them in
 * Chromium, Firefox and WebKit through its test server (test-support/served-pages-plugin.mjs)
 * and checks them with axe-core and the keyboard. Deciding WHICH state a request is in takes
 * the store's database and Medusa, which the integration tests cover; what a shopper reads and
 * tabs through is decided here, in these functions, so this is where the states are drawn.
 */

/** What the browser test must prepare before opening a page, and do once it is open. */
export interface ServedPageCase {
  /** The path the page is served at, under the plugin's own route for it. */
  path: string;
  /** What the page is, for the test's name. */
  title: string;
  /**
   * The `<pix-checkout>` session the page shows, put on the fake store backend first (the page
   * passes `?session=<id>` on to its model): its method and its status.
   */
  session?: { method: "pix" | "boleto"; status: "pending" | "paid" | "expired" | "canceled" };
  /** A button the shopper presses first (by id), e.g. to unfold the boleto form. */
  press?: string;
}

/** The publishable key the element's fake backend accepts. */
const PUBLISHABLE_KEY = "pk_test_element";
const ORDER = { id: "order_01JX3Q8Z2K4T0M9V6R7W5Y1N2B", displayId: 1042 };
const STORE = "Loja Exemplo";
const PLACE: StorePlace = { name: STORE, home: "https://loja.example.com" };
const PAGE_URL = "https://loja.example.com/pagar/payses_01JX3Q8Z2K4T0M9V6R7W5Y1N2B";
const CHECKOUT_URL = "https://loja.example.com/checkout";

type Rendered = { status: number; html: string };
type Render = (sessionId: string | null) => Rendered;

/** An open payment link's model: the order's exchange difference, Pix and boleto offered. */
function open(
  overrides: Partial<Extract<CollectionPage, { kind: "open" }>> = {},
): Extract<CollectionPage, { kind: "open" }> {
  return {
    kind: "open",
    order: ORDER,
    store: STORE,
    purpose: "exchange",
    collectionId: "paycol_01JX3Q8Z2K4T0M9V6R7W5Y1N2B",
    amountCents: 3990,
    publishableKey: PUBLISHABLE_KEY,
    pix: { providerId: "pp_pix-checkout_pix" },
    boleto: { providerId: "pp_pix-checkout_boleto", askPhone: true },
    session: null,
    elementEntry: "index.js?v=0123456789abcdef",
    ...overrides,
  };
}

const collection = (page: Parameters<typeof collectionPageHtml>[0]): Render => {
  return () => collectionPageHtml(page, pageNonce());
};

/** The payment-link page with the element showing the session named in the request. */
const collectionWithSession =
  (method: "pix" | "boleto"): Render =>
  (sessionId) =>
    collectionPageHtml(
      open({ session: sessionId ? { id: sessionId, method } : null }),
      pageNonce(),
    );

const canceled = {
  code: "collection_canceled",
  message: "This payment collection was canceled.",
} as const;

const PAGES: (ServedPageCase & { render: Render })[] = [
  // The payment link (api/pix-checkout/payment-collection/[id]).
  {
    path: "/pix-checkout/payment-collection/open",
    title: "payment link: open, Pix and boleto offered",
    render: collection(open()),
  },
  {
    path: "/pix-checkout/payment-collection/open-boleto-form",
    title: "payment link: open, the boleto form unfolded",
    press: "pix-boleto-toggle",
    render: collection(open()),
  },
  {
    path: "/pix-checkout/payment-collection/open-pix-only",
    title: "payment link: open, Pix only",
    render: collection(open({ purpose: "order", boleto: null })),
  },
  {
    path: "/pix-checkout/payment-collection/awaiting-pix",
    title: "payment link: awaiting payment of a Pix code",
    session: { method: "pix", status: "pending" },
    render: collectionWithSession("pix"),
  },
  {
    path: "/pix-checkout/payment-collection/awaiting-boleto",
    title: "payment link: awaiting payment of a boleto",
    session: { method: "boleto", status: "pending" },
    render: collectionWithSession("boleto"),
  },
  {
    path: "/pix-checkout/payment-collection/element-paid",
    title: "payment link: the element says paid",
    session: { method: "pix", status: "paid" },
    render: collectionWithSession("pix"),
  },
  {
    path: "/pix-checkout/payment-collection/element-expired",
    title: "payment link: the element says the code expired",
    session: { method: "pix", status: "expired" },
    render: collectionWithSession("pix"),
  },
  {
    path: "/pix-checkout/payment-collection/element-canceled",
    title: "payment link: the element says the code was canceled",
    session: { method: "pix", status: "canceled" },
    render: collectionWithSession("pix"),
  },
  {
    path: "/pix-checkout/payment-collection/paid",
    title: "payment link: paid by its code",
    render: collection({ kind: "paid", order: ORDER, store: STORE, byCode: true }),
  },
  {
    path: "/pix-checkout/payment-collection/already-paid",
    title: "payment link: already paid another way",
    render: collection({ kind: "paid", order: ORDER, store: STORE, byCode: false }),
  },
  {
    path: "/pix-checkout/payment-collection/canceled",
    title: "payment link: collection canceled",
    render: collection({ kind: "closed", order: ORDER, store: STORE, refusal: canceled }),
  },
  {
    path: "/pix-checkout/payment-collection/canceled-orphan",
    title: "payment link: collection canceled, no order any more",
    render: collection({ kind: "closed", order: null, store: null, refusal: canceled }),
  },
  {
    path: "/pix-checkout/payment-collection/order-canceled",
    title: "payment link: order canceled",
    render: collection({
      kind: "closed",
      order: ORDER,
      store: STORE,
      refusal: { code: "order_canceled", message: "The order was canceled." },
    }),
  },
  {
    path: "/pix-checkout/payment-collection/not-offered",
    title: "payment link: Pix not set up for the order",
    render: collection({ kind: "not_offered", order: ORDER, store: STORE, why: "no_key" }),
  },
  {
    path: "/pix-checkout/payment-collection/not-found",
    title: "payment link: not found or invalid",
    render: collection({ kind: "unknown" }),
  },
  {
    path: "/pix-checkout/payment-collection/too-many",
    title: "payment link: too many attempts",
    render: collection({ kind: "too_many", retryAfterMs: 90_000 }),
  },
  {
    path: "/pix-checkout/payment-collection/unavailable",
    title: "payment link: store unavailable (503)",
    render: collection({ kind: "unavailable" }),
  },

  // A reminder's new-code link (api/pix-checkout/recovery/[token]).
  {
    path: "/pix-checkout/recovery/open-pix",
    title: "recovery: open, Pix",
    render: () => secondChancePage({ kind: "open", method: "pix", checkoutUrl: null }, PLACE),
  },
  {
    path: "/pix-checkout/recovery/open-boleto",
    title: "recovery: open, boleto (Pix at the checkout instead)",
    render: () =>
      secondChancePage({ kind: "open", method: "boleto", checkoutUrl: CHECKOUT_URL }, PLACE),
  },
  {
    path: "/pix-checkout/recovery/ready-pix",
    title: "recovery: priced again, same price, Pix",
    render: () =>
      secondChancePage(
        { kind: "ready", method: "pix", paymentPageUrl: PAGE_URL, checkoutUrl: null },
        PLACE,
      ),
  },
  {
    path: "/pix-checkout/recovery/ready-boleto",
    title: "recovery: priced again, same price, boleto",
    render: () =>
      secondChancePage(
        { kind: "ready", method: "boleto", paymentPageUrl: PAGE_URL, checkoutUrl: CHECKOUT_URL },
        PLACE,
      ),
  },
  {
    path: "/pix-checkout/recovery/new-code",
    title: "recovery: making the new code failed, try again",
    render: () =>
      newCodePage(
        {
          // No such collection on the test server: the page's request fails and it says so.
          collectionId: "paycol_gone",
          providerId: "pp_pix-checkout_pix",
          publishableKey: PUBLISHABLE_KEY,
          pageTemplate: "https://loja.example.com/pagar/{session_id}",
          fallbackUrl: PAGE_URL,
          renews: "payses_01JX3Q8Z2K4T0M9V6R7W5YGONE",
        },
        pageNonce(),
        PLACE,
      ),
  },
  {
    path: "/pix-checkout/recovery/changed",
    title: "recovery: the cart's price changed",
    render: () =>
      secondChancePage(
        {
          kind: "changed",
          wasCents: 19990,
          nowCents: 21480,
          lines: [
            { title: "Camiseta básica azul", quantity: 2 },
            { title: "Boné aba curva", quantity: 1 },
          ],
          paymentPageUrl: PAGE_URL,
        },
        PLACE,
      ),
  },
  {
    path: "/pix-checkout/recovery/paid",
    title: "recovery: already paid",
    render: () => secondChancePage({ kind: "paid", paymentPageUrl: PAGE_URL }, PLACE),
  },
  {
    path: "/pix-checkout/recovery/ordered",
    title: "recovery: cart closed",
    render: () => secondChancePage({ kind: "ordered", checkoutUrl: CHECKOUT_URL }, PLACE),
  },
  {
    path: "/pix-checkout/recovery/expired",
    title: "recovery: link expired",
    render: () => secondChancePage({ kind: "expired", checkoutUrl: CHECKOUT_URL }, PLACE),
  },
  {
    path: "/pix-checkout/recovery/unknown",
    title: "recovery: link unknown",
    render: () => secondChancePage({ kind: "unknown" }, PLACE),
  },
  {
    path: "/pix-checkout/recovery/too-many",
    title: "recovery: too many attempts",
    render: () => tooManyPage(61_000),
  },
  {
    path: "/pix-checkout/recovery/unavailable",
    title: "recovery: store unavailable (503)",
    render: () => unavailablePage(),
  },

  // Any of these pages when the request itself fails (operations/route-failures.ts): the
  // store's database away (it asks again by itself, by its own script), a broken %-escape.
  {
    path: "/pix-checkout/recovery/database-away",
    title: "any page: the store's database away (503, asks again by itself)",
    render: () => storeUnavailablePage(3, "dGVzdC1ub25jZQ=="),
  },
  {
    path: "/pix-checkout/recovery/broken-escape",
    title: "any page: a broken link (400)",
    render: () => brokenLinkPage(),
  },

  // A reminder's opt-out link (api/pix-checkout/recovery/[token]/opt-out).
  {
    path: "/pix-checkout/recovery/ask/opt-out",
    title: "opt-out: before the button",
    render: () =>
      optOutPage(
        { mailbox: "a•••••••a@example.com", store: STORE, alreadyOff: false },
        false,
        PLACE,
      ),
  },
  {
    path: "/pix-checkout/recovery/done/opt-out",
    title: "opt-out: after the button",
    render: () =>
      optOutPage(
        { mailbox: "a•••••••a@example.com", store: STORE, alreadyOff: false },
        true,
        PLACE,
      ),
  },
  {
    path: "/pix-checkout/recovery/already-off/opt-out",
    title: "opt-out: reminders already off",
    render: () => optOutPage({ mailbox: null, store: null, alreadyOff: true }, false, PLACE),
  },
  {
    path: "/pix-checkout/recovery/expired/opt-out",
    title: "opt-out: link expired",
    render: () => optOutPage("expired", false, PLACE),
  },
  {
    path: "/pix-checkout/recovery/unknown/opt-out",
    title: "opt-out: link unknown",
    render: () => optOutPage("unknown", false, null),
  },
];

/** Every page and state, as the browser test lists them. */
export const servedPageCases: ServedPageCase[] = PAGES.map(({ render: _render, ...rest }) => rest);

/** The page served at `path` (the session it shows from `?session=`), or null. */
export function renderServedPage(path: string, sessionId: string | null): Rendered | null {
  return PAGES.find((page) => page.path === path)?.render(sessionId) ?? null;
}
