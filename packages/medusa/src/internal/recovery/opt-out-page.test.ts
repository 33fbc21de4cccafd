import { describe, expect, it } from "vitest";
import { optOutPage } from "./pages";
import { maskMailbox } from "./second-chance";

const text = (html: string) => html.replace(/<[^>]*>/g, " ").replace(/\s+/g, " ");

describe("the opt-out link's page", () => {
  it("names the mailbox, masked, and the store before the button", () => {
    const { html } = optOutPage(
      {
        mailbox: maskMailbox("ana.souza@example.com"),
        store: "Loja Pix Checkout",
        alreadyOff: false,
      },
      false,
    );
    expect(text(html)).toContain(
      "a•••••••a@example.com não receberá mais lembretes sobre códigos Pix e boletos não pagos da loja Loja Pix Checkout",
    );
    expect(html).toContain('<form method="post">');
    expect(html).not.toContain("ana.souza");
  });

  it("says the reminders are already off on a second visit, with no button", () => {
    const { status, html } = optOutPage(
      { mailbox: maskMailbox("ana@example.com"), store: null, alreadyOff: true },
      false,
    );
    expect(status).toBe(200);
    expect(text(html)).toContain("Os lembretes já estão desligados");
    expect(text(html)).toContain("a•a@example.com não recebe lembretes de pagamento desta loja");
    expect(html).not.toContain("<form");
  });

  it("escapes what it names", () => {
    const { html } = optOutPage({ mailbox: "<b>@x", store: "<script>", alreadyOff: false }, true);
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<b>@x");
  });
});
