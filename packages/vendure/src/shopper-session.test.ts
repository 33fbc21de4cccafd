import { describe, expect, it } from "vitest";
import { shopperSession, type ShopperSessionFacts } from "./shopper-session";

const now = new Date("2026-11-30T15:00:00.000Z");
const waiting: ShopperSessionFacts = {
  sessionId: "c0ffee.mac",
  now,
  payment: {
    state: "AwaitingPix",
    method: "pix",
    amountCents: 11_480,
    settledAt: null,
    copyPaste: "000201…",
    boleto: null,
    expiresAt: "2026-11-30T15:30:00.000Z",
    held: null,
  },
  order: { state: "ArrangingPayment" },
};
const with_ = (payment: Partial<ShopperSessionFacts["payment"]>, orderState = "ArrangingPayment") =>
  shopperSession({
    ...waiting,
    payment: { ...waiting.payment, ...payment },
    order: { state: orderState },
  });

describe("what the shopper's page is told about a Vendure Pix", () => {
  it("a code awaiting payment: pending, with the code, until its expiry, then expired without it", () => {
    expect(shopperSession(waiting)).toMatchObject({
      status: "pending",
      amount: 11_480,
      pix: { copy_paste: "000201…" },
      server_time: now.toISOString(),
    });
    const late = with_({ expiresAt: now.toISOString() });
    expect(late.status).toBe("expired");
    expect(late.pix).toBeUndefined();
  });

  it("a boleto awaiting payment: pending, with its line, barcode and link, due on its expiry's day in São Paulo", () => {
    const boleto = {
      state: "Authorized",
      method: "boleto" as const,
      copyPaste: null,
      boleto: {
        digitableLine: "23790123456789012345678901234567890123456789012",
        barcode: "23791234500000114800123456789012345678901234",
        url: "https://boletos.example/c0ffee.pdf",
      },
      // 23:00 on 30 November in São Paulo, already 1 December in UTC.
      expiresAt: "2026-12-01T02:00:00.000Z",
    };
    expect(with_(boleto, "PaymentAuthorized")).toEqual({
      session_id: "c0ffee.mac",
      method: "boleto",
      status: "pending",
      amount: 11_480,
      currency: "BRL",
      expires_at: "2026-12-01T02:00:00.000Z",
      paid_at: null,
      server_time: now.toISOString(),
      boleto: {
        digitable_line: "23790123456789012345678901234567890123456789012",
        barcode: "23791234500000114800123456789012345678901234",
        url: "https://boletos.example/c0ffee.pdf",
        due_date: "2026-11-30",
      },
    });
    // Midnight in São Paulo is the next day there.
    expect(with_({ ...boleto, expiresAt: "2026-12-01T03:00:00.000Z" }).boleto?.due_date).toBe(
      "2026-12-01",
    );
    const late = with_({ ...boleto, expiresAt: now.toISOString() }, "PaymentAuthorized");
    expect(late.status).toBe("expired");
    expect(late.boleto).toBeUndefined();
  });

  it("a code is shown only as what it is: a boleto without its line or due day, or a Pix without its code, is expired, never offered as the other", () => {
    const line = { digitableLine: "2379".padEnd(47, "0"), barcode: null, url: null };
    // The Pix code the fixture carries is no boleto's.
    const lineless = with_(
      { state: "Authorized", method: "boleto", boleto: null },
      "PaymentAuthorized",
    );
    expect(lineless.status).toBe("expired");
    expect(lineless.pix).toBeUndefined();
    const undated = with_({ state: "Authorized", method: "boleto", boleto: line, expiresAt: null });
    expect(undated.status).toBe("expired");
    expect(undated.boleto).toBeUndefined();
    const codeless = with_({ method: "pix", copyPaste: null, boleto: line });
    expect(codeless.status).toBe("expired");
    expect(codeless.boleto).toBeUndefined();
  });

  it.each(["PaymentSettled", "PartiallyShipped", "Shipped", "PartiallyDelivered", "Delivered"])(
    "paid, its order %s: 'pago' for the order, nothing left to pay",
    (orderState) => {
      expect(with_({ state: "Settled" }, orderState).order).toEqual({ payment: "paid" });
    },
  );

  it("paid: 'pago' for the order only once nothing is left to pay", () => {
    expect(
      with_({ state: "Settled", settledAt: "2026-11-30T14:59:00.000Z" }, "PaymentSettled"),
    ).toMatchObject({
      status: "paid",
      order: { payment: "paid" },
      paid_at: "2026-11-30T14:59:00.000Z",
    });
    expect(with_({ state: "Settled" }, "ArrangingPayment").order).toEqual({ payment: "awaiting" });
    expect(with_({ state: "Settled" }, "Cancelled").order).toEqual({ payment: "canceled" });
  });

  it("paid more than the code asked, or than the order still asked: 'pago', with the excess the store gives back and why", () => {
    for (const reason of ["overpaid", "amount_lowered"] as const) {
      expect(
        with_({ state: "Settled", owedAtSettle: { cents: 520, reason } }, "PaymentSettled"),
      ).toMatchObject({
        status: "paid",
        amount: 11_480,
        order: { payment: "paid" },
        refund: { amount: 520, reason },
      });
    }
    expect(with_({ state: "Settled" }, "PaymentSettled").refund).toBeUndefined();
  });

  it("money that settled nothing: short of the code waits for the store; any other is owed back with its reason", () => {
    expect(
      with_({ state: "Declined", held: { reason: "underpaid", receivedCents: 9_000 } }),
    ).toMatchObject({
      status: "held",
      received: { amount: 9_000 },
    });
    expect(
      with_({ state: "Declined", held: { reason: "paid_twice", receivedCents: 11_480 } }),
    ).toMatchObject({
      status: "refund_due",
      refund: { amount: 11_480, reason: "paid_twice" },
    });
  });

  it("short of its code and given back by the merchant: the store decided, so the page says it is returned, not still waiting", () => {
    const returned = with_({
      state: "Declined",
      held: { reason: "underpaid", receivedCents: 9_000, returned: true },
    });
    expect(returned).toMatchObject({
      status: "refund_due",
      refund: { amount: 9_000, reason: "other" },
    });
    expect(returned.received).toBeUndefined();
  });

  it("a replaced code: superseded, with no code, naming the order's current one; paid anyway, owed back and still naming it", () => {
    const replaced = with_({ state: "Cancelled", replacedBy: "b0a7.mac" });
    expect(replaced).toMatchObject({ status: "superseded", replaced_by: "b0a7.mac" });
    expect(replaced.pix).toBeUndefined();
    expect(with_({ state: "Cancelled", replacedBy: null })).toMatchObject({
      status: "superseded",
      replaced_by: null,
    });
    expect(
      with_({
        state: "Cancelled",
        replacedBy: "b0a7.mac",
        held: { reason: "paid_replaced", receivedCents: 11_480 },
      }),
    ).toMatchObject({
      status: "refund_due",
      refund: { amount: 11_480, reason: "paid_replaced" },
      replaced_by: "b0a7.mac",
    });
  });

  it("a cancelled code is expired, and a declined one with no money held failed", () => {
    expect(with_({ state: "Cancelled" }).status).toBe("expired");
    expect(with_({ state: "Declined" }).status).toBe("failed");
    expect(with_({ state: "Declined" }, "Cancelled")).toMatchObject({ status: "failed" });
    expect(with_({ state: "Declined" }, "Cancelled").order).toBeUndefined();
  });

  it("a cancelled code of a cancelled order: canceled, the order too, nothing to pay; paid anyway, owed back", () => {
    const boleto = {
      state: "Cancelled",
      method: "boleto" as const,
      copyPaste: null,
      boleto: { digitableLine: "2379".padEnd(47, "0"), barcode: null, url: null },
    };
    const canceled = with_(boleto, "Cancelled");
    expect(canceled).toMatchObject({ status: "canceled", order: { payment: "canceled" } });
    expect(canceled.boleto).toBeUndefined();
    expect(
      with_(
        { ...boleto, held: { reason: "paid_after_order_canceled", receivedCents: 11_480 } },
        "Cancelled",
      ),
    ).toMatchObject({
      status: "refund_due",
      refund: { amount: 11_480, reason: "paid_after_order_canceled" },
    });
  });
});
