import { describe, expect, it } from "vitest";
import type { ChargeRow } from "../records/charges";
import { chargeRow } from "./__tests__/charge-row";
import { keepsItsSession } from "./decide";
import { refusalOf } from "./paid-collection-guard";
import type { CollectionStanding } from "./snapshot";

const paid = (over: Partial<ChargeRow>) => chargeRow({ held_cents: 0, held_reason: null, ...over });

describe("keepsItsSession: whether a charge's money keeps its session (a paid collection gets no second code)", () => {
  it.each([
    ["money held for Medusa's capture keeps it", chargeRow(), true],
    ["captured money keeps it", paid({ captured_cents: 10_000 }), true],
    [
      "money short of the code, accepted by the merchant and waiting for the capture, keeps it",
      paid({ held_cents: 9_000, held_reason: "accepted" }),
      true,
    ],
    [
      "money short of the code, waiting for the merchant's decision, keeps it: no new code meanwhile",
      paid({ held_cents: 9_000, held_reason: "underpaid" }),
      true,
    ],
    [
      "money owed back keeps nothing: no order comes of it",
      paid({ owed_cents: 10_000, owed_reason: "paid_twice" }),
      false,
    ],
    [
      "money returned to the shopper keeps nothing",
      paid({ owed_cents: 0, returned_cents: 10_000 }),
      false,
    ],
    [
      "an unpaid code keeps nothing",
      chargeRow({ status: "pending", received_cents: null, held_cents: 0, held_reason: null }),
      false,
    ],
    [
      "an expired code keeps nothing",
      chargeRow({ status: "expired", received_cents: null, held_cents: 0, held_reason: null }),
      false,
    ],
  ])("%s", (_name, row, keeps) => {
    expect(keepsItsSession(row)).toBe(keeps);
  });
});

describe("refusalOf: whether a collection takes a new code, and the words of a refusal", () => {
  const standing = (over: Partial<CollectionStanding>): CollectionStanding => ({
    paid: null,
    heldForMerchant: false,
    paidCents: 0,
    remainingCents: 10_000,
    hasOrder: false,
    ...over,
  });
  it.each([
    ["takes a new code while nothing is paid", standing({}), null],
    [
      "takes a new code for what is left of a partly paid collection (an order edited up)",
      standing({ paidCents: 10_000, remainingCents: 5_000, hasOrder: true }),
      null,
    ],
    [
      "refuses while a payment short of its code waits for the store's decision",
      standing({ heldForMerchant: true }),
      /waits for the store's decision/,
    ],
    [
      "refuses a paid cart's collection, pointing to its completion",
      standing({ paid: "charge", paidCents: 10_000, remainingCents: 0 }),
      /Complete the cart/,
    ],
    [
      "refuses an order's paid collection, pointing to the order",
      standing({ paid: "elsewhere", hasOrder: true }),
      /Show the customer their order/,
    ],
  ])("%s", (_name, collection, refusal) => {
    if (refusal === null) expect(refusalOf(collection)).toBeNull();
    else expect(refusalOf(collection)).toMatch(refusal);
  });
});
