import { refundPaymentsWorkflow } from "@medusajs/medusa/core-flows";
import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import type { BigNumberInput } from "@medusajs/framework/types";
import { redact } from "@pix-checkout/client";
import type { ChargeRow } from "../records/charges";
import { captureSessionOf } from "../settlement/capture";
import { PixCheckoutError } from "../platform/errors";
import { fromCents } from "../platform/money";
import type { SettleContext } from "../settlement/context";
import { withCollectionLock } from "../records/collection-locks";
import { recordsOf } from "../records/records";

/** What recording a refund did. */
export interface RecordedRefund {
  /** Cents now recorded as refunded in Medusa (0 when Medusa holds no captured payment). */
  recorded_in_medusa_cents: number;
  /** True when this refund returned all of the charge's money and resolved its note. */
  resolved_flag: boolean;
}

/**
 * The merchant returned money to the shopper in the payment service's dashboard (the API has
 * no refund endpoint) and says so here. The declaration goes on the charge's timeline, Medusa
 * records the refund on the captured payment (the provider's `refundPayment` accepts exactly
 * what was declared, and refuses Medusa's own automatic refunds), and money now fully returned
 * stands `refunded`: a refund due or a held payment leaves "Needs attention".
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
  const alreadyDeclared = await ctx.records.events.sum(row.charge_id, "refund_declared");
  // What arrived is the most that can go back (an underpaid charge brought less than its code).
  const received = Number(row.api_amount_cents ?? row.amount_cents);
  if (alreadyDeclared + amountCents > received) {
    throw new PixCheckoutError(
      "invalid_refund",
      `At most ${received - alreadyDeclared} cents of charge ${row.charge_id} are left to refund.`,
    );
  }
  const total = alreadyDeclared + amountCents;
  // The declaration and where the money then stands are written together: all of it returned,
  // the charge stands `refunded` (it leaves "Needs attention" by its money, not by a flag), and
  // the note that asked for it is resolved.
  const returnedAll = total >= received;
  await ctx.db.transaction(async (trx) => {
    const records = recordsOf(trx);
    await records.events.declareRefund(row.charge_id, amountCents, note);
    if (!returnedAll) return;
    await records.charges.markRefunded(row.charge_id);
    if (row.flagged) {
      await records.charges.resolveFlag(row.charge_id, note);
      await records.events.add({
        chargeId: row.charge_id,
        kind: "flag_resolved",
        source: "admin",
        detail: { note },
      });
    }
  });
  let recorded = 0;
  const payment = await capturedPaymentOf(ctx, captureSessionOf(row));
  if (payment) {
    try {
      await refundPaymentsWorkflow(ctx.container).run({
        input: [{ payment_id: payment, amount: fromCents(amountCents) as BigNumberInput, note }],
      });
      recorded = amountCents;
    } catch (error) {
      // The declaration stands (the money did go back); Medusa's record can be retried.
      ctx.logger.warn(
        `the refund of charge ${row.charge_id} is declared but Medusa could not record it: ${redact((error as Error).message)}`,
      );
    }
  }
  return { recorded_in_medusa_cents: recorded, resolved_flag: returnedAll && row.flagged };
}

/** The id of Medusa's captured payment of a session, if there is one. */
async function capturedPaymentOf(
  ctx: SettleContext,
  sessionId: string,
): Promise<string | undefined> {
  const query = ctx.container.resolve(ContainerRegistrationKeys.QUERY);
  const { data } = await query.graph({
    entity: "payment",
    fields: ["id", "captured_at"],
    filters: { payment_session_id: sessionId },
  });
  const payment = (data as { id: string; captured_at: unknown }[]).find((p) => p.captured_at);
  return payment?.id;
}
