import { describe, expect, it } from "vitest";
import { QR_CID, reais, renderMessage, type MessageData } from "./render";

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

describe("the boleto reminders' day", () => {
  const dueTomorrow = (due_date: string, now: Date) =>
    renderMessage(
      "pix-checkout-boleto-due-tomorrow",
      {
        method: "boleto",
        amount: "R$ 120,00",
        boleto: { url: "http://x/b", digitable_line: "00190000090123456789", due_date },
      },
      store,
      now,
    );
  // Friday 27/11/2026, 09:00 in São Paulo (12:00 UTC): the business day before the weekend.
  const friday = new Date("2026-11-27T12:00:00Z");

  it("names the weekday a boleto sent on Friday falls due, never 'amanhã' for a day after tomorrow", () => {
    const monday = dueTomorrow("2026-11-30", friday);
    expect(monday.subject).toBe("Seu boleto de R$ 120,00 vence na segunda-feira");
    expect(monday.text).toContain("Seu boleto de R$ 120,00 vence na segunda-feira, 30/11.");
    expect(monday.text).not.toContain("amanhã");
    const sunday = dueTomorrow("2026-11-29", friday);
    expect(sunday.subject).toBe("Seu boleto de R$ 120,00 vence no domingo");
    expect(sunday.text).toContain("vence no domingo, 29/11.");
  });

  it("says 'amanhã' when the due date is São Paulo's tomorrow, even late at night in UTC's next day", () => {
    // Wednesday 25/11 at 22:30 in São Paulo is already Thursday 26/11 in UTC.
    const mail = dueTomorrow("2026-11-26", new Date("2026-11-26T01:30:00Z"));
    expect(mail.subject).toBe("Seu boleto de R$ 120,00 vence amanhã");
    expect(mail.text).toContain("vence amanhã, quinta-feira, 26/11.");
  });

  it("takes the plugin's own words of the day when the message carries them", () => {
    const mail = renderMessage(
      "pix-checkout-boleto-due-tomorrow",
      {
        method: "boleto",
        amount: "R$ 120,00",
        boleto: { due_date: "2026-12-01" },
        reminder: { step: "boleto_due_tomorrow", due_when: "amanhã, terça-feira, 01/12" },
      },
      store,
      // Rendered late, on the due date itself: the words are the ones of when it was sent.
      new Date("2026-12-01T12:00:00Z"),
    );
    expect(mail.subject).toBe("Seu boleto de R$ 120,00 vence amanhã");
    expect(mail.text).toContain("vence amanhã, terça-feira, 01/12.");
  });

  it("says 'hoje' on the due date", () => {
    const mail = renderMessage(
      "pix-checkout-boleto-due-today",
      { method: "boleto", amount: "R$ 5,00", boleto: { due_date: "2026-11-30" } },
      store,
      new Date("2026-11-30T12:00:00Z"),
    );
    expect(mail.subject).toBe("Seu boleto de R$ 5,00 vence hoje");
    expect(mail.text).toContain("vence hoje, segunda-feira, 30/11.");
  });
});

describe("money the store gives back, told as it happened", () => {
  const refundDue = (reason: string, order: unknown) =>
    renderMessage(
      "pix-checkout-refund-due",
      {
        amount: "R$ 209,45",
        refund: { amount: "R$ 209,45", reason },
        order: order as never,
        payment_page_url: "http://localhost:5173/pagar/payses_old",
      },
      store,
    );

  it("a replaced code paid while the order awaits the current code: never 'não conseguimos concluir', never 'está pago'", () => {
    const mail = refundDue("paid_old_amount", { display_id: 3, payment: "awaiting" });
    expect(mail.subject).toBe("Vamos devolver R$ 209,45 do seu pedido #3");
    expect(mail.text).toContain(
      "Recebemos R$ 209,45 por um código que foi substituído; vamos devolver esse valor. Seu pedido #3 aguarda o pagamento do código atual.",
    );
    expect(mail.text).not.toContain("não conseguimos concluir");
    expect(mail.text).not.toContain("está pago");
    expect(mail.text).toContain("http://localhost:5173/pagar/payses_old");
  });

  it("a replaced code paid once the order is paid says it is paid", () => {
    const mail = refundDue("paid_replaced", { display_id: 3, payment: "paid" });
    expect(mail.text).toContain(
      "Recebemos R$ 209,45 por um código que foi substituído; vamos devolver esse valor. Seu pedido #3 já está pago.",
    );
    expect(mail.text).not.toContain("/pagar/");
  });

  it("a replaced code paid before any order says when the order is made", () => {
    const mail = refundDue("paid_twice", null);
    expect(mail.text).toContain(
      "Recebemos R$ 209,45 por um segundo código do mesmo carrinho, que já tinha sido pago; vamos devolver esse valor. O pedido é criado quando o código atual for pago.",
    );
  });

  it("names the order the money belongs to, the order's number in the subject (#69, item 7)", () => {
    const twice = refundDue("paid_twice", { id: "order_4", display_id: 4, payment: "paid" });
    expect(twice.subject).toBe("Vamos devolver R$ 209,45 do seu pedido #4");
    expect(twice.text).toContain("Seu pedido #4 já está pago.");
    const over = refundDue("overpaid", { id: "order_4", display_id: 4, payment: "paid" });
    expect(over.subject).toBe("Vamos devolver R$ 209,45 do seu pedido #4");
    // An order Medusa gave no number yet is still named as the shopper's order.
    expect(refundDue("overpaid", { id: "order_5", payment: "paid" }).subject).toBe(
      "Vamos devolver R$ 209,45 do seu pedido",
    );
  });

  it("money of a cart that never became an order says so plainly, never a blank", () => {
    const canceled = refundDue("collection_canceled", null);
    expect(canceled.subject).toBe("Vamos devolver R$ 209,45");
    expect(canceled.text).toContain(
      "Recebemos R$ 209,45 por um código cuja cobrança foi cancelada; vamos devolver esse valor. Este pagamento não faz parte de nenhum pedido.",
    );
    // Words that already say it are not said twice.
    expect(refundDue("out_of_stock", null).text).not.toContain("nenhum pedido");
    expect(refundDue("paid_twice", null).text).not.toContain("nenhum pedido");
    const returned = renderMessage(
      "pix-checkout-refunded",
      { refund: { amount: "R$ 14,90", reason: "cart_not_completed" }, order: null },
      store,
    );
    expect(returned.subject).toBe("Devolvemos R$ 14,90");
    expect(returned.text).toContain(
      "Devolvemos R$ 14,90. Este pagamento não faz parte de nenhum pedido.",
    );
  });

  it("a cart that could not become an order still says so", () => {
    expect(refundDue("cart_not_completed", null).text).toContain(
      "Recebemos seu pagamento de R$ 209,45, mas não conseguimos concluir o pedido; vamos devolver esse valor.",
    );
    // A cart closed by another way of paying (payment on delivery) is not said to be paid.
    const elsewhere = refundDue("paid_elsewhere", { display_id: 8, payment: "awaiting" }).text;
    expect(elsewhere).toContain("foi fechado com outra forma de pagamento");
    expect(elsewhere).not.toContain("pago");
    const canceled = refundDue("order_canceled", { display_id: 8, payment: "canceled" }).text;
    expect(canceled).toContain("mas seu pedido #8 foi cancelado; vamos devolver esse valor.");
    expect(canceled.match(/cancelado/g)).toHaveLength(1);
  });

  it("'Devolvemos R$ X' once the merchant returned it, with what it concerned", () => {
    const replaced = renderMessage(
      "pix-checkout-refunded",
      {
        amount: "R$ 194,55",
        refund: { amount: "R$ 209,45", reason: "paid_old_amount" },
        order: { display_id: 3, payment: "paid" },
      },
      store,
    );
    expect(replaced.subject).toBe("Devolvemos R$ 209,45 do seu pedido #3");
    expect(replaced.text).toContain(
      "Devolvemos R$ 209,45 que você pagou por um código que foi substituído. Seu pedido #3 já está pago.",
    );
    const afterSale = renderMessage(
      "pix-checkout-refunded",
      {
        refund: { amount: "R$ 10,00", reason: "order_refund" },
        order: { display_id: 7, payment: "paid" },
      },
      store,
    );
    expect(afterSale.text).toContain("Devolvemos R$ 10,00 do seu pedido #7.");
    expect(afterSale.text.replace(store, "")).not.toMatch(ENGLISH);
  });

  it("'está pago' in the paid e-mail only when Medusa's order is paid", () => {
    const partly = renderMessage(
      "pix-checkout-paid",
      { amount: "R$ 20,00", order: { display_id: 5, payment: "awaiting" } },
      store,
    );
    expect(partly.text).not.toContain("está pago");
    expect(partly.text).toContain("Seu pedido #5 ainda aguarda pagamento.");
  });
});

describe("an order's e-mails list what was ordered", () => {
  // What the plugin sends for an order of two shirts and a mug, by PAC, 5 % off by Pix.
  const ordered: NonNullable<MessageData["order"]> = {
    display_id: 12,
    payment: "paid",
    lines: {
      items: [
        {
          name: "Camiseta Pix",
          variant: "Azul / M",
          quantity: 2,
          unit_price_cents: 7990,
          total_cents: 15980,
        },
        { name: "Caneca", variant: null, quantity: 1, unit_price_cents: 1990, total_cents: 1990 },
      ],
      shipping: [{ option: "PAC", amount_cents: 779 }],
      shipping_address: {
        name: "Ana Souza",
        address_1: "Rua Augusta, 100",
        address_2: "apto 4",
        city: "São Paulo",
        province: "SP",
        postal_code: "01305-000",
      },
      pix_discount: { cents: 899 },
      other_discounts: { cents: 0 },
      taxes: { cents: 0 },
    },
    total: { cents: 17850 },
  };
  const orderLines = [
    "2 × Camiseta Pix (Azul / M), R$ 79,90 cada: R$ 159,80",
    "1 × Caneca, R$ 19,90 cada: R$ 19,90",
    "Entrega: PAC: R$ 7,79",
    "Desconto no Pix: -R$ 8,99",
    "Total: R$ 178,50",
  ].join("\n");
  const address = "Entrega em: Ana Souza, Rua Augusta, 100, apto 4, São Paulo - SP, CEP 01305-000";

  it("money from cents, on the digits", () => {
    expect([reais(0), reais(5), reais(17850), reais(123456789), reais(-899)]).toEqual([
      "R$ 0,00",
      "R$ 0,05",
      "R$ 178,50",
      "R$ 1.234.567,89",
      "-R$ 8,99",
    ]);
  });

  it("the paid e-mail lists what was ordered, the delivery and the Pix discount, adding up to the total", () => {
    const mail = renderMessage("pix-checkout-paid", { amount: "R$ 178,50", order: ordered }, store);
    expect(mail.text).toContain(orderLines);
    expect(mail.text).toContain(address);
    expect(mail.html).toContain("Desconto no Pix");
    expect(mail.html).toContain("R$ 178,50");
    // Without the lines (an order that does not add up), the sentence alone.
    const bare = renderMessage(
      "pix-checkout-paid",
      { amount: "R$ 178,50", order: { display_id: 12, payment: "paid", lines: null, total: null } },
      store,
    );
    expect(bare.text).not.toContain("Total:");
  });

  it("the paid e-mail names the part of the payment that comes back, so what arrived and the total agree", () => {
    const mail = renderMessage(
      "pix-checkout-paid",
      {
        amount: "R$ 82,05",
        order: { display_id: 4, payment: "paid", lines: null, total: null },
        refund: { amount: "R$ 14,90", reason: "amount_lowered" },
      },
      store,
    );
    expect(mail.text).toContain("Recebemos o seu pagamento de R$ 82,05");
    expect(mail.text).toContain(
      "Você pagou R$ 14,90 a mais do que o pedido custa; vamos devolver a diferença.",
    );
    // Nothing comes back: no such line.
    const whole = renderMessage(
      "pix-checkout-paid",
      { amount: "R$ 82,05", order: { display_id: 4, payment: "paid", lines: null, total: null } },
      store,
    );
    expect(whole.text).not.toContain("devolver");
  });

  it("'Recebemos seu pedido': the lines, the address, and the payment as Medusa's order says it", () => {
    const paid = renderMessage(
      "pix-checkout-order-received",
      { amount: "R$ 178,50", method: "pix", order: ordered },
      store,
    );
    expect(paid.subject).toBe("Recebemos seu pedido #12");
    expect(paid.text).toContain(orderLines);
    expect(paid.text).toContain(address);
    expect(paid.text).toContain("Pagamento: Pago.");
    expect(paid.text.replace(store, "").replaceAll("Pix", "")).not.toMatch(ENGLISH);

    // The charge was paid, Medusa has not recorded the capture yet: never "Pago".
    const confirming = renderMessage(
      "pix-checkout-order-received",
      {
        amount: "R$ 178,50",
        method: "pix",
        paid_at: "2026-11-27T12:00:00Z",
        order: { ...ordered, payment: "awaiting" },
      },
      store,
    );
    expect(confirming.text).toContain("Pagamento: recebido, em confirmação.");
    expect(confirming.text).not.toContain("Pago.");

    const boleto = renderMessage(
      "pix-checkout-order-received",
      {
        amount: "R$ 187,59",
        method: "boleto",
        boleto: {
          url: "http://127.0.0.1:4010/boleto/1.pdf",
          digitable_line: "34191.79001 01043.510047 91020.150008 1 99990000018759",
          due_date: "2026-11-30",
        },
        order: { ...ordered, payment: "awaiting" },
      },
      store,
    );
    expect(boleto.text).toContain(
      "Pagamento: aguardando o boleto de R$ 187,59, com vencimento em 30/11/2026. Pague no app do seu banco com a linha digitável:",
    );
    expect(boleto.text).toContain("34191.79001 01043.510047 91020.150008 1 99990000018759");

    const pix = renderMessage(
      "pix-checkout-order-received",
      {
        amount: "R$ 178,50",
        method: "pix",
        pix: { copy_paste: "00020126580014br.gov.bcb.pix", qr_png_base64: "iVBORw0KGgo=" },
        order: { ...ordered, payment: "awaiting" },
      },
      store,
    );
    expect(pix.text).toContain("Pagamento: aguardando o Pix de R$ 178,50.");
    expect(pix.text).toContain("00020126580014br.gov.bcb.pix");
    expect(pix.attachments).toHaveLength(1);
  });
});
