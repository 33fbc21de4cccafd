import { describe, expect, it } from "vitest";
import type { ChargeRow } from "../records/charges";
import { chargeRow } from "./__tests__/charge-row";
import { keepsItsSession } from "./paid-collection-guard";

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
