import { describe, expect, it } from "vitest";
import { newCodePage, pageHeaders, secondChancePage } from "./pages";

const store = { name: "Loja Pix Checkout", home: "https://loja.example.com/" };

describe("the new-code link's pages", () => {
  it("carry the store's name in a header that links to its storefront, and in the title", () => {
    const { html } = secondChancePage({ kind: "open", method: "pix", checkoutUrl: null }, store);
    expect(html).toContain(
      '<header><a href="https://loja.example.com/">Loja Pix Checkout</a></header><main>',
    );
    expect(html).toContain("<title>Gerar novo código · Loja Pix Checkout</title>");
  });

  it("open on the cart and one button, with nothing in red before the shopper taps", () => {
    const { status, html } = secondChancePage(
      { kind: "open", method: "pix", checkoutUrl: null },
      store,
    );
    expect(status).toBe(200);
    expect(html).toContain("<h1>Seu carrinho continua aqui</h1>");
    expect(html.match(/<button/g)).toHaveLength(1);
    expect(html).not.toMatch(/expirado|class="error"/);
  });

  it("name the store without a link when there is no storefront address, and nothing when Medusa has no name", () => {
    expect(secondChancePage({ kind: "unknown" }, { name: "Loja <A>", home: null }).html).toContain(
      "<header><span>Loja &#60;A&#62;</span></header>",
    );
    expect(secondChancePage({ kind: "unknown" }, { name: null, home: null }).html).not.toContain(
      "<header>",
    );
  });
});

describe("the page that makes the new code", () => {
  const request = {
    collectionId: "pay_col_01JX3Q8Z2K4T0M9V6R7W5Y1N2B",
    providerId: "pp_pix_a",
    publishableKey: "pk_01</script>",
    pageTemplate: "https://loja.example.com/pagar/{session_id}",
    fallbackUrl: "https://loja.example.com/pagar/payses_old",
    renews: "payses_01JX3Q8Z2K4T0M9V6R7W5Y1OLD",
  };

  it("runs only its own script, by nonce, and asks only this server", () => {
    const { status, html } = newCodePage(request, "n0nce", store);
    expect(status).toBe(200);
    expect(html).toContain('<script nonce="n0nce">');
    expect(html).toContain('"providerId":"pp_pix_a"');
    // The request names the code it renews, so the store fills it as the shopper's.
    expect(html).toContain('"renews":"payses_01JX3Q8Z2K4T0M9V6R7W5Y1OLD"');
    expect(html).toContain("data: { renews: data.renews }");
    // Nothing in the data closes its script element.
    expect(html).not.toContain("pk_01</script>");
    expect(html).toContain('<a class="link" href="https://loja.example.com/pagar/payses_old">');
    const csp = pageHeaders([request.pageTemplate], "n0nce")["content-security-policy"];
    expect(csp).toContain("script-src 'nonce-n0nce'; connect-src 'self';");
    expect(pageHeaders([request.pageTemplate])["content-security-policy"]).not.toContain(
      "script-src",
    );
  });
});
