import type { Payment } from "@vendure/core";
import { describe, expect, it } from "vitest";
import { settledAtOf } from "./payment-facts";

const payment = (fields: { state: string; metadata: object; updatedAt: string }) =>
  ({ ...fields, updatedAt: new Date(fields.updatedAt) }) as unknown as Payment;

describe("when a payment settled, as the shopper's page, the devolução clock and the books read it", () => {
  it("is the moment written with the settlement, not the row's last change (a refund, a note)", () => {
    expect(
      settledAtOf(
        payment({
          state: "Settled",
          metadata: { settledAt: "2026-12-01T14:00:00.000Z" },
          updatedAt: "2026-12-03T09:00:00.000Z",
        }),
      ),
    ).toBe("2026-12-01T14:00:00.000Z");
  });

  it("is the row's last change for a payment settled before the moment was written, and none for one not settled", () => {
    expect(
      settledAtOf(payment({ state: "Settled", metadata: {}, updatedAt: "2026-12-01T14:00:00Z" })),
    ).toBe("2026-12-01T14:00:00.000Z");
    expect(
      settledAtOf(
        payment({ state: "Declined", metadata: {}, updatedAt: "2026-12-01T14:00:00.000Z" }),
      ),
    ).toBeNull();
  });
});
