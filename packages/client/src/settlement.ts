/*
 * What a paid code's money becomes, once (`@pix-checkout/client/settlement`), for both plugins:
 * the Medusa plugin's `decide` (its ledger of a cart's collection) and the Vendure plugin's
 * settlement verdict (Vendure's payments of an order). Pure and without imports. "The order"
 * below is what the code pays for: Medusa's payment collection, Vendure's order.
 *
 * Two rules, each the same on both platforms:
 *
 * 1. A code pays at most what it asked for. Less than that is held for the merchant's decision
 *    (accept it for the order, or give it back); more pays what was asked, and the excess is
 *    owed back (`overpaid`).
 * 2. The order takes at most what it still asks. A code that finds it paid already pays nothing
 *    (`paid_twice`); one that finds it asking less than the code brings pays what is asked, and
 *    the rest is owed back (`amount_lowered`). The order's total is never passed.
 *
 * Everything the platform knows (whose session, which state, replaced, canceled) is decided by
 * the plugin before these; these only say how the amounts split, to the cent.
 */

/** How a paid code's money arrives, in integer cents: `received = forOrder + held + excess`. */
export interface Arrival {
  /** What may pay the order: what the code asked for (or nothing, when less arrived). */
  forOrderCents: number;
  /** Less than the code asked arrived: all of it, held for the merchant's decision. */
  heldCents: number;
  /** More than the code asked arrived: the excess, owed back (`overpaid`). */
  excessCents: number;
}

/** Rule 1: how `receivedCents` of a code that asked `askedCents` arrives. */
export function arrivalOf(askedCents: number, receivedCents: number): Arrival {
  if (receivedCents < askedCents) {
    return { forOrderCents: 0, heldCents: receivedCents, excessCents: 0 };
  }
  return {
    forOrderCents: askedCents,
    heldCents: 0,
    excessCents: receivedCents - askedCents,
  };
}

/** What money for an order pays of it (rule 2). */
export type OrderPayment =
  /** The order was paid before this money came: all of it is owed back. */
  | { kind: "paid_twice" }
  /** `payCents` pays the order; `excessCents` more than it still asks is owed back. */
  | { kind: "pays"; payCents: number; excessCents: number };

/**
 * Rule 2: what `forOrderCents` pays of an order that asks `asksCents` in all, of which
 * `paidBeforeCents` was paid before it (by other codes, or another way).
 */
export function paymentOf(
  forOrderCents: number,
  paidBeforeCents: number,
  asksCents: number,
): OrderPayment {
  if (paidBeforeCents > 0 && paidBeforeCents >= asksCents) return { kind: "paid_twice" };
  const payCents = Math.min(forOrderCents, Math.max(0, asksCents - paidBeforeCents));
  return { kind: "pays", payCents, excessCents: forOrderCents - payCents };
}
