import type { ConfigModule } from "@medusajs/framework/types";
import type { MedusaSide } from "../medusa/collection-snapshot";
import { isOurProviderId } from "../platform/provider-registry";
import type { CaptureEntry, DecisionRow } from "../records/collection-money";
import type { Records } from "../records/records";
import { moneyOf } from "../records/ledger-parts";
import {
  collectionPaidBy,
  coverageOf,
  stageOf,
  type ChargeFacts,
  type CollectionSnapshot,
  type MedusaPayment,
} from "./decide";

/**
 * The facts `decide` reads of one charge row. `cartFailures`: for a captured charge still
 * waiting for its order, its failed cart completions (read from its timeline).
 */
export function factsOf(
  row: DecisionRow,
  cartFailures: { count: number; lastMessage: string | null } | null = null,
): ChargeFacts {
  const date = (value: Date | string | null) => (value === null ? null : new Date(value));
  return {
    chargeId: row.charge_id,
    sessionId: row.session_id,
    providerId: row.provider_id,
    status: row.status,
    amountCents: Number(row.amount_cents),
    money: moneyOf(row),
    everCapturedCents: Number(row.ever_captured_cents),
    paidAt: date(row.api_paid_at) ?? date(row.paid_at),
    superseded: row.superseded_at !== null,
    captureSessionId: row.capture_session_id,
    capturedAt: date(row.captured_at),
    captureClaimed: row.claim_live,
    orderHoldUntil: date(row.order_hold_until),
    cartCompletion: cartFailures
      ? { failures: cartFailures.count, lastMessage: cartFailures.lastMessage }
      : null,
  };
}

/**
 * Medusa's payments of a collection, each saying whether it is of this plugin's providers, and
 * each of its captures whether the ledger records it: an entry names its id, or (recorded before
 * entries named captures) an entry of a charge captured on that session named none, and stands
 * for one of its captures.
 */
export function paymentsOf(
  config: ConfigModule,
  medusa: MedusaSide,
  rows: readonly DecisionRow[],
  entries: readonly CaptureEntry[],
): MedusaPayment[] {
  const named = new Set(entries.flatMap((e) => (e.medusaRef ? [e.medusaRef] : [])));
  const unnamedBySession = new Map<string, number>();
  for (const entry of entries) {
    if (entry.medusaRef) continue;
    const row = rows.find((r) => r.charge_id === entry.chargeId);
    if (!row) continue;
    const session = row.capture_session_id ?? row.session_id;
    unnamedBySession.set(session, (unnamedBySession.get(session) ?? 0) + 1);
  }
  return medusa.payments.map((payment) => {
    let unnamed = unnamedBySession.get(payment.sessionId) ?? 0;
    const captures = payment.captures.map((capture) => {
      if (named.has(capture.id)) return { ...capture, recorded: true };
      if (unnamed > 0) {
        unnamed -= 1;
        return { ...capture, recorded: true };
      }
      return { ...capture, recorded: false };
    });
    unnamedBySession.set(payment.sessionId, unnamed);
    return {
      sessionId: payment.sessionId,
      ours: isOurProviderId(config, payment.providerId),
      captured: payment.captured,
      canceled: payment.canceled,
      captures,
    };
  });
}

/**
 * Whether a collection is paid, and by which of its charge rows or another way (decide.ts
 * `collectionPaidBy`), for the doors that read it outside a decision (reminders, their pages,
 * the order's view).
 */
export async function collectionPaidOf(
  records: Records,
  config: ConfigModule,
  paymentCollectionId: string,
  medusa: MedusaSide,
): Promise<{ by: "charge"; row: DecisionRow } | { by: "elsewhere" } | null> {
  const { rows, captures } = await records.collectionMoney.ofCollection(paymentCollectionId);
  const paid = collectionPaidBy(
    rows.map((row) => factsOf(row)),
    paymentsOf(config, medusa, rows, captures),
    asksOf(medusa),
    stageOf(medusa),
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
 * One collection as every door sees it: the plugin's charges with their ledger facts (one SQL
 * read, plus the failed cart completions of a captured charge still waiting for its order) and
 * Medusa's side (read once per lease: medusa/collection-snapshot.ts). Read under the
 * collection's lease, so what is decided from it holds while it is recorded.
 */
export async function readCollection(
  records: Records,
  config: ConfigModule,
  paymentCollectionId: string,
  medusa: MedusaSide,
  cancelOrderOnExpiry: boolean,
): Promise<{ snapshot: CollectionSnapshot; rows: DecisionRow[] }> {
  const { rows, captures } = await records.collectionMoney.ofCollection(paymentCollectionId);
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
        providerId: session.providerId,
        amountCents: session.amountCents,
        ours: isOurProviderId(config, session.providerId),
      })),
      payments: paymentsOf(config, medusa, rows, captures),
      order: medusa.order,
      cartId: medusa.cartId,
      asksCents: asksOf(medusa),
      cancelOrderOnExpiry,
      now: new Date(),
    },
  };
}

/** Where a collection stands for a new code: paid, held for the merchant, or what it still asks. */
export interface CollectionStanding {
  /** Paid in full: by its charges, or another way; null while something is left to pay. */
  paid: "charge" | "elsewhere" | null;
  /** Money of one of its charges waits for the merchant (underpaid): no new code meanwhile. */
  heldForMerchant: boolean;
  /** What its charges paid of it, in cents. */
  paidCents: number;
  /** What a new code asks, in cents; null when the collection pays for nothing. */
  remainingCents: number | null;
  /** The collection is an order's, or its cart's became one. */
  hasOrder: boolean;
}

/**
 * Where a collection stands for a new code (decide.ts `coverageOf`, `collectionPaidBy`): what a
 * session request of it may ask for (what its charges have not paid yet), or why it may not.
 */
export async function collectionStanding(
  records: Records,
  config: ConfigModule,
  paymentCollectionId: string,
  medusa: MedusaSide,
): Promise<CollectionStanding> {
  const { rows, captures } = await records.collectionMoney.ofCollection(paymentCollectionId);
  const charges = rows.map((row) => factsOf(row));
  const asks = asksOf(medusa);
  const stage = stageOf(medusa);
  const paid = collectionPaidBy(charges, paymentsOf(config, medusa, rows, captures), asks, stage);
  const coverage = coverageOf(charges, asks, stage);
  return {
    paid: paid?.by === "charge" ? "charge" : paid ? "elsewhere" : null,
    heldForMerchant: rows.some((row) => row.status === "paid" && row.held_reason === "underpaid"),
    paidCents: coverage.paidCents,
    remainingCents: asks === null ? null : coverage.remainingCents,
    hasOrder: medusa.order !== null,
  };
}

/**
 * What a new code of the collection asks, in cents: the session's amount, never more than what
 * the collection still asks: once its charges paid part of it (an order edited up after its
 * code was paid), the rest, so the same payment link collects it.
 */
export function newCodeCents(standing: CollectionStanding, sessionCents: number): number {
  if (standing.remainingCents !== null && standing.remainingCents > 0) {
    return Math.min(sessionCents, standing.remainingCents);
  }
  return sessionCents;
}
