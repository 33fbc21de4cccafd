import { recordRefundInMedusa } from "../medusa/refund-record";
import { redact } from "@pix-checkout/client";
import type { ChargeRow } from "../records/charges";
import { medBlockedOwedOf, moneyOf } from "../records/ledger-parts";
import { withCollectionLock } from "../records/collection-locks";
import { recordsOf } from "../records/records";
import { capturedPaymentOf } from "../medusa/payments";
import { captureSessionOf } from "../settlement/session-answer";
import type { SettleContext } from "../settlement/context";
import { settlePaid } from "../settlement/settle";
import { PixCheckoutError } from "../platform/errors";
import { blockedOwedOnOrderOf, medBlockOf, medOutcomeSplit } from "@pix-checkout/client/med";

/*
 * Pix returned by the MED (Mecanismo Especial de Devolução; docs/ledger.md "Pix returned by the
 * MED"). The payment service's API says nothing of a notificação de infração: the merchant hears
 * of it from the service and marks it here. The block (bloqueio cautelar) falls first on money
 * the store already owes back, which stays `owed` and is the case's (no devolução clock and no
 * refund asks for it while the case is open), then on captured money, which moves to
 * `contested`. The outcome settles the blocked owed money first (`owed` → `returned`), then
 * returns the contested money (`returned`, recorded as a refund of Medusa's order) and gives the
 * rest back (`captured`); Mantido leaves the owed money owed. The rules are @pix-checkout/client/med's, which
 * the admin's drawer reads too. Each move is one statement of the ledger with the case's
 * columns, under the collection's lock.
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

/** What recording an outcome did, in integer cents (@pix-checkout/client/med `MedOutcomeSplit`). */
export interface RecordedMedOutcome {
  /** What the MED returned. */
  returned_cents: number;
  /** Contested money the MED did not return: captured again, income again. */
  kept_cents: number;
  /** Of `returned_cents`, the owed money it settled (the pending devolução, quitada). */
  owed_settled_cents: number;
  /** Blocked owed money the MED did not return: still owed back, its clock running again. */
  still_owed_cents: number;
  /** Of `returned_cents`, what Medusa recorded as a refund of the order. */
  recorded_in_medusa_cents: number;
  /** Of `returned_cents`, what only the plugin's ledger records (money Medusa never captured). */
  ledger_only_cents: number;
}

const lockKey = (charge: ChargeRow) => charge.payment_collection_id ?? `charge:${charge.charge_id}`;

/**
 * A MED blocked `amountCents` of a paid charge: owed money first (it stays owed, the case's),
 * then captured money, which moves to `contested` (@pix-checkout/client/med `medBlockOf`); the charge's case
 * opens (protocol, deadline), in one statement, with a line on its timeline. Refused (409) for a
 * boleto (the MED is Pix's), when a case is open, when the charge has nothing owed or captured, when the block needs captured
 * money of a cart that is no order yet, and when the amount is more than both hold.
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
    if (row.method !== "pix") {
      // The MED (Mecanismo Especial de Devolução) is the Pix system's: a boleto has none.
      throw new PixCheckoutError(
        "med_not_contestable",
        `Charge ${row.charge_id} is a ${row.method}: the MED applies only to Pix.`,
      );
    }
    const money = moneyOf(row);
    if (row.status !== "paid" || money.captured + money.owed === 0) {
      throw new PixCheckoutError(
        "med_not_contestable",
        `Charge ${row.charge_id} has no money captured for an order nor owed back: a MED can block only those.`,
      );
    }
    const block = medBlockOf(money, mark.amountCents);
    if (!block) {
      throw new PixCheckoutError(
        "med_amount_exceeds_captured",
        `At most ${money.owed + money.captured} cents of charge ${row.charge_id} are owed back or captured: the MED cannot block more.`,
      );
    }
    if (block.capturedCents > 0 && row.awaiting_order_since) {
      throw new PixCheckoutError(
        "med_not_contestable",
        `Charge ${row.charge_id} is captured but its cart is not an order yet: re-check it first, then mark the MED.`,
      );
    }
    const marked = await ctx.db.transaction(async (trx) => {
      const records = recordsOf(trx);
      const moved = await records.ledger.contest(
        row.charge_id,
        block,
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
          owed_cents: block.owedCents,
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
 * The MED of a charge ended (@pix-checkout/client/med `medOutcomeSplit`). Mantido: the contested money is
 * the store's again (`contested` → `captured`) and the blocked owed money is owed again, its
 * devolução clock running. Devolvido pelo MED: what the MED returned settles the blocked owed
 * money first (`owed` → `returned`), then the contested money (`contested` → `returned`, naming
 * Medusa's payment), the rest of the contested money back to `captured`, in one statement; then
 * Medusa records as a refund of the order what of it Medusa held captured (the provider's
 * refundPayment accepts exactly what the ledger returned, once); owed money Medusa never
 * captured is the ledger's only. Refused with 409 `med_not_open` when no case is open (a second
 * outcome moves nothing). Captured money the outcome gave back goes through the collection's
 * decision again (an order canceled meanwhile owes it back).
 */
export async function recordMedOutcome(
  ctx: SettleContext,
  charge: ChargeRow,
  outcome: MedOutcome,
): Promise<RecordedMedOutcome> {
  const ended = await withCollectionLock(ctx.db, lockKey(charge), async () => {
    const row = (await ctx.records.charges.byChargeId(charge.charge_id)) ?? charge;
    const money = moneyOf(row);
    const blockedOwed = medBlockedOwedOf(row);
    if (row.med_state !== "open" || money.contested + blockedOwed === 0) {
      throw new PixCheckoutError(
        "med_not_open",
        `Charge ${row.charge_id} has no open MED: its outcome was recorded already, or none was marked.`,
      );
    }
    const blocked = blockedOwed + money.contested;
    const returned = outcome.outcome === "kept" ? 0 : (outcome.amountCents ?? blocked);
    const owedInMedusa = blockedOwed > 0 ? await ctx.records.ledger.owedInMedusa(row.charge_id) : 0;
    const split = medOutcomeSplit(
      {
        blockedOwed,
        blockedOwedOnOrder: blockedOwedOnOrderOf(money.owed, owedInMedusa, blockedOwed),
        contested: money.contested,
      },
      returned,
    );
    if (!split) {
      throw new PixCheckoutError(
        "med_amount_exceeds_captured",
        `The MED blocked ${blocked} cents of charge ${row.charge_id}: it cannot return more.`,
      );
    }
    const payment =
      split.recordedOnOrder > 0
        ? await capturedPaymentOf(ctx.container, captureSessionOf(row))
        : undefined;
    const note =
      returned > 0
        ? `Devolvido pelo MED, protocolo ${row.med_protocol}`
        : `Mantido após o MED, protocolo ${row.med_protocol}`;
    const medusaCents = payment ? split.recordedOnOrder : 0;
    // The outcome's timeline entry names Medusa's order transaction of the return.
    let outcomeId = "";
    const moved = await ctx.db.transaction(async (trx) => {
      const records = recordsOf(trx);
      const after = await records.ledger.endContest(
        row.charge_id,
        {
          owedSettledCents: split.owedSettled,
          owedSettledOnOrderCents: split.owedSettledOnOrder,
          returnedCents: split.refundedOnOrder,
          keptCents: split.incomeAgain,
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
          kept_cents: split.incomeAgain,
          owed_settled_cents: split.owedSettled,
          still_owed_cents: split.stillOwed,
          protocol: row.med_protocol,
          medusa_cents: medusaCents,
        },
      });
      return after;
    });
    ctx.logger.info(
      `the MED of charge ${row.charge_id} ended: ${returned} cents returned by the MED (${split.owedSettled} of them owed already), ${split.incomeAgain} kept, ${split.stillOwed} still owed`,
    );
    return { row: moved, split, payment, medusaCents, note, outcomeId };
  });
  let recorded = 0;
  if (ended.payment && ended.medusaCents > 0) {
    try {
      await recordRefundInMedusa(ctx.container, {
        paymentId: ended.payment,
        amountCents: ended.medusaCents,
        referenceId: ended.outcomeId,
        note: ended.note,
      });
      recorded = ended.medusaCents;
    } catch (error) {
      // The return stands (the MED did take the money); Medusa's record can be retried.
      ctx.logger.warn(
        `the MED's return of charge ${charge.charge_id} is recorded but Medusa could not record it: ${redact((error as Error).message)}`,
      );
    }
  }
  // Money back in `captured` is decided like any captured money (an order canceled meanwhile).
  if (ended.split.incomeAgain > 0) await settlePaid(ctx, ended.row, "admin");
  return {
    returned_cents: ended.split.returned,
    kept_cents: ended.split.incomeAgain,
    owed_settled_cents: ended.split.owedSettled,
    still_owed_cents: ended.split.stillOwed,
    recorded_in_medusa_cents: recorded,
    ledger_only_cents: ended.split.returned - ended.medusaCents,
  };
}
