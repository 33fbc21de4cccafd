import { recordRefundInMedusa } from "../medusa/refund-record";
import { redact } from "@pix-checkout/client";
import type { ChargeRow } from "../records/charges";
import { moneyOf } from "../records/ledger-parts";
import { withCollectionLock } from "../records/collection-locks";
import { recordsOf } from "../records/records";
import { capturedPaymentOf } from "../medusa/payments";
import { captureSessionOf } from "../settlement/session-answer";
import type { SettleContext } from "../settlement/context";
import { settlePaid } from "../settlement/settle";
import { PixCheckoutError } from "../platform/errors";

/*
 * Pix returned by the MED (Mecanismo Especial de Devolução; docs/ledger.md "Pix returned by the
 * MED"). The payment service's API says nothing of a notificação de infração: the merchant hears
 * of it from the service and marks it here. The mark moves the blocked money (bloqueio
 * cautelar) from `captured` to `contested`; the outcome moves it back (Mantido) or to `returned`
 * (Devolvido pelo MED), and Medusa records that return as a refund of the order. Each move is
 * one statement of the ledger with the case's columns, under the collection's lock.
 */

/** What the merchant read in the notificação de infração. */
export interface MedMark {
  /** The notification's protocol number (número de protocolo / ID da notificação). */
  protocol: string;
  /** `YYYY-MM-DD`: the date by which the institution decides. */
  deadline: string;
  /** The amount blocked, integer cents. */
  amountCents: number;
}

/** How a MED ended, as the merchant records it. */
export type MedOutcome =
  | { outcome: "kept" }
  /** `amountCents`: what the MED returned; all of the blocked amount when absent. */
  | { outcome: "returned"; amountCents?: number };

/** What recording an outcome did. */
export interface RecordedMedOutcome {
  returned_cents: number;
  kept_cents: number;
  /** Of `returned_cents`, what Medusa recorded as a refund of the order. */
  recorded_in_medusa_cents: number;
}

const lockKey = (charge: ChargeRow) => charge.payment_collection_id ?? `charge:${charge.charge_id}`;

/**
 * A MED blocked `amountCents` of a paid charge's captured money: it moves to `contested` and the
 * charge's case opens (protocol, deadline), in one statement, with a line on its timeline.
 * Refused (409) when a case is open, when the charge has nothing captured (or its cart is no
 * order yet), and when the amount is more than is captured.
 */
export function markMed(ctx: SettleContext, charge: ChargeRow, mark: MedMark): Promise<ChargeRow> {
  return withCollectionLock(ctx.db, lockKey(charge), async () => {
    const row = (await ctx.records.charges.byChargeId(charge.charge_id)) ?? charge;
    if (row.med_state === "open") {
      throw new PixCheckoutError(
        "med_already_open",
        `Charge ${row.charge_id} has an open MED (protocol ${row.med_protocol}): record its outcome (Devolvido pelo MED, or Mantido) before marking another.`,
      );
    }
    const money = moneyOf(row);
    if (row.status !== "paid" || money.captured === 0 || row.awaiting_order_since) {
      throw new PixCheckoutError(
        "med_not_contestable",
        row.awaiting_order_since
          ? `Charge ${row.charge_id} is captured but its cart is not an order yet: re-check it first, then mark the MED.`
          : `Charge ${row.charge_id} has no money captured for an order: only captured money can be blocked by a MED. Money owed back is returned with "Record refund".`,
      );
    }
    if (mark.amountCents > money.captured) {
      throw new PixCheckoutError(
        "med_amount_exceeds_captured",
        `At most ${money.captured} cents of charge ${row.charge_id} are captured: the MED cannot block more.`,
      );
    }
    const marked = await ctx.db.transaction(async (trx) => {
      const records = recordsOf(trx);
      const moved = await records.ledger.contest(
        row.charge_id,
        mark.amountCents,
        { protocol: mark.protocol, deadline: mark.deadline },
        "admin",
      );
      if (!moved) {
        throw new PixCheckoutError(
          "collection_busy",
          "This charge's money moved while the MED was recorded; nothing was recorded. Try again.",
        );
      }
      await records.events.add({
        chargeId: row.charge_id,
        kind: "med_opened",
        source: "admin",
        detail: {
          amount_cents: mark.amountCents,
          protocol: mark.protocol,
          deadline: mark.deadline,
        },
      });
      return moved;
    });
    ctx.logger.info(
      `a MED blocks ${mark.amountCents} cents of charge ${row.charge_id} (deadline ${mark.deadline})`,
    );
    return marked;
  });
}

/**
 * The MED of a charge ended. Mantido: the blocked money is the store's again (`contested` →
 * `captured`). Devolvido pelo MED: what the MED returned moves to `returned`, naming Medusa's
 * payment, and the rest back to `captured`, in one statement; then Medusa records the return as
 * a refund of the order (the provider's refundPayment accepts exactly what the ledger returned,
 * once). Refused with 409 `med_not_open` when no case is open (a second outcome moves nothing).
 * Captured money the outcome gave back goes through the collection's decision again (an order
 * canceled meanwhile owes it back).
 */
export async function recordMedOutcome(
  ctx: SettleContext,
  charge: ChargeRow,
  outcome: MedOutcome,
): Promise<RecordedMedOutcome> {
  const ended = await withCollectionLock(ctx.db, lockKey(charge), async () => {
    const row = (await ctx.records.charges.byChargeId(charge.charge_id)) ?? charge;
    const contested = moneyOf(row).contested;
    if (row.med_state !== "open" || contested === 0) {
      throw new PixCheckoutError(
        "med_not_open",
        `Charge ${row.charge_id} has no open MED: its outcome was recorded already, or none was marked.`,
      );
    }
    const returned = outcome.outcome === "kept" ? 0 : (outcome.amountCents ?? contested);
    if (returned > contested) {
      throw new PixCheckoutError(
        "med_amount_exceeds_captured",
        `The MED blocked ${contested} cents of charge ${row.charge_id}: it cannot return more.`,
      );
    }
    const payment =
      returned > 0 ? await capturedPaymentOf(ctx.container, captureSessionOf(row)) : undefined;
    const note =
      returned > 0
        ? `Devolvido pelo MED, protocolo ${row.med_protocol}`
        : `Mantido após o MED, protocolo ${row.med_protocol}`;
    // The outcome's timeline entry names Medusa's order transaction of the return.
    let outcomeId = "";
    const moved = await ctx.db.transaction(async (trx) => {
      const records = recordsOf(trx);
      const after = await records.ledger.endContest(
        row.charge_id,
        {
          returnedCents: returned,
          keptCents: contested - returned,
          medusaRef: payment ?? null,
          note,
        },
        "admin",
      );
      if (!after) {
        throw new PixCheckoutError(
          "collection_busy",
          "This charge's money moved while the MED's outcome was recorded; nothing was recorded. Try again.",
        );
      }
      outcomeId = await records.events.add({
        chargeId: row.charge_id,
        kind: returned > 0 ? "med_returned" : "med_kept",
        source: "admin",
        detail: {
          amount_cents: returned,
          kept_cents: contested - returned,
          protocol: row.med_protocol,
          medusa_cents: payment ? returned : 0,
        },
      });
      return after;
    });
    ctx.logger.info(
      `the MED of charge ${row.charge_id} ended: ${returned} cents returned by the MED, ${contested - returned} kept`,
    );
    return { row: moved, returned, kept: contested - returned, payment, note, outcomeId };
  });
  let recorded = 0;
  if (ended.payment && ended.returned > 0) {
    try {
      await recordRefundInMedusa(ctx.container, {
        paymentId: ended.payment,
        amountCents: ended.returned,
        referenceId: ended.outcomeId,
        note: ended.note,
      });
      recorded = ended.returned;
    } catch (error) {
      // The return stands (the MED did take the money); Medusa's record can be retried.
      ctx.logger.warn(
        `the MED's return of charge ${charge.charge_id} is recorded but Medusa could not record it: ${redact((error as Error).message)}`,
      );
    }
  }
  // Money back in `captured` is decided like any captured money (an order canceled meanwhile).
  if (ended.kept > 0) await settlePaid(ctx, ended.row, "admin");
  return {
    returned_cents: ended.returned,
    kept_cents: ended.kept,
    recorded_in_medusa_cents: recorded,
  };
}
