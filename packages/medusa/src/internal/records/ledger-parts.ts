import type { RefundReason } from "./flag-reasons";

/*
 * The ledger's vocabulary, and nothing that reads or writes a table: the parts a charge's money
 * is in, their reasons and a row's money. The pure money rules (settlement/decide.ts) read only
 * this, so they load without Medusa.
 */

/**
 * The parts a paid charge's money is in, and nothing else (docs/ledger.md):
 * - `held`: the store holds it until a decision: Medusa's capture (`awaiting_capture`, seconds;
 *   `accepted`, an underpaid amount the merchant accepted), or the merchant's (`underpaid`);
 * - `captured`: captured in Medusa for the collection's order;
 * - `owed`: owed back to the shopper (a refund due), with its reason;
 * - `returned`: returned by the merchant and recorded, or returned by the MED;
 * - `contested`: captured money the MED blocked (bloqueio cautelar) while its notificação de
 *   infração is open: Medusa still holds it captured, and it is not income.
 */
export const LEDGER_PARTS = ["held", "captured", "owed", "returned", "contested"] as const;

/** A part of a charge's money. */
export type LedgerPart = (typeof LEDGER_PARTS)[number];

/** Whose decision held money waits for. */
export type HeldReason = "awaiting_capture" | "underpaid" | "accepted";

/** Held money settlement captures by itself (the merchant's `underpaid` waits for them). */
export const CAPTURABLE_HELD: readonly HeldReason[] = ["awaiting_capture", "accepted"];

/** Why money is owed back. */
export type OwedReason = RefundReason;

/** A charge's money as its row holds it: each part in integer cents, with its reason. */
export interface ChargeMoney {
  /** What the service says was paid; null while unpaid. */
  received: number | null;
  held: number;
  heldReason: HeldReason | null;
  captured: number;
  owed: number;
  owedReason: OwedReason | null;
  returned: number;
  /** Blocked by an open MED (bloqueio cautelar); Medusa still holds it captured. */
  contested: number;
  /**
   * Of `owed`, what an open MED blocked (`@pix-checkout/client/med`): still owed, but the case's, so
   * no refund and no devolução clock asks for it while the case is open. 0 (or absent) otherwise.
   */
  medBlockedOwed?: number;
}

const num = (value: unknown): number => Number(value ?? 0);

/** The columns of a charge's row that hold its money (records/charges.ts `ChargeRow`). */
export interface MoneyColumns {
  received_cents: number | string | null;
  held_cents: number | string;
  held_reason: HeldReason | null;
  captured_cents: number | string;
  owed_cents: number | string;
  owed_reason: OwedReason | null;
  returned_cents: number | string;
  /** Absent on rows read before the MED's migration ran: none contested. */
  contested_cents?: number | string;
  /** The charge's MED case state (`open`, `kept`, `returned`), or null. */
  med_state?: string | null;
  /** Owed money the charge's MED case blocked; counts only while the case is open. */
  med_blocked_owed_cents?: number | string | null;
}

/** Owed money an open MED case of this row blocked (0 when no case is open). */
export const medBlockedOwedOf = (row: {
  med_state?: string | null;
  med_blocked_owed_cents?: number | string | null;
}): number => (row.med_state === "open" ? num(row.med_blocked_owed_cents) : 0);

/** A row's money. The row's balances are the ledger's (written in the same statement). */
export function moneyOf(row: MoneyColumns): ChargeMoney {
  return {
    received: row.received_cents === null ? null : num(row.received_cents),
    held: num(row.held_cents),
    heldReason: row.held_reason,
    captured: num(row.captured_cents),
    owed: num(row.owed_cents),
    owedReason: row.owed_reason,
    returned: num(row.returned_cents),
    contested: num(row.contested_cents),
    medBlockedOwed: medBlockedOwedOf(row),
  };
}

/** How the money of a payment arrives: what is held (and why), what is owed back at once. */
export interface Arrival {
  held: number;
  heldReason: HeldReason;
  owed: number;
  owedReason: OwedReason;
}

/**
 * Money of a charge Medusa holds captured for its order: what is captured, and what the MED
 * blocked of it (contested money was captured in Medusa and stays so until the MED's outcome).
 * What counts as the collection's payment; income is `captured` alone.
 */
export const capturedInMedusa = (money: ChargeMoney): number => money.captured + money.contested;
