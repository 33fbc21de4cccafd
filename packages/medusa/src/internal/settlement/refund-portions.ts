import type { ChargeMoney, LedgerPart } from "../records/ledger-parts";

/*
 * Where a refund the merchant records is written, once, for the route that records it and the
 * admin's drawer that says so before: money Medusa captured is refunded on Medusa's payment (the
 * order's refunds), money Medusa never captured (a replaced code's, an overpayment's excess, an
 * underpaid amount held for the merchant) only in the plugin's ledger. Pure and without imports
 * of Medusa, so the admin's bundle loads it too.
 */

/** Why money Medusa never captured is the plugin's alone: the owed reason, or `underpaid`. */
export type OutsideWhy = string;

/**
 * One part of a paid charge's money a refund can take, in the order refunds take them (owed
 * money first: that is what a refund is for).
 */
export interface RefundPortion {
  /** The ledger part it comes out of. */
  from: Extract<LedgerPart, "owed" | "held" | "captured">;
  /** Integer cents. */
  cents: number;
  /** Medusa holds this money captured: a refund of it is recorded on Medusa's payment too. */
  in_medusa: boolean;
  /**
   * Why it is where it is: the owed money's reason (`paid_replaced`, `order_canceled`, ...),
   * `underpaid` for money held for the merchant, null for the order's captured money.
   */
  why: OutsideWhy | null;
}

/**
 * The portions of a charge's money a merchant's refund can return, in the order it takes them:
 * owed money Medusa never held (a code paid twice, an overpayment's excess), owed money Medusa
 * holds captured (`owedInMedusa`: an order canceled after its capture), money held for the
 * merchant's decision (an underpaid amount; never money Medusa's capture is taking), then the
 * order's captured money (a refund after the sale). Owed money an open MED blocked is left out
 * (its outcome settles it). Empty portions are left out.
 */
export function refundPortions(money: ChargeMoney, owedInMedusa: number): RefundPortion[] {
  const inMedusa = Math.min(Math.max(owedInMedusa, 0), money.owed);
  // Owed money an open MED blocked is the case's: its outcome settles it, never a refund. The
  // block took the owed money Medusa never held first (`@pix-checkout/client/med`, the same order).
  const blocked = Math.min(Math.max(money.medBlockedOwed ?? 0, 0), money.owed);
  const owedOutside = Math.max(0, money.owed - inMedusa - blocked);
  const owedInMedusaFree = money.owed - blocked - owedOutside;
  const held = money.heldReason === "underpaid" ? money.held : 0;
  const portions: RefundPortion[] = [
    { from: "owed", cents: owedOutside, in_medusa: false, why: money.owedReason },
    { from: "owed", cents: owedInMedusaFree, in_medusa: true, why: money.owedReason },
    { from: "held", cents: held, in_medusa: false, why: "underpaid" },
    { from: "captured", cents: money.captured, in_medusa: true, why: null },
  ];
  return portions.filter((portion) => portion.cents > 0);
}

/** The most a refund can return: every portion, together. */
export function refundableCents(portions: readonly RefundPortion[]): number {
  return portions.reduce((sum, portion) => sum + portion.cents, 0);
}

/** What a refund of some amount takes of each portion. */
export interface RefundTake {
  from: RefundPortion["from"];
  amountCents: number;
  inMedusa: boolean;
  why: OutsideWhy | null;
}

/** A refund of an amount, split over the portions it takes. */
export interface RefundSplit {
  takes: RefundTake[];
  /** Of the amount, what Medusa holds captured: recorded as a refund on Medusa's payment. */
  medusaCents: number;
  /** Of the amount, what Medusa never captured: recorded in the plugin's ledger only. */
  ledgerOnlyCents: number;
}

/**
 * Splits a refund of `amountCents` over `portions`, taking each in turn. Undefined when the
 * portions hold less (nothing is recorded then) or the amount is not positive whole cents.
 */
export function splitRefund(
  portions: readonly RefundPortion[],
  amountCents: number,
): RefundSplit | undefined {
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) return undefined;
  const takes: RefundTake[] = [];
  let left = amountCents;
  for (const portion of portions) {
    const take = Math.min(left, portion.cents);
    if (take > 0) {
      takes.push({
        from: portion.from,
        amountCents: take,
        inMedusa: portion.in_medusa,
        why: portion.why,
      });
    }
    left -= take;
  }
  if (left > 0) return undefined;
  const medusaCents = takes.filter((t) => t.inMedusa).reduce((sum, t) => sum + t.amountCents, 0);
  return { takes, medusaCents, ledgerOnlyCents: amountCents - medusaCents };
}
