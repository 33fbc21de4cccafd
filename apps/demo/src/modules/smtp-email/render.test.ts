import { describe, expect, it } from "vitest";
import { QR_CID, renderMessage } from "./render";

const store = "Loja Pix Checkout";
const ENGLISH = /\b(the|your|code|order|payment|click|here|expires?|paid)\b/i;

describe("the demo store's e-mails", () => {
  it("sends a Pix code as an e-mail: subject, Portuguese HTML with the QR inline, and a text part", () => {
    const mail = renderMessage(
      "pix-checkout-code",
      {
        method: "pix",
        amount: "R$ 48,92",
        payment_page_url: "http://localhost:5173/pagar/payses_1",
        pix: { copy_paste: "00020126580014br.gov.bcb.pix", qr_png_base64: "iVBORw0KGgo=" },
      },
      store,
    );
    expect(mail.subject).toBe("Seu código Pix de R$ 48,92");
    expect(mail.html).toContain('lang="pt-BR"');
    expect(mail.html).toContain(`<img src="cid:${QR_CID}"`);
    expect(mail.attachments).toEqual([
      expect.objectContaining({ cid: QR_CID, content: "iVBORw0KGgo=", contentType: "image/png" }),
    ]);
    expect(mail.text).toContain("00020126580014br.gov.bcb.pix");
    expect(mail.text).toContain("http://localhost:5173/pagar/payses_1");
    expect(mail.text.replaceAll("QR code", "QR").replaceAll("Pix Copia e Cola", "")).not.toMatch(
      ENGLISH,
    );
  });

  it("puts the opt-out link in every reminder, and the new-code link in the expired one", () => {
    const mail = renderMessage(
      "pix-checkout-pix-expired-new-code",
      {
        method: "pix",
        amount: "R$ 48,92",
        reminder: {
          step: "pix_expired",
          new_code_url: "http://localhost:9000/pix-checkout/recovery/abc",
          opt_out_url: "http://localhost:9000/pix-checkout/recovery/abc/opt-out",
        },
      },
      store,
    );
    expect(mail.subject).toBe("Seu código Pix expirou, mas seu carrinho continua aqui");
    expect(mail.text).toContain(
      "Gerar novo código: http://localhost:9000/pix-checkout/recovery/abc",
    );
    expect(mail.html).toContain("Não quero mais lembretes");
    expect(mail.attachments).toEqual([]);
  });

  it("names the paid order in the subject, and escapes what it writes into the HTML", () => {
    const mail = renderMessage(
      "pix-checkout-paid",
      { amount: "R$ 1,00", order: { display_id: 42 }, payment_page_url: 'x"><script>' },
      store,
    );
    expect(mail.subject).toBe("Pagamento confirmado: pedido #42");
    expect(mail.html).not.toContain("<script>");
  });
});
