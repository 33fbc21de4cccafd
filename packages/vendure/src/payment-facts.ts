import type { Order, Payment, Refund } from "@vendure/core";
import { medCaseOf, type MedCase, type MedPaymentFacts } from "./med-case";
import type { OrderCodeFacts } from "./order-codes";
import type { OwedPart } from "./settlement-verdict";

// What a payment of ours says of itself, read from its row and metadata alone: the facts every
// service of the plugin decides by, kept in one place so each reads them the same way.

/** A payment this plugin made (its code's session id is in its metadata), not another handler's. */
export function isOurs(payment: Payment): boolean {
  const published = (payment.metadata as { public?: { sessionId?: unknown } } | null)?.public;
  return typeof published?.sessionId === "string";
}

/**
 * What a settled payment pays of its order, in integer cents: its amount less its refunds, owed
 * or made (Vendure's own count of what covers an order). Needs `payment.refunds` loaded.
 */
export function paysOfOrder(payment: Payment): number {
  const refunded = (payment.refunds ?? [])
    .filter((refund) => refund.state !== "Failed")
    .reduce((sum, refund) => sum + refund.total, 0);
  return payment.amount - refunded;
}

/**
 * What the order's payments other than `payment` settled of it, in integer cents. Needs the
 * order's `payments.refunds` loaded: an overpaid code's amount is what the bank paid, and its
 * refund the excess owed back.
 */
export function settledBesides(order: Order, payment: Payment): number {
  return (order.payments ?? [])
    .filter((other) => other.state === "Settled" && other.id !== payment.id)
    .reduce((sum, other) => sum + paysOfOrder(other), 0);
}

/** Which of the plugin's methods made this payment. */
export function methodOf(payment: Payment): "pix" | "boleto" {
  const published = (payment.metadata as { public?: { method?: unknown } } | null)?.public;
  return published?.method === "boleto" ? "boleto" : "pix";
}

/**
 * What the code asked for, in integer cents: the payment's amount, unless the bank paid another
 * amount and the payment became what it received (`metadata.askedCents`, settlement-verdict.ts).
 */
export function askedOf(payment: Payment): number {
  const asked = (payment.metadata as { askedCents?: unknown } | null)?.askedCents;
  return typeof asked === "number" ? asked : payment.amount;
}

/**
 * What settling the payment owed back at once (its refunds marked with `owedReason`: more than
 * the code asked, or than the order still asked), whether returned since or not; null for none.
 * The larger part's reason names the whole.
 */
export function owedAtSettleOf(payment: Payment): OwedPart | null {
  const parts = (payment.refunds ?? []).flatMap((refund): OwedPart[] => {
    const reason = (refund.metadata as { owedReason?: unknown } | null)?.owedReason;
    return reason === "overpaid" || reason === "amount_lowered"
      ? [{ cents: refund.total, reason }]
      : [];
  });
  if (parts.length === 0) return null;
  const largest = parts.reduce((a, b) => (b.cents > a.cents ? b : a));
  return { cents: parts.reduce((sum, part) => sum + part.cents, 0), reason: largest.reason };
}

/**
 * When the payment settled: `metadata.settledAt`, written with the settlement (the row's
 * `updatedAt` moves again with a refund or a note). For a settled row from before that field,
 * its `updatedAt`; null for a payment not settled. What the shopper's `paid_at`, the devolução
 * clock and the books read.
 */
export function settledAtOf(payment: Payment): string | null {
  const written = (payment.metadata as { settledAt?: unknown } | null)?.settledAt;
  if (typeof written === "string") return written;
  return payment.state === "Settled" ? payment.updatedAt.toISOString() : null;
}

/** A code's due date (a boleto's) or expiry (a Pix's), as the service gave it. */
export function dueOf(payment: Payment): string | null {
  return stringOrNull(
    (payment.metadata as { public?: { expiresAt?: unknown } } | null)?.public?.expiresAt,
  );
}

/** The shopper replaced this code before it was paid (`replaceCode`). */
export function isReplaced(payment: Payment): boolean {
  return typeof (payment.metadata as { replacedAt?: unknown } | null)?.replacedAt === "string";
}

/** Its money settled nothing and is listed for the merchant (`hold`). */
export function heldOf(payment: Payment): boolean {
  return !!(payment.metadata as { held?: unknown } | null)?.held;
}

/**
 * A held payment's record (`metadata.held`), its gaps filled as the lists always filled them:
 * what the bank paid (else the code's amount), when (else the payment's last change), and the
 * return the merchant recorded, or null. Null for a payment not held.
 */
export function heldRecordOf(payment: Payment): HeldRecord | null {
  const held = (payment.metadata as { held?: unknown } | null)?.held as
    | {
        why?: string;
        receivedCents?: number;
        at?: string;
        returned?: { reference?: string; at?: string };
        returnedParts?: { reference?: string; at?: string; cents?: number }[];
      }
    | undefined;
  if (!held) return null;
  const at = held.at ?? payment.updatedAt.toISOString();
  return {
    why: held.why ?? "",
    receivedCents: held.receivedCents ?? payment.amount,
    at,
    returned: held.returned
      ? { reference: held.returned.reference ?? "", at: held.returned.at ?? at }
      : null,
    returnedParts: (Array.isArray(held.returnedParts) ? held.returnedParts : []).map((part) => ({
      reference: part.reference ?? "",
      at: part.at ?? at,
      cents: typeof part.cents === "number" ? part.cents : 0,
    })),
  };
}

export type HeldRecord = NonNullable<OrderCodeFacts["held"]> & {
  returnedParts: { reference: string; at: string; cents: number }[];
};

/** What a held code's parts returned before the rest came to (a MED's, in part). */
export function partsReturned(held: HeldRecord): number {
  return held.returnedParts.reduce((sum, part) => sum + part.cents, 0);
}

/** What was recorded returned of a held code: all it received once closed, else its parts. */
export function heldReturnedCents(held: HeldRecord): number {
  return held.returned ? held.receivedCents : partsReturned(held);
}

/** The payment's latest MED case (`metadata.med`), or null. */
export function medOf(payment: Payment): MedCase | null {
  return medCaseOf((payment.metadata as { med?: unknown } | null)?.med);
}

/** What the MED rule reads of a payment: its money, its refunds oldest first, its case. */
export function medFactsOf(payment: Payment): MedPaymentFacts {
  const held = heldRecordOf(payment);
  return {
    method: methodOf(payment),
    state: payment.state,
    amountCents: payment.amount,
    held: held && { receivedCents: held.receivedCents, returnedCents: heldReturnedCents(held) },
    refunds: refundsOldestFirst(payment).map((refund) => ({
      id: refund.id,
      state: refund.state,
      cents: refund.total,
    })),
    med: medOf(payment),
  };
}

export function refundsOldestFirst(payment: Payment): Refund[] {
  return [...(payment.refunds ?? [])].sort(
    (a, b) =>
      a.createdAt.getTime() - b.createdAt.getTime() || String(a.id).localeCompare(String(b.id)),
  );
}

export const idsEqual = (a: string | number, b: string | number) => String(a) === String(b);

export function uniqueById<T extends { id: string | number }>(items: readonly T[]): T[] {
  const seen = new Map<string, T>();
  for (const item of items) if (!seen.has(String(item.id))) seen.set(String(item.id), item);
  return [...seen.values()];
}

/**
 * How long after a replaced code's expiry, or an overdue boleto's cancellation, the bank may
 * still pay or confirm it: a boleto paid on its due day is confirmed up to three business days
 * later; a Pix, at once.
 */
export const REPLACED_GRACE_MS = 5 * 24 * 60 * 60 * 1000;

/**
 * A code the plugin cancelled that the bank may still pay or confirm: reconciliation keeps
 * asking about it. A replaced code until five days after its expiry; an overdue boleto for
 * five days after its order was cancelled.
 */
export function stillPayable(payment: Payment, now: Date): boolean {
  const metadata = payment.metadata as {
    public?: { expiresAt?: unknown };
    overdueAt?: unknown;
  } | null;
  const from = isReplaced(payment) ? metadata?.public?.expiresAt : metadata?.overdueAt;
  return typeof from !== "string" || Date.parse(from) + REPLACED_GRACE_MS > now.getTime();
}

/** Cancelled by the plugin, its money still possible: replaced, or an overdue boleto. */
export function endedByUs(payment: Payment): boolean {
  return (
    isReplaced(payment) ||
    typeof (payment.metadata as { overdueAt?: unknown } | null)?.overdueAt === "string"
  );
}

export const stringOrNull = (value: unknown): string | null =>
  typeof value === "string" ? value : null;
