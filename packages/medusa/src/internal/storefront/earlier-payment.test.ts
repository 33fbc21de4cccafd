import { describe, expect, it } from "vitest";
import type { ChargeRow } from "../records/charges";
import type { Ledger } from "../records/ledger";
import type { OwedReason } from "../records/ledger-parts";
import { chargeRow } from "../settlement/__tests__/charge-row";
import { earlierPaymentOf } from "./earlier-payment";

type Entry = { chargeId: string; reason: OwedReason; cents: number };

/**
 * The ledger's entries that owed money back without it ever being an order's, as `owedFor`
 * reads them (money returned since still counts); `reads` counts the reads.
 */
function ledgerOf(entries: Entry[]) {
  const ledger = {
    reads: 0,
    async owedFor(chargeIds: readonly string[], reasons: readonly string[]) {
      ledger.reads += 1;
      return entries.filter((e) => chargeIds.includes(e.chargeId) && reasons.includes(e.reason));
    },
  };
  return ledger;
}

const current = chargeRow({
  charge_id: "ch_new",
  session_id: "ps_new",
  status: "pending",
  received_cents: null,
  held_cents: 0,
  held_reason: null,
});
const paysTheCart = chargeRow({
  charge_id: "ch_new",
  session_id: "ps_new",
  held_cents: 0,
  held_reason: null,
  captured_cents: 10_000,
});
/** An older code whose R$ 100,00 is owed back (or, `returned`, was returned since). */
const older = (reason: OwedReason, returned = false, chargeId = "ch_old"): ChargeRow =>
  chargeRow({
    charge_id: chargeId,
    session_id: "ps_old",
    held_cents: 0,
    held_reason: null,
    owed_cents: returned ? 0 : 10_000,
    owed_reason: returned ? null : reason,
    returned_cents: returned ? 10_000 : 0,
  });
const entry = (reason: OwedReason, chargeId = "ch_old"): Entry => ({
  chargeId,
  reason,
  cents: 10_000,
});

describe("earlierPaymentOf: what a shopper hears of an older code's money", () => {
  it("tells of an older code paid after the cart was paid, and that the order is paid", async () => {
    const ledger = ledgerOf([entry("paid_twice")]);
    const charges = [paysTheCart, older("paid_twice")];
    expect(await earlierPaymentOf(ledger as unknown as Ledger, charges, "ch_new")).toEqual({
      amount: 10_000,
      order_paid: true,
    });
  });

  it("tells of an older code paid for an amount the cart no longer has, while this code is still to pay", async () => {
    const ledger = ledgerOf([entry("paid_old_amount")]);
    const charges = [current, older("paid_old_amount")];
    expect(await earlierPaymentOf(ledger as unknown as Ledger, charges, "ch_new")).toEqual({
      amount: 10_000,
      order_paid: false,
    });
  });

  it("tells that the order is paid when the older code was paid after the cart was paid another way", async () => {
    const ledger = ledgerOf([entry("paid_elsewhere")]);
    const charges = [current, older("paid_elsewhere")];
    expect(await earlierPaymentOf(ledger as unknown as Ledger, charges, "ch_new")).toEqual({
      amount: 10_000,
      order_paid: true,
    });
  });

  it("tells of an older code paid after the shopper moved to another way to pay, while this code is still to pay", async () => {
    const ledger = ledgerOf([entry("paid_replaced")]);
    const charges = [current, older("paid_replaced")];
    expect(await earlierPaymentOf(ledger as unknown as Ledger, charges, "ch_new")).toEqual({
      amount: 10_000,
      order_paid: false,
    });
  });

  it("tells that the order is paid when any of the older codes was paid after the cart was paid another way", async () => {
    const ledger = ledgerOf([entry("paid_old_amount"), entry("paid_elsewhere", "ch_older")]);
    const charges = [current, older("paid_old_amount"), older("paid_elsewhere", false, "ch_older")];
    expect(await earlierPaymentOf(ledger as unknown as Ledger, charges, "ch_new")).toEqual({
      amount: 20_000,
      order_paid: true,
    });
  });

  it("tells that the order is paid when Medusa says another way to pay paid it", async () => {
    const ledger = ledgerOf([entry("paid_old_amount")]);
    const charges = [current, older("paid_old_amount")];
    expect(await earlierPaymentOf(ledger as unknown as Ledger, charges, "ch_new", true)).toEqual({
      amount: 10_000,
      order_paid: true,
    });
  });

  it("still tells of the money once it was returned, adding up every older code's", async () => {
    const ledger = ledgerOf([entry("paid_twice"), entry("paid_old_amount", "ch_older")]);
    const charges = [
      paysTheCart,
      older("paid_twice", true),
      older("paid_old_amount", false, "ch_older"),
    ];
    expect(await earlierPaymentOf(ledger as unknown as Ledger, charges, "ch_new")).toEqual({
      amount: 20_000,
      order_paid: true,
    });
  });

  it("says nothing of money owed back for the order itself (canceled, never completed, an overpayment's excess)", async () => {
    const ledger = ledgerOf([
      entry("order_canceled"),
      entry("out_of_stock", "ch_older"),
      entry("overpaid", "ch_new"),
    ]);
    const charges = [
      paysTheCart,
      older("order_canceled"),
      older("out_of_stock", false, "ch_older"),
    ];
    expect(await earlierPaymentOf(ledger as unknown as Ledger, charges, null)).toBeUndefined();
  });

  it("leaves out the code on screen, which speaks for itself, without reading the ledger", async () => {
    const ledger = ledgerOf([entry("paid_twice")]);
    const charges = [current, older("paid_twice")];
    expect(await earlierPaymentOf(ledger as unknown as Ledger, charges, "ch_old")).toBeUndefined();
    expect(ledger.reads).toBe(0);
  });

  it("reads no ledger while no older code holds money owed or returned", async () => {
    const ledger = ledgerOf([]);
    const unpaidOlder = chargeRow({
      charge_id: "ch_old",
      status: "expired",
      received_cents: null,
      held_cents: 0,
      held_reason: null,
    });
    const charges = [paysTheCart, unpaidOlder, chargeRow({ charge_id: "ch_held" })];
    expect(await earlierPaymentOf(ledger as unknown as Ledger, charges, null)).toBeUndefined();
    expect(ledger.reads).toBe(0);
  });
});
