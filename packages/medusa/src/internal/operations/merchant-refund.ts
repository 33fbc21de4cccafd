import { refundPaymentsWorkflow } from "@medusajs/medusa/core-flows";
import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import type { BigNumberInput } from "@medusajs/framework/types";
import { redact } from "@pix-checkout/client";
import type { ChargeRow } from "../records/charge-store";
import { captureSessionOf } from "../settlement/capture";
import { PixCheckoutError } from "../platform/errors";
import { fromCents } from "../platform/money";
import type { SettleContext } from "../settlement/context";

/** What recording a refund did. */
export interface RecordedRefund {
  /** Cents now recorded as refunded in Medusa (0 when Medusa holds no captured payment). */
  recorded_in_medusa_cents: number;
  /** True when this refund settled the charge's "refund due" flag. */
  resolved_flag: boolean;
}

/**
 * The merchant returned money to the shopper in the payment service's dashboard (the API has
 * no refund endpoint) and says so here. The declaration goes on the charge's timeline, Medusa
 * records the refund on the captured payment (the provider's `refundPayment` accepts exactly
 * what was declared, and refuses Medusa's own automatic refunds), and a refund due that is now
 * fully returned leaves "Needs attention".
 */
export async function recordMerchantRefund(
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
  const alreadyDeclared = await ctx.store.sumEvents(row.charge_id, "refund_declared");
  if (alreadyDeclared + amountCents > Number(row.amount_cents)) {
    throw new PixCheckoutError(
      "invalid_refund",
      `At most ${Number(row.amount_cents) - alreadyDeclared} cents of charge ${row.charge_id} are left to refund.`,
    );
  }
  await ctx.store.declareRefund(row.charge_id, amountCents, note);
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
  const total = alreadyDeclared + amountCents;
  const due = row.flag_code === "refund_due" ? Number(row.flag_detail?.amount_cents ?? 0) : null;
  const resolved = row.flagged && due !== null && total >= due;
  if (resolved) {
    await ctx.store.resolveFlag(row.charge_id, note);
    await ctx.store.addEvent({
      chargeId: row.charge_id,
      kind: "flag_resolved",
      source: "admin",
      detail: { note },
    });
  }
  return { recorded_in_medusa_cents: recorded, resolved_flag: resolved };
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
