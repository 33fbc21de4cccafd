import { describe, expect, it } from "vitest";
import type { ChargeRow } from "../records/charges";
import type { CreateRequestRow } from "../create-line/queue";
import { REFUND_REASONS } from "../records/flag-reasons";
import {
  toQueuedView,
  toStoreView,
  viewFingerprint,
  withCartRefused,
  withOrderState,
} from "./store-view";

const row = (over: Partial<ChargeRow> = {}): ChargeRow => ({
  id: "pxch_1",
  charge_id: "11111111-2222-3333-4444-555555555555",
  provider_id: "pp_pix_a",
  method: "pix",
  variant: "a",
  session_id: "payses_1",
  payment_collection_id: "pay_col_1",
  next_check_at: null,
  flag_code: null,
  flag_detail: null,
  flag_resolved_at: null,
  flag_resolution_note: null,
  superseded_at: null,
  order_hold_until: null,
  capture_session_id: null,
  awaiting_order_since: null,
  compacted_at: null,
  check_failures: 0,
  sales_channel_id: "sc_1",
  purpose: "cart",
  amount_cents: 4990,
  currency_code: "brl",
  status: "pending",
  expires_at: new Date("2026-11-21T06:30:00.000Z"),
  paid_at: null,
  capture_claimed_at: null,
  capture_claimed_by: null,
  capture_claim_door: null,
  api_amount_cents: null,
  api_paid_at: null,
  received_cents: null,
  held_cents: 0,
  held_reason: null,
  captured_cents: 0,
  owed_cents: 0,
  owed_reason: null,
  returned_cents: 0,
  capture_claimed_cents: null,
  captured_at: null,
  last_checked_at: null,
  flagged: false,
  display: { charge_id: "x", pix: { copy_paste: "000201...6304ABCD" } },
  created_at: new Date("2026-11-21T06:00:00.000Z"),
  updated_at: new Date("2026-11-21T06:00:00.000Z"),
  ...over,
});

describe("toStoreView", () => {
  it("tells the element where a new code comes from only once a Pix code has expired", () => {
    const now = new Date("2026-11-21T06:40:00.000Z");
    expect(toStoreView(row({ status: "expired" }), "payses_1", now).renew).toEqual({
      payment_collection_id: "pay_col_1",
      provider_id: "pp_pix_a",
    });
    // Still payable, paid, or a boleto: no second code is offered.
    for (const over of [
      { status: "pending" as const },
      { status: "paid" as const },
      { status: "expired" as const, method: "boleto" as const },
      { status: "expired" as const, payment_collection_id: null },
    ]) {
      expect(toStoreView(row(over), "payses_1", now).renew).toBeUndefined();
    }
  });

  it("names the cart's current code beside an expired code the cart has replaced since", () => {
    const now = new Date("2026-11-21T06:40:00.000Z");
    const expired = row({ status: "expired", superseded_at: now });
    const view = toStoreView(expired, "payses_1", now, "payses_2");
    expect(view.status).toBe("expired");
    expect(view.replaced_by).toBe("payses_2");
    // A code still payable is never named the current one: it is the one offered.
    expect(toStoreView(row(), "payses_1", now, "payses_2").replaced_by).toBeUndefined();
  });

  it("copies only whitelisted fields, whatever the stored display data holds", () => {
    const view = toStoreView(
      row({
        display: {
          pix: { copy_paste: "000201", raw: { api_key: "sk_live_x" }, document: "52998224725" },
          raw: { secret: "sk_live_x" },
          document: "52998224725",
        },
      }),
      "payses_1",
      new Date("2026-11-21T06:10:00.000Z"),
    );
    expect(view).toEqual({
      session_id: "payses_1",
      method: "pix",
      status: "pending",
      amount: 4990,
      currency: "BRL",
      expires_at: "2026-11-21T06:30:00.000Z",
      paid_at: null,
      server_time: "2026-11-21T06:10:00.000Z",
      pix: {
        copy_paste: "000201",
        qr_image_url: "/store/pix-checkout/sessions/payses_1/qr.svg",
        qr_code: null,
        payment_link: null,
      },
    });
  });

  it("gives a boleto its due date as the calendar day in São Paulo", () => {
    const view = toStoreView(
      row({
        method: "boleto",
        // 01:30 UTC on the 24th is still the 23rd in São Paulo (UTC-3).
        expires_at: new Date("2026-11-24T01:30:00.000Z"),
        display: { boleto: { url: "https://b/1", barcode: "1".repeat(44), digitable_line: "2" } },
      }),
      "payses_2",
    );
    expect(view.boleto).toEqual({
      url: "https://b/1",
      barcode: "1".repeat(44),
      digitable_line: "2",
      due_date: "2026-11-23",
    });
    expect(view.pix).toBeUndefined();
  });

  it("tells a shopper whose code no order came of what the store returns, and why", () => {
    const view = toStoreView(
      row({
        status: "paid",
        received_cents: 5290,
        owed_cents: 5290,
        owed_reason: "paid_elsewhere",
      }),
      "payses_1",
    );
    expect(view).toMatchObject({
      status: "refund_due",
      refund: { amount: 5290, reason: "paid_elsewhere" },
    });
    expect(view.pix).toBeUndefined();
  });

  it("keeps an overpaid code paid, with the excess the store returns beside it", () => {
    const view = toStoreView(
      row({
        status: "paid",
        received_cents: 2500,
        captured_cents: 2000,
        owed_cents: 500,
        owed_reason: "overpaid",
      }),
      "payses_1",
    );
    expect(view).toMatchObject({ status: "paid", refund: { amount: 500, reason: "overpaid" } });
  });

  it("never says paid for a replaced code the shopper paid while the store decides what it becomes", () => {
    const paidOld = row({
      superseded_at: new Date("2026-11-21T06:10:00.000Z"),
      status: "paid",
      amount_cents: 20945,
      received_cents: 20945,
      held_cents: 20945,
      held_reason: "awaiting_capture",
    });
    const view = toStoreView(paidOld, "payses_1", undefined, "payses_2");
    // `paid` is what a storefront completes its cart on; the cart's live code is not paid.
    expect(view.status).toBe("superseded");
    expect(view.received).toEqual({ amount: 20945 });
    expect(view.replaced_by).toBe("payses_2");
    expect(view.pix).toBeUndefined();
  });

  it("tells a shopper who paid a replaced code that it goes back, and which code still pays", () => {
    const owed = row({
      superseded_at: new Date("2026-11-21T06:10:00.000Z"),
      status: "paid",
      amount_cents: 20945,
      received_cents: 20945,
      owed_cents: 20945,
      owed_reason: "paid_replaced",
    });
    const view = toStoreView(owed, "payses_1", undefined, "payses_2");
    expect(view.status).toBe("refund_due");
    expect(view.refund).toEqual({ amount: 20945, reason: "paid_replaced" });
    expect(view.replaced_by).toBe("payses_2");
  });

  it("says paid for a replaced code once its money pays the cart (captured on the live session)", () => {
    const adopted = row({
      superseded_at: new Date("2026-11-21T06:10:00.000Z"),
      status: "paid",
      received_cents: 4990,
      captured_cents: 4990,
    });
    const view = toStoreView(adopted, "payses_1", undefined, "payses_2");
    expect(view.status).toBe("paid");
    expect(view.received).toBeUndefined();
  });

  it("keeps saying paid for a code whose money a MED blocks: it is still the order's, captured in Medusa", () => {
    // A replaced code adopted by the live session, then all of it blocked by a MED.
    const blocked = row({
      superseded_at: new Date("2026-11-21T06:10:00.000Z"),
      status: "paid",
      received_cents: 4990,
      contested_cents: 4990,
    });
    const view = toStoreView(blocked, "payses_1", undefined, "payses_2");
    expect(view.status).toBe("paid");
    expect(view.replaced_by).toBeUndefined();
    // An overpaid code whose order's part a MED blocks: the excess goes back, the code stays paid.
    const overpaid = toStoreView(
      row({
        status: "paid",
        received_cents: 6000,
        contested_cents: 4990,
        owed_cents: 1010,
        owed_reason: "overpaid",
      }),
      "payses_1",
    );
    expect(overpaid.status).toBe("paid");
    expect(overpaid.refund).toEqual({ amount: 1010, reason: "overpaid" });
  });

  it("never offers a replaced code that is still unpaid, and names the cart's current one", () => {
    const replaced = row({ superseded_at: new Date("2026-11-21T06:10:00.000Z") });
    const view = toStoreView(replaced, "payses_1", undefined, "payses_2");
    expect(view).toMatchObject({ status: "superseded", replaced_by: "payses_2" });
    expect(view.pix).toBeUndefined();
    // A replaced code that failed or expired says so: nothing of it can be paid any more.
    const failed = toStoreView(
      row({ superseded_at: new Date("2026-11-21T06:10:00.000Z"), status: "failed" }),
      "payses_1",
    );
    expect(failed.status).toBe("failed");
  });

  it("keeps a code whose money is partly held for the merchant out of refund_due, with what goes back beside it", () => {
    const view = toStoreView(
      row({
        status: "paid",
        received_cents: 6000,
        held_cents: 4990,
        held_reason: "awaiting_capture",
        owed_cents: 1010,
        owed_reason: "overpaid",
      }),
      "payses_1",
    );
    expect(view.status).toBe("paid");
    expect(view.refund).toEqual({ amount: 1010, reason: "overpaid" });
  });

  it("says a payment short of the code is held, with what arrived, never paid (issue #69)", () => {
    const short = row({
      status: "paid",
      amount_cents: 10000,
      received_cents: 8000,
      held_cents: 8000,
      held_reason: "underpaid",
    });
    const view = toStoreView(short, "payses_1");
    expect(view).toMatchObject({ status: "held", amount: 10000, received: { amount: 8000 } });
    expect(view.pix).toBeUndefined();
    // The store accepted it for the order: now it pays, and reads paid.
    const accepted = { ...short, held_reason: "accepted" as const };
    expect(toStoreView(accepted, "payses_1").status).toBe("paid");
    // The store returns it: what comes back, and why.
    const owed = { ...short, held_cents: 0, held_reason: null, owed_cents: 8000 };
    expect(toStoreView({ ...owed, owed_reason: "paid_twice" }, "payses_1").status).toBe(
      "refund_due",
    );
  });

  it("still tells the shopper of money the store already returned, owed or not", () => {
    const view = toStoreView(
      row({
        status: "paid",
        received_cents: 4990,
        owed_cents: 1000,
        owed_reason: "paid_twice",
        returned_cents: 3990,
      }),
      "payses_1",
    );
    expect(view).toMatchObject({
      status: "refund_due",
      refund: { amount: 4990, reason: "paid_twice" },
    });
  });

  it("says a replaced code paid anyway received the code's amount when the service gave none", () => {
    const view = toStoreView(
      row({
        superseded_at: new Date("2026-11-21T06:10:00.000Z"),
        status: "paid",
        amount_cents: 20945,
        received_cents: null,
      }),
      "payses_1",
    );
    expect(view.received).toEqual({ amount: 20945 });
  });

  it("gives a code only its own method's block, whatever else the display data holds", () => {
    const both = {
      pix: { copy_paste: "000201...6304ABCD" },
      boleto: { url: "https://b.example/1", barcode: "1", digitable_line: "2", due_date: null },
    };
    const pix = toStoreView(row({ display: both }), "payses_1");
    expect(pix.pix?.copy_paste).toBe("000201...6304ABCD");
    expect(pix.boleto).toBeUndefined();
    const boleto = toStoreView(row({ method: "boleto", display: both }), "payses_1");
    expect(boleto.boleto?.url).toBe("https://b.example/1");
    expect(boleto.pix).toBeUndefined();
  });

  it("no longer offers a canceled code: nothing of it is shown to pay", () => {
    const view = toStoreView(row({ status: "canceled" }), "payses_1");
    expect(view.status).toBe("canceled");
    expect(view.pix).toBeUndefined();
  });

  it("tells every reason money is owed back by its name: the element has words for each", () => {
    for (const reason of REFUND_REASONS) {
      const view = toStoreView(
        row({ status: "paid", received_cents: 4990, owed_cents: 4990, owed_reason: reason }),
        "payses_1",
      );
      expect(view, reason).toMatchObject({
        status: "refund_due",
        refund: { amount: 4990, reason },
      });
    }
  });

  it("tells a reason the element does not know as `other`, with the amount that comes back", () => {
    const view = toStoreView(
      row({
        status: "paid",
        received_cents: 4990,
        owed_cents: 4990,
        // A reason a later version of the plugin may write, read by this one.
        owed_reason: "lost_in_transit" as never,
      }),
      "payses_1",
    );
    expect(view).toMatchObject({
      status: "refund_due",
      refund: { amount: 4990, reason: "other" },
    });
  });

  it("says a paid code whose cart Medusa refused to complete is confirming, never paid, until an order comes", () => {
    const paid = row({
      status: "paid",
      received_cents: 5290,
      held_cents: 0,
      captured_cents: 5290,
    });
    const view = toStoreView(paid, "payses_1");
    expect(view.status).toBe("paid");
    // No refusal yet: the cart is being completed.
    expect(withCartRefused(view, paid, 0).status).toBe("paid");
    expect(withCartRefused(view, paid, 1)).toMatchObject({
      status: "confirming",
      received: { amount: 5290 },
    });
    // An order came of it after all (the storefront's own completion): paid, with its order.
    const ordered = { ...view, order: { display_id: 4, payment: "paid" as const } };
    expect(withCartRefused(ordered, paid, 2)).toEqual(ordered);
    // Only a paid code: money owed back says so itself.
    const owed = toStoreView(
      row({ status: "paid", received_cents: 5290, owed_cents: 5290, owed_reason: "out_of_stock" }),
      "payses_1",
    );
    expect(withCartRefused(owed, paid, 5).status).toBe("refund_due");
  });

  it("says what arrived of a short payment even once the store returned part of it", () => {
    const view = toStoreView(
      row({
        status: "paid",
        amount_cents: 10000,
        received_cents: 8000,
        held_cents: 6000,
        held_reason: "underpaid",
        returned_cents: 2000,
        owed_reason: "paid_twice",
      }),
      "payses_1",
    );
    expect(view).toMatchObject({
      status: "held",
      received: { amount: 8000 },
      refund: { amount: 2000 },
    });
  });

  it("shows a boleto's missing barcode or line as empty, never as something to type", () => {
    const view = toStoreView(
      row({
        method: "boleto",
        display: { boleto: { url: "https://b/1", due_date: "2026-11-23" } },
      }),
      "payses_1",
    );
    expect(view.boleto).toMatchObject({ barcode: "", digitable_line: "" });
  });

  it("leaves the method block out when the stored display data lacks its code", () => {
    expect(toStoreView(row({ display: null }), "payses_3").pix).toBeUndefined();
  });

  it("reads a stored empty field as absent: no empty link to open, a due date from the expiry", () => {
    const pix = toStoreView(
      row({ display: { pix: { copy_paste: "000201", qr_code: "", payment_link: "" } } }),
      "payses_1",
    );
    expect(pix.pix).toMatchObject({ copy_paste: "000201", qr_code: null, payment_link: null });
    const boleto = toStoreView(
      row({
        method: "boleto",
        expires_at: new Date("2026-11-24T01:30:00.000Z"),
        display: {
          boleto: { url: "https://b/1", barcode: "1", digitable_line: "2", due_date: "" },
        },
      }),
      "payses_1",
    );
    expect(boleto.boleto?.due_date).toBe("2026-11-23");
  });

  it("tells a boleto due on a weekend or holiday the business day the bank takes it on", () => {
    const boleto = (due_date: string | undefined, expires_at = new Date("2026-11-24T12:00:00Z")) =>
      toStoreView(
        row({
          method: "boleto",
          expires_at,
          display: { boleto: { url: "https://b/1", barcode: "1", digitable_line: "2", due_date } },
        }),
        "payses_1",
      ).boleto?.due_date;
    // A charge recorded before due dates moved off weekends may hold a Saturday.
    expect(boleto("2026-11-21")).toBe("2026-11-23");
    // Christmas falls on a Friday: the Monday after.
    expect(boleto("2026-12-25")).toBe("2026-12-28");
    expect(boleto("2026-11-24")).toBe("2026-11-24");
    // No stored day: the expiry's São Paulo day (a Sunday here), moved the same way.
    expect(boleto(undefined, new Date("2026-11-22T15:00:00.000Z"))).toBe("2026-11-23");
  });

  it("shows a stored due date it cannot read as a day as it is, rather than failing the whole answer", () => {
    for (const due_date of ["23/11/2026", "2026-11-21T03:00:00.000Z", "sáb., 2026-11-21"]) {
      const view = toStoreView(
        row({
          method: "boleto",
          display: { boleto: { url: "https://b/1", barcode: "1", digitable_line: "2", due_date } },
        }),
        "payses_1",
      );
      expect(view.boleto?.due_date, due_date).toBe(due_date);
    }
  });
});

/** A boleto of R$ 89,90 asked of the create line (the service's minute budget is spent). */
const request = (over: Partial<CreateRequestRow> = {}): CreateRequestRow => ({
  id: "req_1",
  seq: "7",
  budget_key: "b",
  provider_key: "p",
  provider_id: "pp_boleto_a",
  method: "boleto",
  session_id: "payses_1",
  payment_collection_id: "pay_col_1",
  sales_channel_id: "sc_1",
  amount_cents: 8990,
  input: null,
  state: "waiting",
  enqueued_at: new Date("2026-11-21T06:00:00.000Z"),
  sent_at: null,
  lease_until: null,
  done_at: null,
  charge_id: null,
  cancel_requested: false,
  attempts: 0,
  error_code: null,
  error_message: null,
  client_key: null,
  email_key: null,
  payer_key: null,
  vouched_by: null,
  ...over,
});

describe("withOrderState", () => {
  const canceled = { display_id: 7, payment: "canceled" as const };

  it("tells a code whose money a MED blocks that its order is canceled, never paid (issue #69)", () => {
    // Paid, captured, then all of it blocked by a MED; then the merchant canceled the order. No
    // decision owes the blocked money back while the MED is open, so the code's own money still
    // reads paid; the order's cancel wins in what the shopper reads.
    const blocked = row({ status: "paid", received_cents: 4990, contested_cents: 4990 });
    const view = withOrderState(toStoreView(blocked, "payses_1"), canceled, false);
    expect(view.status).toBe("canceled");
    expect(view.order).toEqual(canceled);
    expect(view.pix).toBeUndefined();
  });

  it("keeps what goes back beside a canceled order's blocked code", () => {
    const overpaid = row({
      status: "paid",
      received_cents: 6000,
      contested_cents: 4990,
      owed_cents: 1010,
      owed_reason: "overpaid",
    });
    const view = withOrderState(toStoreView(overpaid, "payses_1"), canceled, false);
    expect(view).toMatchObject({
      status: "canceled",
      refund: { amount: 1010, reason: "overpaid" },
    });
  });

  it("leaves a paid code of a standing order paid, and names no amount owed while its money is on its way", () => {
    const paid = toStoreView(row({ status: "paid", captured_cents: 4990 }), "payses_1");
    const awaiting = { display_id: 7, payment: "awaiting" as const, owes: 4990 };
    expect(withOrderState(paid, awaiting, false)).toMatchObject({
      status: "paid",
      order: awaiting,
    });
    expect(withOrderState(paid, awaiting, true).order).toEqual({
      display_id: 7,
      payment: "awaiting",
    });
  });

  it("still names what the order owes beside a replaced code paid anyway: its money is not the order's yet", () => {
    // Held for Medusa's capture (on its way), but whether it pays the order or goes back is
    // still being decided: the shopper is not told the order is being paid.
    const paidOld = row({
      superseded_at: new Date("2026-11-21T06:10:00.000Z"),
      status: "paid",
      received_cents: 4990,
      held_cents: 4990,
      held_reason: "awaiting_capture",
    });
    const awaiting = { display_id: 7, payment: "awaiting" as const, owes: 4990 };
    const view = withOrderState(
      toStoreView(paidOld, "payses_1", undefined, "payses_2"),
      awaiting,
      true,
    );
    expect(view).toMatchObject({ status: "superseded", received: { amount: 4990 } });
    expect(view.order).toEqual(awaiting);
  });

  it("keeps a canceled order's money owed back as refund_due, and offers its expired Pix no new code", () => {
    const owed = row({
      status: "paid",
      received_cents: 4990,
      owed_cents: 4990,
      owed_reason: "order_canceled",
    });
    expect(withOrderState(toStoreView(owed, "payses_1"), canceled, false).status).toBe(
      "refund_due",
    );
    const expired = toStoreView(row({ status: "expired" }), "payses_1");
    expect(expired.renew).toBeDefined();
    const ended = withOrderState(expired, canceled, false);
    expect(ended.status).toBe("expired");
    expect(ended.renew).toBeUndefined();
  });
});

describe("toQueuedView", () => {
  const now = new Date("2026-11-21T06:00:00.000Z");

  it("tells a shopper whose code waits in line when it should be ready, and their place", () => {
    const view = toQueuedView(request(), { ahead: 2, readyInMs: 45_000 }, "payses_1", now);
    expect(view).toEqual({
      session_id: "payses_1",
      method: "boleto",
      status: "preparing",
      amount: 8990,
      currency: "BRL",
      expires_at: null,
      paid_at: null,
      server_time: "2026-11-21T06:00:00.000Z",
      ready_at: "2026-11-21T06:00:45.000Z",
      queue_position: 3,
    });
    // Being sent (no place read): ready now, and first.
    expect(toQueuedView(request({ state: "sending" }), undefined, "payses_1", now)).toMatchObject({
      status: "preparing",
      ready_at: "2026-11-21T06:00:00.000Z",
      queue_position: 1,
    });
  });

  it("says failed when the service refused the code, with no estimate", () => {
    const view = toQueuedView(request({ state: "failed" }), undefined, "payses_1", now);
    expect(view.status).toBe("failed");
    expect(view.ready_at).toBeUndefined();
    expect(view.queue_position).toBeUndefined();
    expect(view.replaced_by).toBeUndefined();
  });

  it("says superseded, naming the cart's current code, when the session went away before its code", () => {
    const view = toQueuedView(
      request({ state: "canceled" }),
      undefined,
      "payses_1",
      now,
      "payses_2",
    );
    expect(view).toMatchObject({ status: "superseded", replaced_by: "payses_2" });
    expect(view.ready_at).toBeUndefined();
    expect(view.queue_position).toBeUndefined();
  });
});

describe("viewFingerprint", () => {
  it("ignores the clock but not the status", () => {
    const a = toStoreView(row(), "payses_1", new Date(1));
    const b = toStoreView(row(), "payses_1", new Date(2));
    const paid = toStoreView(row({ status: "paid" }), "payses_1", new Date(1));
    expect(viewFingerprint(a)).toBe(viewFingerprint(b));
    expect(viewFingerprint(a)).not.toBe(viewFingerprint(paid));
  });

  it("ignores a line's estimate moving with the clock, but not the shopper's place in line", () => {
    const at = (ms: number, ahead: number) =>
      viewFingerprint(
        toQueuedView(request(), { ahead, readyInMs: 10_000 }, "payses_1", new Date(ms)),
      );
    expect(at(1_000, 2)).toBe(at(5_000, 2));
    expect(at(1_000, 2)).not.toBe(at(1_000, 1));
  });
});
