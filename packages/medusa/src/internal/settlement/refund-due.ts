import type { ChargeRow } from "../records/charges";
import type { LifecycleSource } from "../records/charge-lifecycle";
import type { RefundReason } from "../records/flag-reasons";
import { orderOfCollection } from "../medusa/collection-links";
import type { SettleContext } from "./context";

/**
 * A paid charge no order can come of: it waits for the merchant as a refund due (the
 * settlement column), with a note saying why (the flag), and the shopper's page says so.
 * Idempotent: a charge already due a refund is left as it is.
 */
export async function markRefundDue(
  ctx: SettleContext,
  row: ChargeRow,
  reason: RefundReason,
  source: LifecycleSource,
): Promise<ChargeRow> {
  const moved = await ctx.records.charges.markRefundDue(row.charge_id, reason);
  if (!moved) return row;
  const order = await orderOfCollection(ctx.container, row.payment_collection_id);
  return (
    (await ctx.lifecycle.flag(
      row.charge_id,
      {
        code: "refund_due",
        reason,
        amount_cents: Number(row.api_amount_cents ?? row.amount_cents),
        order_id: order?.id ?? null,
      },
      source,
    )) ?? moved
  );
}
