import { describe, expect, it } from "vitest";
import { FetchError } from "@medusajs/js-sdk";
import {
  busyNow,
  errorMessage,
  retryLater,
  somethingWrong,
  StoreRefusal,
  tooManyUnpaidOrders,
} from "./error-message";

describe("errorMessage", () => {
  it.each([409, 500, 503])(
    "tells the shopper to retry, and that nothing was charged, on %i",
    (status) => {
      const error = new FetchError(
        "The request conflicted with another request. You may retry the request with the provided Idempotency-Key.",
        "Conflict",
        status,
      );
      expect(errorMessage(error)).toBe(retryLater);
      expect(errorMessage(error)).toContain("Nada foi cobrado");
    },
  );

  it("says it is a busy minute, and that nothing was charged, when the store's line is full (429)", () => {
    const error = new FetchError(
      "The store has 300 Pix codes or boletos waiting to be created (a busy minute); nothing was made. Try again after Retry-After seconds.",
      "Too Many Requests",
      429,
    );
    expect(errorMessage(error)).toBe(busyNow);
    expect(errorMessage(error)).toMatch(/Muita procura.*Nada foi cobrado/);
  });

  it("tells a shopper holding too many unpaid orders to pay one, or pay this one with Pix (429 too_many_unpaid_orders)", () => {
    const error = new StoreRefusal(
      429,
      "too_many_unpaid_orders",
      "this address already has 3 orders awaiting payment (at most 3); their stock stays reserved until they are paid or their codes end.",
    );
    expect(errorMessage(error)).toBe(tooManyUnpaidOrders);
    expect(errorMessage(error)).toMatch(/pedidos aguardando pagamento.*Pix/);
  });

  it("keeps the store's message for a refusal that says what to fix", () => {
    const error = new FetchError("payer.neighborhood is required for a boleto", "Bad Request", 400);
    expect(errorMessage(error)).toBe("payer.neighborhood is required for a boleto");
  });

  it("has a message for failures that carry none", () => {
    expect(errorMessage(new Error(""))).toBe(somethingWrong);
    expect(errorMessage("boom")).toBe(somethingWrong);
    expect(errorMessage(undefined)).toBe(somethingWrong);
  });
});
