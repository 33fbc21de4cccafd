import { describe, expect, it } from "vitest";
import { owedWords, settlementVerdict, type SettlementFacts } from "./settlement-verdict";

const paidInFull: SettlementFacts = {
  order: { state: "ArrangingPayment", totalCents: 11_480, settledCents: 0 },
  payment: { state: "AwaitingPix", amountCents: 11_480 },
  charge: { status: "paid", amountCents: 11_480 },
};

describe("what a paid Pix becomes on Vendure", () => {
  it("settles a code paid in full for the order that waits for it, owing nothing", () => {
    expect(settlementVerdict(paidInFull)).toEqual({
      kind: "settle",
      receivedCents: 11_480,
      owed: [],
    });
  });

  it("settles a second code that pays what an order that grew costs more, to the cent", () => {
    const verdict = settlementVerdict({
      order: { state: "ArrangingPayment", totalCents: 16_470, settledCents: 11_480 },
      payment: { state: "AwaitingPix", amountCents: 4_990 },
      charge: { status: "paid", amountCents: 4_990 },
    });
    expect(verdict).toEqual({ kind: "settle", receivedCents: 4_990, owed: [] });
  });

  it("settles nothing the service has not confirmed paid, and says what the service said", () => {
    for (const status of ["pending", "expired", "canceled"]) {
      const verdict = settlementVerdict({ ...paidInFull, charge: { status, amountCents: 11_480 } });
      expect(verdict).toEqual({
        kind: "not_paid",
        why: `o serviço diz que este Pix está "${status}", não pago`,
      });
    }
  });

  it("settles a boleto paid for its placed order, which waits for it in PaymentAuthorized", () => {
    expect(
      settlementVerdict({
        order: { state: "PaymentAuthorized", totalCents: 11_480, settledCents: 0 },
        payment: { state: "Authorized", amountCents: 11_480 },
        charge: { status: "paid", amountCents: 11_480 },
      }),
    ).toEqual({ kind: "settle", receivedCents: 11_480, owed: [] });
  });

  it("holds a code paid short, by a cent too: waiting for the merchant's decision", () => {
    expect(
      settlementVerdict({ ...paidInFull, charge: { status: "paid", amountCents: 11_479 } }),
    ).toEqual({
      kind: "hold",
      why: expect.stringMatching(/^o Pix pago é de R\$\s114,79 e o código pedia R\$\s114,80$/),
      reason: "underpaid",
      receivedCents: 11_479,
    });
  });

  it("settles a code paid more than it asked, by a cent too, for all it received, and owes the excess back as overpaid", () => {
    for (const [received, excess] of [
      [11_481, 1],
      [12_000, 520],
    ] as const) {
      expect(
        settlementVerdict({ ...paidInFull, charge: { status: "paid", amountCents: received } }),
      ).toEqual({
        kind: "settle",
        receivedCents: received,
        owed: [{ cents: excess, reason: "overpaid" }],
      });
    }
  });

  it("settles a code that would pass what the order still asks by a cent for what it asks, and owes the rest back as amount_lowered", () => {
    expect(
      settlementVerdict({
        ...paidInFull,
        order: { state: "ArrangingPayment", totalCents: 11_480, settledCents: 1 },
      }),
    ).toEqual({
      kind: "settle",
      receivedCents: 11_480,
      owed: [{ cents: 1, reason: "amount_lowered" }],
    });
    // Paid more than its code asked, for an order that now asks less: both parts owed back.
    expect(
      settlementVerdict({
        order: { state: "ArrangingAdditionalPayment", totalCents: 16_470, settledCents: 11_480 },
        payment: { state: "AwaitingPix", amountCents: 4_990 },
        charge: { status: "paid", amountCents: 5_000 },
      }),
    ).toEqual({
      kind: "settle",
      receivedCents: 5_000,
      owed: [{ cents: 10, reason: "overpaid" }],
    });
    expect(
      settlementVerdict({
        order: { state: "ArrangingAdditionalPayment", totalCents: 14_000, settledCents: 11_480 },
        payment: { state: "AwaitingPix", amountCents: 4_990 },
        charge: { status: "paid", amountCents: 5_000 },
      }),
    ).toEqual({
      kind: "settle",
      receivedCents: 5_000,
      owed: [
        { cents: 10, reason: "overpaid" },
        { cents: 2_470, reason: "amount_lowered" },
      ],
    });
  });

  it("holds all of a code paid more than it asked when it leaves its order unpaid (the order grew after it): Vendure takes no refund while an order waits", () => {
    expect(
      settlementVerdict({
        order: { state: "ArrangingPayment", totalCents: 16_470, settledCents: 0 },
        payment: { state: "AwaitingPix", amountCents: 11_480 },
        charge: { status: "paid", amountCents: 17_000 },
      }),
    ).toEqual({
      kind: "hold",
      why: expect.stringMatching(
        /^o Pix pago é de R\$\s170,00, o código pedia R\$\s114,80, e o pedido passou a custar R\$\s164,70$/,
      ),
      reason: "overpaid",
      receivedCents: 17_000,
    });
    // Paid exactly what it asked, the same code settles its part, and the order waits for the rest.
    expect(
      settlementVerdict({
        order: { state: "ArrangingPayment", totalCents: 16_470, settledCents: 0 },
        payment: { state: "AwaitingPix", amountCents: 11_480 },
        charge: { status: "paid", amountCents: 11_480 },
      }),
    ).toEqual({ kind: "settle", receivedCents: 11_480, owed: [] });
  });

  it("holds a code of an order its settled payments paid already, waiting or not: paid_twice", () => {
    expect(
      settlementVerdict({
        ...paidInFull,
        order: { state: "ArrangingAdditionalPayment", totalCents: 11_480, settledCents: 11_480 },
      }),
    ).toEqual({
      kind: "hold",
      why: expect.stringMatching(/^o pedido custa R\$\s114,80 e já tem R\$\s114,80 pagos$/),
      reason: "paid_twice",
      receivedCents: 11_480,
    });
    expect(
      settlementVerdict({
        ...paidInFull,
        order: { state: "PaymentSettled", totalCents: 11_480, settledCents: 11_480 },
      }),
    ).toMatchObject({ kind: "hold", reason: "paid_twice" });
  });

  it.each([
    // An order its other payment paid, then shipped or delivered: this code paid it twice.
    ["PaymentSettled", 11_480, "paid_twice"],
    ["PartiallyShipped", 11_480, "paid_twice"],
    ["Shipped", 11_480, "paid_twice"],
    ["PartiallyDelivered", 11_480, "paid_twice"],
    ["Delivered", 11_480, "paid_twice"],
    // An order back at its cart, or being modified, is not paid: held for no reason of those.
    ["AddingItems", 0, "other"],
    ["Modifying", 0, "other"],
  ])(
    "holds a code paid for an order in %s, settled %i cents, as not waiting for it: %s",
    (state, settledCents, reason) => {
      expect(
        settlementVerdict({ ...paidInFull, order: { state, totalCents: 11_480, settledCents } }),
      ).toEqual({
        kind: "hold",
        why: `o pedido está "${state}" e não aguarda este pagamento`,
        reason,
        receivedCents: 11_480,
      });
    },
  );

  it("holds a replaced code's money whatever the order waits for: it is owed back as paid_replaced", () => {
    for (const state of ["Cancelled", "AwaitingPix"]) {
      expect(
        settlementVerdict({
          ...paidInFull,
          payment: { state, amountCents: 11_480, replaced: true },
        }),
      ).toEqual({
        kind: "hold",
        why: "este código foi trocado por outro antes de ser pago",
        reason: "paid_replaced",
        receivedCents: 11_480,
      });
    }
  });

  it("holds a payment no longer awaiting its Pix, saying the state Vendure has it in", () => {
    for (const state of ["Settled", "Declined"]) {
      expect(settlementVerdict({ ...paidInFull, payment: { state, amountCents: 11_480 } })).toEqual(
        {
          kind: "hold",
          why: `o pagamento já estava "${state}" no Vendure`,
          reason: "other",
          receivedCents: 11_480,
        },
      );
    }
  });

  it("holds a payment no longer awaiting its Pix, and any code of an order no longer waiting", () => {
    for (const state of ["Settled", "Cancelled", "Declined"]) {
      expect(
        settlementVerdict({ ...paidInFull, payment: { state, amountCents: 11_480 } }).kind,
      ).toBe("hold");
    }
    for (const state of ["Cancelled", "PaymentSettled", "AddingItems"]) {
      expect(
        settlementVerdict({ ...paidInFull, order: { state, totalCents: 11_480, settledCents: 0 } })
          .kind,
      ).toBe("hold");
    }
    expect(
      settlementVerdict({
        ...paidInFull,
        order: { state: "ArrangingAdditionalPayment", totalCents: 11_480, settledCents: 0 },
      }).kind,
    ).toBe("settle");
  });

  it("owes back all of a payment to a cancelled order, whatever its amount and its payment's state: paid_after_order_canceled", () => {
    for (const payment of [
      { state: "Cancelled", amountCents: 11_480 },
      { state: "Authorized", amountCents: 11_480 },
      { state: "AwaitingPix", amountCents: 20_000 },
    ]) {
      expect(
        settlementVerdict({
          ...paidInFull,
          order: { state: "Cancelled", totalCents: 11_480, settledCents: 0 },
          payment,
        }),
      ).toEqual({
        kind: "hold",
        why: "o pedido foi cancelado antes de este pagamento chegar",
        reason: "paid_after_order_canceled",
        receivedCents: 11_480,
      });
    }
  });
});

describe("what the payer is told a part owed back is, on Vendure's refund", () => {
  it("says how much more than the code asked was paid", () => {
    expect(owedWords({ cents: 520, reason: "overpaid" }, 11_480)).toMatch(
      /^Pix pago a mais: R\$\s5,20 acima dos R\$\s114,80 que o código pedia$/,
    );
  });

  it("says the order came to cost less than the Pix paid, and how much goes back", () => {
    expect(owedWords({ cents: 2_470, reason: "amount_lowered" }, 4_990)).toMatch(
      /^o pedido passou a custar menos que o Pix pago: R\$\s24,70 a devolver$/,
    );
  });
});
