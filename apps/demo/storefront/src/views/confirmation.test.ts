import type { HttpTypes } from "@medusajs/types";
import { nothing } from "lit";
import { isCompiledTemplateResult, isTemplateResult } from "lit/directive-helpers.js";
import { describe, expect, it } from "vitest";
import type { EarlierPayment, OrderPaymentStatus } from "../order-payment";
import { initialState, type Actions } from "../state";
import { boletoOrderNotice, confirmationView } from "./confirmation";

/** The markup a template would render, its values in place (event handlers left out). */
function markupOf(value: unknown): string {
  if (value === nothing || value == null || typeof value === "function") return "";
  if (Array.isArray(value)) return value.map(markupOf).join("");
  // The views' `html` templates; a compiled one (a build-time optimization) is never seen here.
  if (isTemplateResult(value) && !isCompiledTemplateResult(value)) {
    return value.strings.reduce(
      (markup, part, i) =>
        markup + part + (i < value.values.length ? markupOf(value.values[i]) : ""),
      "",
    );
  }
  return String(value);
}

/** What the shopper reads: the markup without its tags, spaces (and R$'s no-break space) as one. */
const textOf = (markup: string) =>
  markup
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim();

const order = {
  id: "order_01JX3Q8Z2K4T0M9V6R7W5Y1N2B",
  display_id: 42,
  items: [],
  item_subtotal: 52.9,
  shipping_subtotal: 0,
  total: 52.9,
} as unknown as HttpTypes.StoreOrder;

/** The confirmation of an order, as the plugin told its payment and an older code's money. */
function confirmation(
  earlier: EarlierPayment | null,
  payment: OrderPaymentStatus | null = "paid",
  orderSessionId: string | null = null,
): string {
  const state = {
    ...initialState(),
    step: "confirmation" as const,
    order,
    orderPayment: payment,
    orderEarlierPayment: earlier,
    orderSessionId,
  };
  return markupOf(confirmationView(state, {} as Actions, (id) => `[código do pedido: ${id}]`));
}

describe("the confirmation of a paid order", () => {
  it("says the order is paid, and under it that the money of an older code comes back", () => {
    const text = textOf(confirmation({ amount: 5290, order_paid: true }));
    const line =
      "Recebemos R$ 52,90 por um código anterior. Seu pedido já está pago; esse valor será devolvido.";
    expect(text).toContain("Pagamento confirmado");
    expect(text).toContain(line);
    expect(text.indexOf("Seu pedido #42 está pago.")).toBeLessThan(text.indexOf(line));
  });

  it("says it as a calm status note, not as an error", () => {
    const markup = confirmation({ amount: 5290, order_paid: true });
    expect(markup).toMatch(/<p class="notice" role="status">\s*Recebemos/);
    expect(markup).not.toContain('role="alert"');
  });

  it("says nothing of an older code when the store has nothing to say", () => {
    const markup = confirmation(null);
    expect(textOf(markup)).not.toContain("código anterior");
    expect(markup).not.toContain('class="notice"');
  });
});

describe("the confirmation of an order its code paid with more than it costs", () => {
  it("names the excess coming back and why, under the paid message", () => {
    const state = {
      ...initialState(),
      step: "confirmation" as const,
      order,
      orderPayment: "paid" as const,
      orderRefund: { amount: 1490, reason: "amount_lowered" },
    };
    const text = textOf(markupOf(confirmationView(state, {} as Actions)));
    expect(text).toContain("Seu pedido #42 está pago.");
    expect(text).toContain(
      "O valor do pedido diminuiu depois que o código foi gerado: a loja vai devolver R$ 14,90.",
    );
  });

  it("says no excess for an order not paid", () => {
    const state = {
      ...initialState(),
      step: "confirmation" as const,
      order,
      orderPayment: "awaiting" as const,
      orderRefund: { amount: 1490, reason: "amount_lowered" },
    };
    expect(textOf(markupOf(confirmationView(state, {} as Actions)))).not.toContain("devolver");
  });
});

describe("the confirmation of an order not paid", () => {
  it("says the order awaits payment, never that it is paid, and shows the code that pays it", () => {
    const text = textOf(confirmation({ amount: 20945, order_paid: false }, "awaiting", "payses_1"));
    expect(text).toContain(
      "Seu pedido #42 aguarda pagamento. Pague o código abaixo para concluí-lo.",
    );
    expect(text).toContain(
      "Recebemos R$ 209,45 por um código anterior; esse valor será devolvido.",
    );
    expect(text).toContain("[código do pedido: payses_1]");
    expect(text).not.toMatch(/está pago|Pagamento confirmado/);
  });

  it("never says the order is paid on an older code's word when the store says it is not", () => {
    // order_paid is the older code's view; the order's own payment decides what the page says.
    const text = textOf(confirmation({ amount: 20945, order_paid: true }, "awaiting"));
    expect(text).not.toMatch(/está pago|Pagamento confirmado/);
    expect(text).toContain(
      "Recebemos R$ 209,45 por um código anterior; esse valor será devolvido.",
    );
  });

  it("claims nothing about the money when the store could not say", () => {
    const text = textOf(confirmation(null, null, "payses_1"));
    expect(text).toContain("Seu pedido #42 foi criado.");
    expect(text).not.toMatch(/está pago|Pagamento confirmado|aguarda pagamento/);
    expect(text).not.toContain("código do pedido");
  });

  it("says a canceled order is canceled", () => {
    const text = textOf(confirmation(null, "canceled"));
    expect(text).toContain("Seu pedido #42 foi cancelado.");
    expect(text).not.toMatch(/está pago|Pagamento confirmado/);
  });
});

describe("the line above a boleto order's code on the checkout step", () => {
  it("says the order waits for its boleto, and once the store canceled it, that it is canceled and the boleto no longer to be paid", () => {
    expect(textOf(markupOf(boletoOrderNotice(21, "awaiting")))).toBe(
      "Pedido #21 criado, aguardando o pagamento do boleto.",
    );
    expect(textOf(markupOf(boletoOrderNotice(21, null)))).toBe(
      "Pedido #21 criado, aguardando o pagamento do boleto.",
    );
    expect(textOf(markupOf(boletoOrderNotice(21, "canceled")))).toBe(
      "Pedido #21 cancelado: este boleto não deve mais ser pago.",
    );
  });
});

describe("the confirmation of an order edited up after its code was paid", () => {
  it("says the order awaits payment, and does not ask to pay its code again: the element names the difference", () => {
    const state = {
      ...initialState(),
      step: "confirmation" as const,
      order,
      orderPayment: "awaiting" as const,
      orderSessionId: "payses_1",
      orderCodeStatus: "paid",
    };
    const text = textOf(markupOf(confirmationView(state, {} as Actions, () => "[código]")));
    expect(text).toContain("Seu pedido #42 aguarda pagamento.");
    expect(text).not.toContain("Pague o código abaixo");
    const unpaid = textOf(
      markupOf(
        confirmationView({ ...state, orderCodeStatus: "pending" }, {} as Actions, () => "[código]"),
      ),
    );
    expect(unpaid).toContain(
      "Seu pedido #42 aguarda pagamento. Pague o código abaixo para concluí-lo.",
    );
  });
});
