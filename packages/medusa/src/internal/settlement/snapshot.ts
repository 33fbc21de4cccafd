import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { readMedusaSide } from "../medusa/collection-snapshot";
import type { ChargeRow, Charges } from "../records/charges";
import type { ChargeFacts, CollectionSnapshot } from "./decide";

/** The facts `decide` reads of one charge row. */
export function factsOf(row: ChargeRow): ChargeFacts {
  const date = (value: Date | string | null) => (value === null ? null : new Date(value));
  return {
    chargeId: row.charge_id,
    sessionId: row.session_id,
    status: row.status,
    settlement: row.settlement,
    settlementReason: row.settlement_reason,
    amountCents: Number(row.amount_cents),
    apiAmountCents: row.api_amount_cents === null ? null : Number(row.api_amount_cents),
    paidAt: date(row.api_paid_at) ?? date(row.paid_at),
    superseded: row.superseded_at !== null,
    captureSessionId: row.capture_session_id,
    captured: row.captured_at !== null,
    captureClaimed: row.capture_claimed_at !== null,
    orderHoldUntil: date(row.order_hold_until),
  };
}

/**
 * One collection as every door sees it: the plugin's charges (one SQL read) and Medusa's side
 * (one read of Medusa's tables). Read under the collection's lock, so what is decided from it holds while
 * it is acted on.
 */
export async function readSnapshot(
  db: Knex,
  charges: Charges,
  paymentCollectionId: string,
  cancelOrderOnExpiry: boolean,
): Promise<{ snapshot: CollectionSnapshot; rows: ChargeRow[]; cartId: string | null }> {
  const [rows, medusa] = await Promise.all([
    charges.ofCollection(paymentCollectionId),
    readMedusaSide(db, paymentCollectionId),
  ]);
  return {
    rows,
    cartId: medusa.cartId,
    snapshot: {
      charges: rows.map(factsOf),
      liveSessions: medusa.liveSessions,
      payments: medusa.payments,
      order: medusa.order,
      cancelOrderOnExpiry,
      now: new Date(),
    },
  };
}
