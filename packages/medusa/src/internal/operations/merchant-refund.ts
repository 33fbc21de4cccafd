import { recordRefundInMedusa } from "../medusa/refund-record";
import { redact } from "@pix-checkout/client";
import type { ChargeRow } from "../records/charges";
import type { LedgerMove } from "../records/ledger";
import { moneyOf } from "../records/ledger-parts";
import { captureSessionOf } from "../settlement/session-answer";
import { returnOf } from "../settlement/decide";
import { refundableCents, refundPortions } from "../settlement/refund-portions";
import { PixCheckoutError } from "../platform/errors";
import type { SettleContext } from "../settlement/context";
import { withCollectionLock } from "../records/collection-locks";
import { recordsOf } from "../records/records";
import { capturedPaymentOf } from "../medusa/payments";

/** What recording a refund did. */
export interface RecordedRefund {
  /** Cents now recorded as refunded in Medusa (0 when none of it was money Medusa captured). */
  recorded_in_medusa_cents: number;
  /**
   * Cents recorded in the plugin's ledger only: money Medusa never captured (a replaced code's,
   * an overpayment's excess, an underpaid amount held), which Medusa's order has no payment of.
   */
  ledger_only_cents: number;
  /** True when nothing of the charge waits for the merchant any more and its note was resolved. */
  resolved_flag: boolean;
}

/**
 * The merchant returned money to the shopper in the payment service's dashboard (the API has
 * no refund endpoint) and says so here. In one transaction, under the collection's lock: the
 * declaration goes on the charge's timeline and the money moves to the ledger's `returned` part
 * (settlement/decide.ts `returnOf`: owed money first, then held, then captured), and once
 * nothing of the charge waits for the merchant its note is resolved. Then Medusa records the
 * refund of the part it held captured (the provider's `refundPayment` accepts exactly that,
 * and refuses Medusa's own automatic refunds); money Medusa never captured (an overpayment's
 * excess, a code paid twice) has no Medusa payment to refund, and is recorded in the ledger only
 * (settlement/refund-portions.ts: the admin's drawer says so before, from the same split). The
 * merchant's note goes on the ledger's entries and the timeline, and the refund is announced
 * (`pix_checkout.charge.refunded`) for the shopper's message.
 */
export function recordMerchantRefund(
  ctx: SettleContext,
  charge: ChargeRow,
  amountCents: number,
  note: string,
): Promise<RecordedRefund> {
  // Under the collection's lock, read afresh: a double submit must not declare twice the cap.
  const key = charge.payment_collection_id ?? `charge:${charge.charge_id}`;
  return withCollectionLock(ctx.db, key, async () => {
    const row = (await ctx.records.charges.byChargeId(charge.charge_id)) ?? charge;
    return record(ctx, row, amountCents, note);
  });
}

async function record(
  ctx: SettleContext,
  row: ChargeRow,
  amountCents: number,
  note: string,
): Promise<RecordedRefund> {
  if (row.status !== "paid") {
    throw new PixCheckoutError(
      "invalid_refund",
      `Charge ${row.charge_id} is ${row.status}, not paid: there is no money to refund.`,
    );
  }
  const money = moneyOf(row);
  const owedInMedusa = await ctx.records.ledger.owedInMedusa(row.charge_id);
  const plan = returnOf(money, amountCents, owedInMedusa);
  if (!plan) {
    const capturing = money.heldReason !== "underpaid" ? money.held : 0;
    throw new PixCheckoutError(
      "invalid_refund",
      capturing > 0
        ? `Charge ${row.charge_id} is being captured for its order right now; record the refund once it is captured (in a few seconds).`
        : `At most ${refundableCents(refundPortions(money, owedInMedusa))} cents of charge ${row.charge_id} are left to refund${money.medBlockedOwed ? " (owed money an open MED blocked is settled by its outcome)" : ""}.`,
    );
  }
  const payment =
    plan.medusaCents > 0
      ? await capturedPaymentOf(ctx.container, captureSessionOf(row))
      : undefined;
  const medusaCents = payment ? plan.medusaCents : 0;
  const moves = plan.takes.map((take): LedgerMove => ({
    from: take.from,
    to: "returned",
    amountCents: take.amountCents,
    reason: "merchant_refund",
    // An entry of money Medusa holds captured names the payment Medusa records the refund on.
    medusaRef: take.inMedusa ? (payment ?? null) : null,
    // How it was returned: the timeline and the books read it from the entries.
    note,
  }));
  const left = (part: "owed" | "held" | "captured") =>
    money[part] - (plan.takes.find((t) => t.from === part)?.amountCents ?? 0);
  // The note asked for this money: it is resolved once nothing of it waits for the merchant
  // (all of it returned, or nothing left owed or held of a note about the money).
  const aboutMoney = row.flag_code === "refund_due" || row.flag_code === "amount_mismatch";
  const nothingWaits =
    row.flagged &&
    ((aboutMoney && left("owed") === 0 && left("held") === 0) ||
      money.returned + amountCents === money.received);
  let resolved = false;
  let declarationId = "";
  const after = await ctx.db.transaction(async (trx) => {
    const records = recordsOf(trx);
    declarationId = await records.events.declareRefund(
      row.charge_id,
      amountCents,
      note,
      medusaCents,
    );
    const moved = await records.ledger.giveBack(row.charge_id, moves, "admin", {
      ...(left("captured") === 0 ? { awaiting_order_since: null } : {}),
      ...(nothingWaits ? records.notes.resolutionColumns(note) : {}),
    });
    if (!moved) {
      throw new PixCheckoutError(
        "collection_busy",
        "This charge's money moved while the refund was recorded; nothing was recorded. Try again.",
      );
    }
    if (nothingWaits) {
      resolved = true;
      await records.events.add({
        chargeId: row.charge_id,
        kind: "flag_resolved",
        source: "admin",
        detail: { note },
      });
    }
    return moved;
  });
  // Told once the money's return is stored: the shopper's "Devolvemos R$ X" follows it.
  const first = plan.takes[0]!;
  await ctx.lifecycle.refunded(after, {
    id: declarationId,
    amount_cents: amountCents,
    medusa_cents: medusaCents,
    reason: first.from === "captured" ? "order_refund" : (first.why ?? "order_refund"),
  });
  let recorded = 0;
  if (payment && medusaCents > 0) {
    try {
      await recordRefundInMedusa(ctx.container, {
        paymentId: payment,
        amountCents: medusaCents,
        referenceId: declarationId,
        note,
      });
      recorded = medusaCents;
    } catch (error) {
      // The return stands (the money did go back); Medusa's record can be retried.
      ctx.logger.warn(
        `the refund of charge ${row.charge_id} is recorded but Medusa could not record it: ${redact((error as Error).message)}`,
      );
    }
  }
  return {
    recorded_in_medusa_cents: recorded,
    ledger_only_cents: amountCents - medusaCents,
    resolved_flag: resolved,
  };
}
