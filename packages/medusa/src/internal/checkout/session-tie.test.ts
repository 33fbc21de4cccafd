import { describe, expect, it } from "vitest";
import type { ChargeRow } from "../records/charges";
import { askerOf, liveCodeOf, renewedSessionOf, takesLiveCodeAway } from "./session-tie";

const NOW = new Date("2026-11-27T12:00:00Z");
const COLLECTION = "pay_col_01JX3Q8Z2K4T0M9V6R7W5Y1N2B";

function row(overrides: Partial<ChargeRow> = {}): ChargeRow {
  return {
    charge_id: "ch_1",
    session_id: "payses_01JX3Q8Z2K4T0M9V6R7W5Y1AAA",
    payment_collection_id: COLLECTION,
    provider_id: "pp_pix_pix-checkout",
    method: "pix",
    status: "pending",
    expires_at: new Date("2026-11-27T12:30:00Z"),
    superseded_at: null,
    buyer_document: "52998224725",
    ...overrides,
  } as ChargeRow;
}

describe("renewedSessionOf: the session a request's data.renews names", () => {
  it("reads a Medusa session id, and nothing else", () => {
    expect(renewedSessionOf({ data: { renews: "payses_01JX3Q8Z2K4T0M9V6R7W5Y1AAA" } })).toBe(
      "payses_01JX3Q8Z2K4T0M9V6R7W5Y1AAA",
    );
    for (const body of [
      undefined,
      null,
      {},
      { data: null },
      { data: { renews: 42 } },
      { data: { renews: "ch_1" } },
      { data: { renews: "payses_x' OR 1=1" } },
      { renews: "payses_01JX3Q8Z2K4T0M9V6R7W5Y1AAA" },
    ]) {
      expect(renewedSessionOf(body)).toBeNull();
    }
  });
});

describe("askerOf: who asks for a collection's new code", () => {
  const expired = row({ status: "expired", expires_at: new Date("2026-11-27T11:00:00Z") });

  it("is a renewal when the named code is this collection's and can no longer be paid", () => {
    expect(askerOf(COLLECTION, expired, true, NOW)).toEqual({ kind: "renewal", renews: expired });
    const pastItsTime = row({ expires_at: new Date("2026-11-27T11:59:59Z") });
    expect(askerOf(COLLECTION, pastItsTime, true, NOW).kind).toBe("renewal");
    const replaced = row({ superseded_at: new Date("2026-11-27T11:00:00Z") });
    expect(askerOf(COLLECTION, replaced, true, NOW).kind).toBe("renewal");
  });

  it("is no renewal for a live code (a session id read off the order), nor another collection's", () => {
    expect(askerOf(COLLECTION, row(), true, NOW).kind).toBe("foreign");
    expect(askerOf("pay_col_other0000000000", expired, true, NOW).kind).toBe("foreign");
    expect(askerOf(COLLECTION, undefined, true, NOW).kind).toBe("foreign");
  });

  it("is the cart's holder on a collection no order owns yet", () => {
    expect(askerOf(COLLECTION, undefined, false, NOW).kind).toBe("cart_holder");
    expect(askerOf(COLLECTION, row(), false, NOW).kind).toBe("cart_holder");
  });
});

describe("takesLiveCodeAway: an order's live code stays the shopper's", () => {
  const live = row();
  const renewal = { kind: "renewal", renews: row({ status: "expired" }) } as const;

  it("refuses a foreign request of any provider while a code is live", () => {
    expect(takesLiveCodeAway({ kind: "foreign" }, live, true, "pp_pix_pix-checkout")).toBe(true);
    expect(takesLiveCodeAway({ kind: "foreign" }, live, true, "pp_boleto_pix-checkout")).toBe(true);
    expect(takesLiveCodeAway({ kind: "foreign" }, live, true, "pp_system_default")).toBe(true);
  });

  it("lets a renewal of the live code's own provider through (it shows that code again)", () => {
    expect(takesLiveCodeAway(renewal, live, true, "pp_pix_pix-checkout")).toBe(false);
    expect(takesLiveCodeAway(renewal, live, true, "pp_boleto_pix-checkout")).toBe(true);
  });

  it("refuses nothing with no live code, before the cart is an order, or on an order's own collection (its payment link's)", () => {
    expect(takesLiveCodeAway({ kind: "foreign" }, undefined, true, "pp_pix_pix-checkout")).toBe(
      false,
    );
    expect(takesLiveCodeAway({ kind: "cart_holder" }, live, false, "pp_boleto_x")).toBe(false);
    // An order's own collection (no cart): its payment link switches method as its page offers.
    expect(takesLiveCodeAway({ kind: "foreign" }, live, false, "pp_boleto_x")).toBe(false);
  });
});

describe("liveCodeOf", () => {
  it("finds a pending, unreplaced code before its expiry only", () => {
    expect(liveCodeOf([row()], NOW)?.charge_id).toBe("ch_1");
    expect(liveCodeOf([row({ status: "expired" })], NOW)).toBeUndefined();
    expect(liveCodeOf([row({ status: "paid" })], NOW)).toBeUndefined();
    expect(liveCodeOf([row({ superseded_at: NOW })], NOW)).toBeUndefined();
    expect(liveCodeOf([row({ expires_at: NOW })], NOW)).toBeUndefined();
  });
});
