import { describe, expect, it } from "vitest";
import type { CheckoutSession, OrderState, SessionStatus } from "../session.js";
import {
  FINAL_STATUSES,
  countdownTo,
  eventOf,
  isFinal,
  isNotice,
  offersRenewal,
  titleOf,
  viewOf,
  wantsNotices,
} from "./status-mapping.js";

const NOW = "2026-11-28T12:00:00.000Z";
const EXPIRES = "2026-11-28T12:30:00.000Z";
const READY = "2026-11-28T12:00:40.000Z";

/** A pending Pix session, with `patch` over it. */
function session(patch: Partial<CheckoutSession> = {}): CheckoutSession {
  return {
    session_id: "ps_1",
    method: "pix",
    status: "pending",
    amount: 12345,
    currency: "BRL",
    expires_at: EXPIRES,
    paid_at: null,
    server_time: NOW,
    pix: { copy_paste: "000201..." },
    ...patch,
  };
}

const ALL: SessionStatus[] = [
  "preparing",
  "pending",
  "paid",
  "expired",
  "failed",
  "canceled",
  "superseded",
  "held",
  "confirming",
  "refund_due",
];

const order = (payment?: OrderState["payment"]): OrderState => ({ display_id: 12, payment });

describe("isFinal: when the element stops listening", () => {
  it("stops at a code that ended: expired, failed, canceled", () => {
    for (const status of ["expired", "failed", "canceled"] as const) {
      expect(isFinal(session({ status })), status).toBe(true);
    }
  });

  it("stops at money owed back (refund_due), with or without an order", () => {
    expect(
      isFinal(session({ status: "refund_due", refund: { amount: 100, reason: "other" } })),
    ).toBe(true);
    expect(isFinal(session({ status: "refund_due", order: order("awaiting") }))).toBe(true);
  });

  it("listens on while the code is being prepared, pending, replaced, held or its cart confirmed", () => {
    for (const status of ["preparing", "pending", "superseded", "held", "confirming"] as const) {
      expect(isFinal(session({ status })), status).toBe(false);
      // Even with an order paid or canceled: only a paid code reads its order's news.
      expect(isFinal(session({ status, order: order("paid") })), status).toBe(false);
    }
  });

  it("listens on past a paid code until its order is paid or canceled", () => {
    expect(isFinal(session({ status: "paid" }))).toBe(false);
    expect(isFinal(session({ status: "paid", order: null }))).toBe(false);
    expect(isFinal(session({ status: "paid", order: order() }))).toBe(false);
    expect(isFinal(session({ status: "paid", order: order("awaiting") }))).toBe(false);
    expect(isFinal(session({ status: "paid", order: order("paid") }))).toBe(true);
    expect(isFinal(session({ status: "paid", order: order("canceled") }))).toBe(true);
  });

  it("does not take a payment word that only contains paid or canceled for the order's end", () => {
    for (const payment of ["unpaid", "paid_partially", "not_canceled", "canceled_later"]) {
      const s = session({
        status: "paid",
        order: { display_id: 1, payment } as unknown as OrderState,
      });
      expect(isFinal(s), payment).toBe(false);
    }
  });

  it("names exactly the code's final statuses", () => {
    expect([...FINAL_STATUSES].sort()).toEqual(
      ["canceled", "expired", "failed", "paid", "refund_due"].sort(),
    );
  });
});

describe("viewOf: what the element shows", () => {
  it("shows the session's status once one has come", () => {
    for (const status of ALL) {
      expect(
        viewOf({ session: session({ status }), error: null, clockExpired: false }),
        status,
      ).toBe(status);
    }
  });

  it("shows a pending code the clock ran out as expired before the backend says so", () => {
    expect(viewOf({ session: session(), error: null, clockExpired: true })).toBe("expired");
  });

  it("keeps any other status when the clock ran out", () => {
    for (const status of ALL.filter((s) => s !== "pending")) {
      expect(
        viewOf({ session: session({ status }), error: null, clockExpired: true }),
        status,
      ).toBe(status);
    }
  });

  it("keeps the session on screen when a later call fails", () => {
    expect(
      viewOf({ session: session(), error: { retryAfter: undefined }, clockExpired: false }),
    ).toBe("pending");
  });

  it("shows the error view when the first answer failed", () => {
    expect(viewOf({ session: null, error: {}, clockExpired: false })).toBe("error");
    expect(viewOf({ session: null, error: { retryAfter: 0 }, clockExpired: false })).toBe("error");
  });

  it("keeps loading while the store asks for patience, or before any answer", () => {
    expect(viewOf({ session: null, error: { retryAfter: 5 }, clockExpired: false })).toBe(
      "loading",
    );
    expect(viewOf({ session: null, error: null, clockExpired: false })).toBe("loading");
    expect(viewOf({ session: null, error: null, clockExpired: true })).toBe("loading");
  });
});

describe("isNotice: views whose words come in the notice chunk", () => {
  it("is preparing, superseded, held, confirming and refund due", () => {
    expect(ALL.filter(isNotice)).toEqual([
      "preparing",
      "superseded",
      "held",
      "confirming",
      "refund_due",
    ]);
  });

  it("is not the element's own views, nor a word that only contains a notice's", () => {
    for (const view of ["loading", "error", "not_held", "held_back", "preparingBoleto"]) {
      expect(isNotice(view), view).toBe(false);
    }
  });
});

describe("wantsNotices: whether the notice chunk loads", () => {
  // Its answer is truthy or falsy (the element only tests it).
  const loads = (s: CheckoutSession) => Boolean(wantsNotices(s));

  it("loads for every status past a pending code", () => {
    for (const status of ALL.filter((s) => s !== "pending")) {
      expect(loads(session({ status })), status).toBe(true);
    }
  });

  it("does not load for a pending code alone", () => {
    expect(loads(session())).toBe(false);
    expect(loads(session({ earlier_payment: null }))).toBe(false);
  });

  it("loads for a pending code beside money of an older code the store returns", () => {
    expect(loads(session({ earlier_payment: { amount: 3500, order_paid: false } }))).toBe(true);
  });
});

describe("titleOf: the words of a status's title", () => {
  it("is the status itself", () => {
    for (const status of ALL) {
      expect(titleOf(session({ status })), status).toBe(status);
    }
  });

  it("says a boleto is being prepared in its own words", () => {
    expect(titleOf(session({ status: "preparing", method: "boleto" }))).toBe("preparingBoleto");
    expect(titleOf(session({ status: "pending", method: "boleto" }))).toBe("pending");
  });
});

describe("eventOf: the event a new status brings", () => {
  it("fires pix-paid only for paid", () => {
    expect(eventOf("paid")).toBe("pix-paid");
  });

  it("fires pix-refund-due for money owed back", () => {
    expect(eventOf("refund_due")).toBe("pix-refund-due");
  });

  it("fires nothing more for any other status (held money never pays the cart, nor money whose cart was refused)", () => {
    for (const status of ALL.filter((s) => !["paid", "refund_due"].includes(s))) {
      expect(eventOf(status), status).toBeUndefined();
    }
  });
});

describe("countdownTo: where the countdown aims", () => {
  it("aims a code being prepared at when it should exist", () => {
    expect(countdownTo(session({ status: "preparing", ready_at: READY, expires_at: null }))).toBe(
      READY,
    );
    expect(countdownTo(session({ status: "preparing", method: "boleto", ready_at: READY }))).toBe(
      READY,
    );
  });

  it("aims a code being prepared with no estimate at the backend's now", () => {
    expect(countdownTo(session({ status: "preparing", ready_at: null }))).toBe(NOW);
    expect(countdownTo(session({ status: "preparing", expires_at: EXPIRES }))).toBe(NOW);
  });

  it("aims a pending Pix at its expiry, or at the backend's now without one", () => {
    expect(countdownTo(session({ ready_at: READY }))).toBe(EXPIRES);
    expect(countdownTo(session({ expires_at: null }))).toBe(NOW);
  });

  it("has no countdown for a pending boleto", () => {
    expect(countdownTo(session({ method: "boleto" }))).toBe("");
  });

  it("has no countdown past pending", () => {
    for (const status of ALL.filter((s) => s !== "pending" && s !== "preparing")) {
      expect(countdownTo(session({ status, ready_at: READY })), status).toBe("");
    }
  });
});

describe("offersRenewal: whether the expired view offers a new code", () => {
  const renew = { payment_collection_id: "pay_col_1", provider_id: "pp_pix" };

  it("offers one when the backend says the code expired and names where a new one comes from", () => {
    expect(offersRenewal(session({ status: "expired", renew }), false)).toBe(true);
  });

  it("offers none when the page took the expiry on itself", () => {
    expect(offersRenewal(session({ status: "expired", renew }), true)).toBe(false);
  });

  it("offers none without a renew target (a boleto, a canceled order's code)", () => {
    expect(offersRenewal(session({ status: "expired" }), false)).toBe(false);
    expect(offersRenewal(session({ status: "expired", renew: null }), false)).toBe(false);
  });

  it("offers none while the backend still says pending (the clock alone ran out)", () => {
    expect(offersRenewal(session({ status: "pending", renew }), false)).toBe(false);
    expect(offersRenewal(session({ status: "canceled", renew }), false)).toBe(false);
  });
});
