import { chargeEventData, type ChargeEventData } from "../records/charge-lifecycle";
import type { ChargeRow } from "../records/charges";
import type { FlagReason } from "../records/flag-reasons";
import { moneyOf } from "../records/ledger-parts";
import { rowCountsAsPayment } from "../settlement/decide";

// When "Vamos devolver R$ 14,90" may go out (issue #69, item 7). At checkout a second code of a
// cart can be paid while the first one's money is on its way to make the cart an order: its
// money is owed back at once, before Medusa has an order, so the message named no order and
// reached the shopper before "Recebemos seu pedido #4". Such a notice is held, not slept on:
// Medusa's order.placed is the moment the order exists, and the notification subscriber's
// order.placed path sends the order's message and then the notices held for it (openRefundNotes),
// each naming the order. Nothing is stored to remember a held notice: the charge's ledger (money
// owed) and its open `refund_due` note are that record, and the notice's idempotency key (the
// same as the flag event's) keeps a notice sent once from being sent again.

/**
 * Whether a refund notice about a collection's money waits for its order: the collection is a
 * cart's that is no order yet, and one of its charges is the payment the cart becomes an order
 * with (captured, or held for Medusa's capture), so order.placed follows. A cart nothing pays
 * (every code owed back, or none paid) becomes no order by this money: its notices go now, and
 * say there is no order.
 */
export function refundWaitsForOrder(
  owner: { cartId?: string; order?: unknown },
  rows: readonly ChargeRow[],
): boolean {
  return Boolean(owner.cartId) && !owner.order && rows.some(rowCountsAsPayment);
}

/**
 * The refund-due notes of a collection's charges whose money is still owed back, as the
 * `pix_checkout.charge.flagged` data that announced them: the notices a held refund (above)
 * is sent from once it may go. A note the merchant resolved, or money already returned, is no
 * news to send.
 */
export function openRefundNotes(
  rows: readonly ChargeRow[],
  source: ChargeEventData["source"],
): ChargeEventData[] {
  return rows
    .filter(
      (row) => row.flag_code === "refund_due" && !row.flag_resolved_at && moneyOf(row).owed > 0,
    )
    .map((row) =>
      chargeEventData(row, source, {
        flag: { code: "refund_due", ...(row.flag_detail ?? {}) } as FlagReason,
      }),
    );
}
