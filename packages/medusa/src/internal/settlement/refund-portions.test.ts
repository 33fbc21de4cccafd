import { describe, expect, it } from "vitest";
import type { ChargeMoney } from "../records/ledger-parts";
import { refundableCents, refundPortions, splitRefund } from "./refund-portions";

const money = (over: Partial<ChargeMoney>): ChargeMoney => ({
  received: 0,
  held: 0,
  heldReason: null,
  captured: 0,
  owed: 0,
  owedReason: null,
  returned: 0,
  contested: 0,
  ...over,
});

describe("refundPortions: what a merchant's refund can take, in the order it takes it", () => {
  it.each([
    [
      "a replaced code's money: owed, never in Medusa, with its reason",
      money({ received: 20_945, owed: 20_945, owedReason: "paid_replaced" }),
      0,
      [{ from: "owed", cents: 20_945, in_medusa: false, why: "paid_replaced" }],
    ],
    [
      "an overpaid order: the excess first, then the order's captured money",
      money({ received: 2_500, captured: 2_000, owed: 500, owedReason: "overpaid" }),
      0,
      [
        { from: "owed", cents: 500, in_medusa: false, why: "overpaid" },
        { from: "captured", cents: 2_000, in_medusa: true, why: null },
      ],
    ],
    [
      "an order canceled after its capture: owed, and Medusa holds it captured",
      money({ received: 3_800, owed: 3_800, owedReason: "order_canceled" }),
      3_800,
      [{ from: "owed", cents: 3_800, in_medusa: true, why: "order_canceled" }],
    ],
    [
      "more owed in Medusa than owed (a stale read) is capped at what is owed",
      money({ received: 1_000, owed: 1_000, owedReason: "order_canceled" }),
      5_000,
      [{ from: "owed", cents: 1_000, in_medusa: true, why: "order_canceled" }],
    ],
    [
      "an underpaid amount held for the merchant",
      money({ received: 4_500, held: 4_500, heldReason: "underpaid" }),
      0,
      [{ from: "held", cents: 4_500, in_medusa: false, why: "underpaid" }],
    ],
    [
      "owed money an open MED blocked is left out: the case's outcome settles it",
      money({
        received: 4_000,
        captured: 3_500,
        owed: 500,
        owedReason: "overpaid",
        medBlockedOwed: 500,
      }),
      0,
      [{ from: "captured", cents: 3_500, in_medusa: true, why: null }],
    ],
    [
      "a block takes the owed money Medusa never held first; the rest of it stays refundable in Medusa",
      money({ received: 3_800, owed: 3_800, owedReason: "order_canceled", medBlockedOwed: 1_000 }),
      3_000,
      [{ from: "owed", cents: 2_800, in_medusa: true, why: "order_canceled" }],
    ],
    [
      "money Medusa's capture is taking, or an accepted amount: nothing",
      money({ received: 4_500, held: 4_500, heldReason: "accepted" }),
      0,
      [],
    ],
  ] as const)("%s", (_name, m, owedInMedusa, expected) => {
    expect(refundPortions(m, owedInMedusa)).toEqual(expected);
  });
});

describe("refundableCents", () => {
  it("is every portion together: what the route's refusal and the drawer name as the most", () => {
    const portions = refundPortions(
      money({
        received: 4_000,
        captured: 3_000,
        owed: 1_000,
        owedReason: "overpaid",
        medBlockedOwed: 400,
      }),
      0,
    );
    expect(refundableCents(portions)).toBe(3_600);
    expect(refundableCents([])).toBe(0);
  });
});

describe("splitRefund", () => {
  it("lists only the portions a refund takes something of", () => {
    const portions = refundPortions(
      {
        received: 7000,
        held: 0,
        heldReason: null,
        captured: 3500,
        owed: 3500,
        owedReason: "amount_lowered",
        returned: 0,
        contested: 0,
      },
      0,
    );
    expect(splitRefund(portions, 1000)?.takes).toEqual([
      { from: "owed", amountCents: 1000, inMedusa: false, why: "amount_lowered" },
    ]);
  });

  const portions = refundPortions(
    money({ received: 2_500, captured: 2_000, owed: 500, owedReason: "overpaid" }),
    0,
  );

  it("says what of the amount Medusa records and what the ledger only", () => {
    expect(splitRefund(portions, 700)).toMatchObject({ medusaCents: 200, ledgerOnlyCents: 500 });
    expect(splitRefund(portions, 300)).toMatchObject({ medusaCents: 0, ledgerOnlyCents: 300 });
    expect(splitRefund(portions, 2_500)).toMatchObject({
      medusaCents: 2_000,
      ledgerOnlyCents: 500,
    });
  });

  it.each([0, -100, 10.5, 2_501])("records nothing for %s cents", (amount) => {
    expect(splitRefund(portions, amount)).toBeUndefined();
  });
});
