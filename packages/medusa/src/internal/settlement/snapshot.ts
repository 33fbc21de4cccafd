import type { ConfigModule } from "@medusajs/framework/types";
import type { MedusaSide } from "../medusa/collection-snapshot";
import { isOurProviderId } from "../platform/provider-registry";
import type { ChargeRow } from "../records/charges";
import type { Records } from "../records/records";
import { moneyOf } from "../records/ledger";
import {
  collectionPaidBy,
  type ChargeFacts,
  type CollectionSnapshot,
  type MedusaPayment,
} from "./decide";

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
    amountCents: Number(row.amount_cents),
    money: moneyOf(row),
    paidAt: date(row.api_paid_at) ?? date(row.paid_at),
    superseded: row.superseded_at !== null,
    captureSessionId: row.capture_session_id,
    capturedAt: date(row.captured_at),
    captureClaimed: row.capture_claimed_at !== null,
    orderHoldUntil: date(row.order_hold_until),
    cartCompletion: cartFailures
      ? { failures: cartFailures.count, lastMessage: cartFailures.lastMessage }
      : null,
  };
}

/** Medusa's payments of a collection, each saying whether it is of this plugin's providers. */
export function paymentsOf(config: ConfigModule, medusa: MedusaSide): MedusaPayment[] {
  return medusa.payments.map((payment) => ({
    sessionId: payment.sessionId,
    ours: isOurProviderId(config, payment.providerId),
    captured: payment.captured,
    canceled: payment.canceled,
  }));
}

/**
 * Whether a collection is paid, and by which of its charge rows or another way (decide.ts
 * `collectionPaidBy`), for the doors that read it outside a decision (reminders, their pages).
 */
export function collectionPaidOf(
  config: ConfigModule,
  rows: readonly ChargeRow[],
  medusa: MedusaSide,
): { by: "charge"; row: ChargeRow } | { by: "elsewhere" } | null {
  const paid = collectionPaidBy(
    rows.map((row) => factsOf(row)),
    paymentsOf(config, medusa),
  );
  if (paid?.by !== "charge") return paid;
  return { by: "charge", row: rows.find((row) => row.charge_id === paid.charge.chargeId)! };
}

/**
 * What the collection asks, in cents; null when it pays for nothing: Medusa canceled it or holds
 * none, or no cart and no order owns it (the merchant deleted an order's collection, which
 * Medusa does by removing its link).
 */
export function asksOf(medusa: MedusaSide): number | null {
  if (!medusa.collection || medusa.collection.canceled) return null;
  if (!medusa.cartId && !medusa.order) return null;
  return medusa.collection.amountCents;
}

/**
 * One collection as every door sees it: the plugin's charges (one SQL read, plus the failed
 * cart completions of a captured charge still waiting for its order) and Medusa's side (read
 * once per lease: medusa/collection-snapshot.ts). Read under the collection's lease, so what is
 * decided from it holds while it is recorded.
 */
export async function readCollection(
  records: Records,
  config: ConfigModule,
  paymentCollectionId: string,
  medusa: MedusaSide,
  cancelOrderOnExpiry: boolean,
): Promise<{ snapshot: CollectionSnapshot; rows: ChargeRow[] }> {
  const rows = await records.charges.ofCollection(paymentCollectionId);
  const charges = await Promise.all(
    rows.map(async (row) =>
      factsOf(
        row,
        Number(row.captured_cents) > 0 && row.awaiting_order_since
          ? await records.events.cartFailures(row.charge_id)
          : null,
      ),
    ),
  );
  return {
    rows,
    snapshot: {
      charges,
      liveSessions: medusa.liveSessions.map((session) => ({
        id: session.id,
        amountCents: session.amountCents,
        ours: isOurProviderId(config, session.providerId),
      })),
      payments: paymentsOf(config, medusa),
      order: medusa.order,
      cartId: medusa.cartId,
      asksCents: asksOf(medusa),
      cancelOrderOnExpiry,
      now: new Date(),
    },
  };
}
