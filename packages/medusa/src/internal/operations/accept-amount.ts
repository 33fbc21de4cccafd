import { PixCheckoutError } from "../platform/errors";
import type { ChargeRow } from "../records/charges";
import { withCollectionLock } from "../records/collection-locks";
import type { CaptureResult } from "../settlement/capture";
import type { SettleContext } from "../settlement/context";
import { settlePaid } from "../settlement/settle";

/**
 * The merchant accepts the smaller amount an underpaid charge brought ("Accept received
 * amount"): the money held for their decision is held for Medusa's capture instead, with their
 * note resolved, in one statement (Ledger.accept), and it is captured for what arrived, never
 * for the code's amount: Medusa's payment is what arrived, captured whole, and the order shows
 * the rest outstanding (settlement/capture.ts). The acceptance and the note go on the timeline.
 * Only money held for the merchant can be accepted.
 */
export async function acceptReceivedAmount(
  ctx: SettleContext,
  charge: ChargeRow,
  note: string,
): Promise<{ row: ChargeRow; capture: CaptureResult }> {
  const key = charge.payment_collection_id ?? `charge:${charge.charge_id}`;
  const accepted = await withCollectionLock(ctx.db, key, async () => {
    const row = (await ctx.records.charges.byChargeId(charge.charge_id)) ?? charge;
    const moved =
      row.status === "paid" && row.held_reason === "underpaid"
        ? await ctx.records.ledger.accept(
            row.charge_id,
            Number(row.held_cents),
            "admin",
            ctx.records.notes.resolutionColumns(note),
          )
        : undefined;
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
