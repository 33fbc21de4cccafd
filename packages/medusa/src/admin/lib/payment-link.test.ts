import { describe, expect, it } from "vitest";
import { linkMessage, mailtoUrl, whatsappUrl } from "./payment-link";
import type { AdminOutstanding } from "./types";

const outstanding: AdminOutstanding = {
  payment_collection_id: "pay_col_1",
  amount: 3990,
  currency: "BRL",
  purpose: "exchange",
  display_id: 1042,
  link: "https://api.loja.com.br/pix-checkout/payment-collection/pay_col_1?order_id=order_1",
  page_path: "/pix-checkout/payment-collection/pay_col_1?order_id=order_1",
  whatsapp: "5511987654321",
  email: "ana@example.com",
};
const link = outstanding.link!;

describe("the payment link's messages", () => {
  it("say what the amount is for and the amount exactly, in Portuguese, with the link", () => {
    expect(linkMessage(outstanding, link)).toBe(
      `Olá! Segue o link para pagar a diferença da troca do pedido #1042 (R$ 39,90) com Pix: ${link}`,
    );
    expect(linkMessage({ ...outstanding, purpose: "order", amount: 123456 }, link)).toContain(
      "pagar o pedido #1042 (R$ 1.234,56)",
    );
  });

  it("go to the order's WhatsApp number when it has one, else let the merchant pick the contact", () => {
    const url = new URL(whatsappUrl(outstanding, link));
    expect(url.origin + url.pathname).toBe("https://wa.me/5511987654321");
    expect(url.searchParams.get("text")).toBe(linkMessage(outstanding, link));
    expect(whatsappUrl({ ...outstanding, whatsapp: null }, link)).toMatch(
      /^https:\/\/wa\.me\/\?text=/,
    );
  });

  it("e-mail the order's address with a subject and the same message", () => {
    const url = mailtoUrl(outstanding, link);
    expect(url.startsWith("mailto:ana%40example.com?")).toBe(true);
    const params = new URLSearchParams(url.split("?")[1]);
    expect(params.get("subject")).toBe("Pagamento de a diferença da troca do pedido #1042");
    expect(params.get("body")).toBe(linkMessage(outstanding, link));
  });
});
