/*
 * The MED's money rules, once (`@pix-checkout/client/med`), for both plugins: the Medusa plugin's
 * server and admin drawer (packages/medusa docs/ledger.md "Pix returned by the MED") and the
 * Vendure plugin. Pure and without imports, so an admin's bundle loads it too. "The order" below
 * is the platform's order (Medusa's, Vendure's): what it records as captured and refunded.
 *
 * A block falls first on money the store already owes back (an overpayment's excess, a code paid
 * twice, an order canceled): that money was the shopper's already, and a MED that takes it
 * settles the devolução. Only the rest falls on the order's captured money, out of income. The
 * owed part stays in the ledger's `owed` part, marked as the case's (`med_blocked_owed_cents`),
 * so no devolução clock and no "Record refund" asks for it while the case is open.
 */

/** How a block of some amount falls on a charge's money, in integer cents. */
export interface MedBlock {
  /** Of the block, money already owed back: stays `owed`, marked as the case's. */
  owedCents: number;
  /** Of the block, the order's captured money: `captured` → `contested`. */
  capturedCents: number;
}

/**
 * How a MED's block of `amountCents` falls on a charge that owes `owed` and holds `captured`
 * (integer cents): owed money first, then captured. Undefined when the amount is not positive
 * whole cents or more than the two hold.
 */
export function medBlockOf(
  money: { owed: number; captured: number },
  amountCents: number,
): MedBlock | undefined {
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) return undefined;
  if (amountCents > money.owed + money.captured) return undefined;
  const owedCents = Math.min(amountCents, Math.max(money.owed, 0));
  return { owedCents, capturedCents: amountCents - owedCents };
}

/** An open MED case's money, as an outcome reads it. */
export interface MedCaseMoney {
  /** Owed money the block took (`med_blocked_owed_cents`). */
  blockedOwed: number;
  /** Of `blockedOwed`, what the platform's order holds captured (an order canceled after its capture). */
  blockedOwedOnOrder: number;
  /** Captured money the block took (`contested`). */
  contested: number;
}

/**
 * Where the amount a MED returned goes, in integer cents, each line in the order the server
 * moves it. `returned` = `owedSettled` + `refundedOnOrder`, and the block =
 * `returned` + `incomeAgain` + `stillOwed`.
 */
export interface MedOutcomeSplit {
  /** What the MED returned. */
  returned: number;
  /** Owed money the MED returned: the pending devolução is settled (`owed` → `returned`). */
  owedSettled: number;
  /**
   * Of `owedSettled`, what the order held captured: recorded as a refund on the order too; the
   * rest of it (the order never captured it) is in the plugin's records only.
   */
  owedSettledOnOrder: number;
  /** Contested money the MED returned: out of income, a refund on the order. */
  refundedOnOrder: number;
  /** Contested money the MED did not return: captured again, income again. */
  incomeAgain: number;
  /** Owed money the MED did not return: still owed back, its devolução clock running again. */
  stillOwed: number;
  /** What the order records as refunded: `refundedOnOrder` + `owedSettledOnOrder`. */
  recordedOnOrder: number;
  /** What only the plugin's ledger records: `returned` − `recordedOnOrder`. */
  ledgerOnly: number;
}

/**
 * How an outcome splits: the MED returned `returnedCents` (0 for "Mantido") of an open case.
 * The owed money is settled first (what the store already owed is what the MED gave back first;
 * of it, money the order never captured before money it holds captured, as a merchant's refund
 * takes them), then the contested money. Undefined when the amount is not whole cents from 0 to
 * all of the block.
 */
export function medOutcomeSplit(
  med: MedCaseMoney,
  returnedCents: number,
): MedOutcomeSplit | undefined {
  if (!Number.isSafeInteger(returnedCents) || returnedCents < 0) return undefined;
  if (returnedCents > med.blockedOwed + med.contested) return undefined;
  const owedSettled = Math.min(returnedCents, med.blockedOwed);
  const onOrder = Math.min(Math.max(med.blockedOwedOnOrder, 0), med.blockedOwed);
  const owedSettledOnOrder = Math.max(0, owedSettled - (med.blockedOwed - onOrder));
  const refundedOnOrder = returnedCents - owedSettled;
  const recordedOnOrder = refundedOnOrder + owedSettledOnOrder;
  return {
    returned: returnedCents,
    owedSettled,
    owedSettledOnOrder,
    refundedOnOrder,
    incomeAgain: med.contested - refundedOnOrder,
    stillOwed: med.blockedOwed - owedSettled,
    recordedOnOrder,
    ledgerOnly: returnedCents - recordedOnOrder,
  };
}

/**
 * Of a charge's owed money, what the order holds captured and the case blocked: the block took the
 * owed money the order never captured first (as refunds take it), then the rest.
 */
export function blockedOwedOnOrderOf(
  owed: number,
  owedOnOrder: number,
  blockedOwed: number,
): number {
  const onOrder = Math.min(Math.max(owedOnOrder, 0), owed);
  const outside = owed - onOrder;
  return Math.max(0, Math.min(blockedOwed, owed) - outside);
}

/** How many bank business days before a MED's deadline the merchant is warned. */
export const MED_WARN_BUSINESS_DAYS = 2;

/** Where an open MED's deadline stands: the merchant asks the service once it is near. */
export type MedDeadlineState = "ok" | "near" | "past";

/**
 * `past` once the deadline's day has gone by, `near` from `warnDays` bank business days before it
 * (the deadline's own day counted, so a Friday deadline is near on Wednesday), `ok` before;
 * `businessDaysLeft` is `businessDaysUntil(today, deadline)` of `@pix-checkout/client/bank-days`.
 */
export function medDeadlineState(
  businessDaysLeft: number,
  warnDays = MED_WARN_BUSINESS_DAYS,
): MedDeadlineState {
  if (businessDaysLeft < 0) return "past";
  return businessDaysLeft <= warnDays ? "near" : "ok";
}
