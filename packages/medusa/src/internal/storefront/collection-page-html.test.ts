import { collectionPageHtml } from "./collection-page-html";
import type { CollectionPage } from "./collection-page-model";

const open = (session: Extract<CollectionPage, { kind: "open" }>["session"]) =>
  collectionPageHtml(
    {
      kind: "open",
      order: { id: "order_01JX3Q8Z2K4T0M9V6R7W5Y1N2B", displayId: 3 },
      store: "Loja Exemplo",
      purpose: "order_edit",
      collectionId: "pay_col_01JX3Q8Z2K4T0M9V6R7W5Y1N2B",
      amountCents: 3500,
      publishableKey: "pk_test",
      pix: { providerId: "pp_pix_a" },
      boleto: { providerId: "pp_boleto_a", askPhone: false },
      session,
      elementEntry: "pix-checkout.js",
    },
    "nonce",
  ).html;

/** The page's markup without its script and style: what the browser shows before any script. */
const body = (html: string) =>
  html.replace(/<script[\s\S]*?<\/script>/g, "").replace(/<style[\s\S]*?<\/style>/g, "");

describe("the payment page of an order's collection", () => {
  it("offers the boleto as a button that opens its form, reached by the keyboard like the Pix one, not as a heading-like summary", () => {
    const html = body(open(null));
    expect(html).not.toContain("<summary");
    expect(html).not.toContain("<details");
    expect(html).toMatch(
      /<button class="button secondary toggle" type="button" id="pix-boleto-toggle" aria-expanded="false" aria-controls="pix-boleto">Prefiro pagar com boleto<\/button>/,
    );
    // The form waits behind its button; nothing takes the button out of the tab order.
    expect(html).toContain('<form id="pix-boleto" novalidate hidden>');
    expect(html).not.toMatch(/id="pix-boleto-toggle"[^>]*tabindex="-1"/);
  });

  it("says the amount before a code is made, and leaves it to the element once a code is on screen", () => {
    expect(body(open(null))).toMatch(/<p id="pix-subtitle" class="amount">R\$\s35,00<\/p>/);
    expect(body(open({ id: "payses_1", method: "pix" }))).toMatch(
      /<p id="pix-subtitle" class="amount" hidden>R\$\s35,00<\/p>/,
    );
  });

  it("keeps the order's title once paid: the element alone says Pagamento confirmado", () => {
    const script = /<script type="module" nonce="nonce">([\s\S]*?)<\/script>/.exec(open(null))![1]!;
    expect(script).not.toContain('textContent = "Pagamento confirmado"');
    expect(script).toContain('getElementById("pix-subtitle").hidden = true');
  });
});
