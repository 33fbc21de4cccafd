import type { MedusaSide } from "../medusa/collection-snapshot";
import type { ChargeRow } from "../records/charges";
import type { Records } from "../records/records";
import type { ChargeFacts, CollectionSnapshot } from "./decide";

/**
 * The facts `decide` reads of one charge row. `cartFailures`: for a captured charge still
 * waiting for its order, its failed cart completions (read from its timeline).
 */
export function factsOf(
  row: ChargeRow,
  cartFailures: { count: number; lastMessage: string | null } | null = null,
): ChargeFacts {
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
    capturedAt: date(row.captured_at),
    captureClaimed: row.capture_claimed_at !== null,
    orderHoldUntil: date(row.order_hold_until),
    cartCompletion: cartFailures
      ? { failures: cartFailures.count, lastMessage: cartFailures.lastMessage }
      : null,
  };
}

/**
 * One collection as every door sees it: the plugin's charges (one SQL read, plus the failed
 * cart completions of a captured charge still waiting for its order) and Medusa's side (read
 * once per lease: medusa/collection-snapshot.ts). Read under the collection's lease, so what is
 * decided from it holds while it is recorded.
 */
export async function readCollection(
  records: Records,
  paymentCollectionId: string,
  medusa: MedusaSide,
  cancelOrderOnExpiry: boolean,
): Promise<{ snapshot: CollectionSnapshot; rows: ChargeRow[] }> {
  const rows = await records.charges.ofCollection(paymentCollectionId);
  const charges = await Promise.all(
    rows.map(async (row) =>
      factsOf(
        row,
        row.captured_at && row.awaiting_order_since
          ? await records.events.cartFailures(row.charge_id)
          : null,
      ),
    ),
  );
  return {
    rows,
    snapshot: {
      charges,
      liveSessions: medusa.liveSessions,
      payments: medusa.payments,
      order: medusa.order,
      cartId: medusa.cartId,
      cancelOrderOnExpiry,
      now: new Date(),
    },
  };
}
