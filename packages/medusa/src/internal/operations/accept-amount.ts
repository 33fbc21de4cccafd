import { PixCheckoutError } from "../platform/errors";
import type { ChargeRow } from "../records/charges";
import { withCollectionLock } from "../records/collection-locks";
import type { CaptureResult } from "../settlement/capture";
import type { SettleContext } from "../settlement/context";
import { settlePaid } from "../settlement/settle";

/**
 * The merchant accepts the smaller amount an underpaid charge brought ("Accept received
 * amount"): the charge stops being held and is captured for what arrived, never for the
 * code's amount, so the order shows what is still outstanding. The acceptance and the
 * merchant's note go on the timeline. Only a held charge can be accepted.
 */
export async function acceptReceivedAmount(
  ctx: SettleContext,
  charge: ChargeRow,
  note: string,
): Promise<{ row: ChargeRow; capture: CaptureResult }> {
  const key = charge.payment_collection_id ?? `charge:${charge.charge_id}`;
  const accepted = await withCollectionLock(ctx.db, key, async () => {
    // Held → capturable and the note resolved, in one statement.
    const moved = await ctx.records.charges.settle(
      charge.charge_id,
      ["held"],
      "capturable",
      "accepted",
      { resolution: note },
    );
    if (!moved) {
      throw new PixCheckoutError(
        "charge_not_held",
        `Charge ${charge.charge_id} is not held: only a paid charge that brought less than its code asked for can be accepted.`,
      );
    }
    await ctx.records.events.add({
      chargeId: charge.charge_id,
      kind: "amount_accepted",
      source: "admin",
      detail: {
        note,
        amount_cents: Number(moved.amount_cents),
        api_amount_cents: moved.api_amount_cents,
      },
    });
    return moved;
  });
  // Captured like any paid charge: the collection's one decision, under its lock again.
  const capture = await settlePaid(ctx, accepted, "admin");
  return { row: (await ctx.records.charges.byChargeId(charge.charge_id)) ?? accepted, capture };
}
