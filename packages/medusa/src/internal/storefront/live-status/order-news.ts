import type { StoreSessionView } from "../store-view";
import type { ChargeRow } from "../../records/charges";
import { CAPTURABLE_HELD, type HeldReason } from "../../records/ledger-parts";

/** Statuses after which a code's own news is over (the element stops listening at them too). */
const FINAL = new Set(["paid", "expired", "failed", "canceled", "refund_due"]);

/**
 * Whether a stream has told the shopper everything about this session, so it can end. A code's
 * payment is streamed the moment the ledger records it, before Medusa captures it and turns the
 * cart into an order: that first `paid` says the money arrived, with the order not paid yet (no
 * order, or `order.payment` `awaiting`). Medusa's order being paid is the next event, so a paid
 * code's stream stays open while the ledger says that news is on its way (`orderNewsComing`),
 * and ends at it, as does one whose order is canceled. Money held for the merchant (paid less
 * than asked) is `held`, which is not final: it waits on a person, so its stream lasts until it
 * is idle, and the element keeps asking until the store accepts it (`paid`) or returns it.
 */
export function streamIsDone(view: StoreSessionView, row?: ChargeRow): boolean {
  if (!FINAL.has(view.status)) return false;
  if (view.status !== "paid" || !row) return true;
  const payment = view.order?.payment;
  if (payment === "paid" || payment === "canceled") return true;
  return !orderNewsComing(row, payment === "awaiting");
}

/**
 * Whether settlement still has Medusa's side of a paid charge to do, by its ledger: its money is
 * on its way to Medusa (`paymentOnItsWay`), or it is captured and its order awaits the capture on
 * its transactions.
 */
function orderNewsComing(row: ChargeRow, orderAwaiting: boolean): boolean {
  const captured = Number(row.captured_cents) > 0;
  return paymentOnItsWay(row) || (Boolean(row.payment_collection_id) && captured && orderAwaiting);
}

/**
 * Whether a paid charge's money is still on its way to Medusa's order: to be captured (held,
 * awaiting the capture or accepted by the merchant), or its cart is to become an order. What the
 * order asks meanwhile is being paid by this code, not owed by the shopper.
 */
export function paymentOnItsWay(row: ChargeRow): boolean {
  if (!row.payment_collection_id) return false;
  // What settlement captures by itself, as the capture index reads it (records/ledger-parts.ts).
  const captureDue =
    Number(row.held_cents) > 0 && CAPTURABLE_HELD.includes(row.held_reason as HeldReason);
  return captureDue || Boolean(row.awaiting_order_since);
}
