import { afterEach, describe, expect, it, vi } from "vitest";
import { FetchError } from "@medusajs/js-sdk";
import { errorMessage, StoreRefusal } from "./error-message";

const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
afterEach(() => warn.mockClear());

describe("errorMessage", () => {
  it.each([409, 500, 503])(
    "tells the shopper to retry, and that nothing was charged, on %i",
    (status) => {
      const error = new FetchError(
        "The request conflicted with another request. You may retry the request with the provided Idempotency-Key.",
        "Conflict",
        status,
      );
      expect(errorMessage(error)).toContain("Nada foi cobrado");
      expect(errorMessage(error)).not.toContain("Idempotency");
    },
  );

  it("says it is a busy minute, and that nothing was charged, when the store's line is full (429)", () => {
    const error = new FetchError(
      "The store has 300 Pix codes or boletos waiting to be created (a busy minute); nothing was made. Try again after Retry-After seconds.",
      "Too Many Requests",
      429,
    );
    expect(errorMessage(error)).toMatch(/Muita procura.*Nada foi cobrado/);
  });

  it("tells a shopper holding too many unpaid orders to pay one, or pay this one with Pix (429 too_many_unpaid_orders)", () => {
    const error = new StoreRefusal(
      429,
      "too_many_unpaid_orders",
      "this address already has 3 orders awaiting payment (at most 3); their stock stays reserved until they are paid or their codes end.",
    );
    expect(errorMessage(error)).toMatch(/pedidos aguardando pagamento.*Pix/);
  });

  it("never shows the store's English to the shopper, and writes it to the console for the developer", () => {
    const message =
      "The cart has no e-mail; set the shopper's e-mail on the cart (POST /store/carts/:id) before asking for a Pix code or boleto.";
    const shown = errorMessage(new StoreRefusal(400, "cart_email_missing", message));
    expect(shown).toBe("Informe o seu e-mail na etapa de entrega para continuar.");
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining(`cart_email_missing (400): ${message}`),
    );
    // The SDK's error keeps no code: its status chooses, and the English stays in the console.
    expect(errorMessage(new FetchError(message, "Bad Request", 400))).not.toContain(
      "e-mail on the cart",
    );
  });

  it("has a message for failures that carry none", () => {
    for (const failure of [new Error(""), "boom", undefined]) {
      expect(errorMessage(failure)).toMatch(/Nada foi cobrado/);
    }
  });
});
