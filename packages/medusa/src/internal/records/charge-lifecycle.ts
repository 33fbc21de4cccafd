import type { ChargeRow, LocalChargeStatus, NewChargeRow } from "./charges";
import type { Arrival, LedgerPart } from "./ledger-parts";
import type { ChargeEventSource } from "./charge-events";
import type { Records } from "./records";
import type { PluginLogger } from "../platform/logger";
import type { ChargeStatus } from "../platform/status";
import { describeFlag, type FlagReason, type RefundReason } from "./flag-reasons";

/** Who moved a charge; it goes on the charge's timeline. */
export type LifecycleSource = ChargeEventSource;

/**
 * Medusa events the plugin emits for a charge's life (subscribe with `event: "pix_checkout.charge.paid"`).
 * Their data is `ChargeEventData`.
 */
export const CHARGE_EVENTS = {
  created: "pix_checkout.charge.created",
  paid: "pix_checkout.charge.paid",
  captured: "pix_checkout.charge.captured",
  expired: "pix_checkout.charge.expired",
  failed: "pix_checkout.charge.failed",
  canceled: "pix_checkout.charge.canceled",
  /** Medusa deleted or replaced the charge's session; the code is no longer offered. */
  superseded: "pix_checkout.charge.superseded",
  /** The charge needs the merchant: data has `flag` (a refund due, a failed capture...). */
  flagged: "pix_checkout.charge.flagged",
  /** A server-only instance recorded the payment and hands Medusa's capture to the worker. */
  captureRequested: "pix_checkout.charge.capture_requested",
  /** The shopper's own page showed the code for the first time (storefront/code-shown). */
  shown: "pix_checkout.charge.shown",
  /** The merchant recorded money returned to the shopper: data has `refund`. */
  refunded: "pix_checkout.charge.refunded",
} as const;

/** Name of a charge life event. */
export type ChargeEventName = (typeof CHARGE_EVENTS)[keyof typeof CHARGE_EVENTS];

/**
 * The data of every `pix_checkout.charge.*` event: what a message to the shopper needs to
 * find the rest (the session for the store routes, the collection for the cart or order).
 * Never the payer's document, never a key.
 */
export interface ChargeEventData {
  charge_id: string;
  session_id: string;
  payment_collection_id: string | null;
  method: "pix" | "boleto";
  status: LocalChargeStatus;
  amount_cents: number;
  currency_code: string;
  expires_at: string | null;
  paid_at: string | null;
  /** True when the payment arrived after the charge had expired or been canceled. */
  late?: boolean;
  /** Why the merchant is needed, on `pix_checkout.charge.flagged`. */
  flag?: FlagReason;
  /** What the merchant returned, on `pix_checkout.charge.refunded`. */
  refund?: RefundEventData;
  /** Who learned of the change: `webhook`, `reconcile`, `refresh`, `authorize`, `order_placed`, `provider`, `admin`. */
  source: LifecycleSource;
}

/** A refund the merchant recorded, as `pix_checkout.charge.refunded` carries it. */
export interface RefundEventData {
  /** The declaration's id (its timeline line's): one message per refund recorded. */
  id: string;
  /** Integer cents returned. */
  amount_cents: number;
  /** Of it, what Medusa held captured and records as a refund on the order's payment. */
  medusa_cents: number;
  /**
   * Why the money went back: the reason it was owed (`paid_replaced`, `order_canceled`, ...),
   * `underpaid` for an amount held for the merchant, `order_refund` for the order's captured
   * money (a refund after the sale); the first part the refund took says it.
   */
  reason: string;
}

/** The part of Medusa's event bus the lifecycle uses. */
export interface EventBusLike {
  emit(event: { name: string; data: unknown }): Promise<unknown>;
}

/** A change the lifecycle made; undefined from a method means nothing changed. */
export interface Transition {
  row: ChargeRow;
  from: LocalChargeStatus;
  to: LocalChargeStatus;
  /** Paid after it had expired, failed or been canceled: captured, and flagged. */
  late: boolean;
}

/** What the API said of a payment, when it was asked in full (a status read says less). */
export interface PaymentFacts {
  /** The amount the API says was paid, in cents. */
  amountCents: number;
  /** When the API says it was paid (ISO), if it says. */
  paidAt: string | null;
  /** How that money arrives in the ledger (settlement/decide.ts `arrivalOf`). */
  arrival: Arrival;
}

const iso = (value: Date | string | null): string | null =>
  value === null ? null : new Date(value).toISOString();

/** A charge's event data (every `pix_checkout.charge.*` event carries it). */
export function chargeEventData(
  row: ChargeRow,
  source: LifecycleSource,
  extra: { late?: boolean; flag?: FlagReason; refund?: RefundEventData } = {},
): ChargeEventData {
  return {
    charge_id: row.charge_id,
    session_id: row.session_id,
    payment_collection_id: row.payment_collection_id,
    method: row.method,
    status: row.status,
    amount_cents: Number(row.amount_cents),
    currency_code: row.currency_code,
    expires_at: iso(row.expires_at),
    paid_at: iso(row.paid_at),
    ...(extra.late ? { late: true } : {}),
    ...(extra.flag ? { flag: extra.flag } : {}),
    ...(extra.refund ? { refund: extra.refund } : {}),
    source,
  };
}

/**
 * The one owner of a charge's local status. Every path that learns something about a charge
 * (the provider creating or canceling it, the webhook route, reconciliation, the refresh
 * route, Medusa asking the provider) records it here, so the rules hold the same everywhere:
 *
 * - statuses only move forward: `pending` → `paid | expired | failed | canceled`, and a
 *   locally `canceled` charge can still expire or fail upstream;
 * - `paid` is final; a payment that arrives after expiry or cancellation is still recorded
 *   (the money arrived) and flagged for the merchant;
 * - each move is one conditional UPDATE, so racing instances cannot both make it;
 * - each move goes on the charge's timeline and is emitted as a `pix_checkout.charge.*` event.
 *
 * Callers only pass statuses the API confirmed (fetch-back); the lifecycle never asks the API.
 */
export class ChargeLifecycle {
  constructor(
    private readonly records: Records,
    private readonly logger: PluginLogger,
    private readonly events?: EventBusLike,
  ) {}

  /** Records a charge the provider created, and when to first check it. */
  async created(row: NewChargeRow, source: LifecycleSource = "provider"): Promise<ChargeRow> {
    const saved = await this.records.charges.insert(row);
    await this.records.events.add({
      chargeId: row.charge_id,
      kind: "created",
      source,
      to: "pending",
      detail: { session_id: row.session_id, amount_cents: row.amount_cents },
    });
    await this.emit(CHARGE_EVENTS.created, saved, source);
    return saved;
  }

  /** Points a still-payable charge of the same collection at Medusa's new session. */
  async reused(row: ChargeRow, sessionId: string): Promise<ChargeRow | undefined> {
    if (!row.payment_collection_id) return undefined;
    const moved = await this.records.charges.repoint(
      row.charge_id,
      row.payment_collection_id,
      sessionId,
    );
    if (moved) {
      await this.records.events.add({
        chargeId: row.charge_id,
        kind: "reused",
        source: "provider",
        detail: { session_id: sessionId },
      });
    }
    return moved;
  }

  /**
   * Applies a status the API just confirmed for this charge. Returns the transition made, or
   * undefined when the charge was already there (a duplicate, or `paid` beating a late
   * `expired`).
   */
  async confirmed(
    row: ChargeRow,
    status: ChargeStatus,
    source: LifecycleSource,
    facts?: PaymentFacts,
  ): Promise<Transition | undefined> {
    switch (status) {
      case "pending":
        return undefined;
      case "paid":
        return this.paid(row, source, facts);
      case "expired":
      case "failed":
        return this.ended(row, status, source);
    }
  }

  /**
   * Announces that Medusa holds the payment captured and the cart is an order (when it could
   * become one): `paid` says the money arrived, `captured` that the order is paid.
   */
  async captured(row: ChargeRow, source: LifecycleSource): Promise<void> {
    await this.emit(CHARGE_EVENTS.captured, row, source);
  }

  /**
   * A captured charge's cart is an order now (or has no cart left to become one): what waited
   * for the order (its transactions, the shopper's "paid" message) is due now, not at the
   * outbox's next retry. True when this call saw it; the door that did delivers them.
   */
  async orderSeen(chargeId: string): Promise<boolean> {
    if (!(await this.records.captures.orderSeen(chargeId))) return false;
    await this.records.outbox.dueNow(chargeId);
    return true;
  }

  /**
   * Hands a paid charge's capture to whichever instance runs subscribers (the worker). Not a
   * transition: the charge is already paid, and reconciliation captures it if the event is lost.
   */
  async captureRequested(row: ChargeRow, source: LifecycleSource): Promise<void> {
    await this.emit(CHARGE_EVENTS.captureRequested, row, source);
  }

  /** The merchant's side gave up on a pending charge (Medusa canceled the payment). */
  async canceled(chargeId: string, source: LifecycleSource): Promise<Transition | undefined> {
    const moved = await this.records.charges.transition(chargeId, ["pending"], "canceled");
    if (!moved) return undefined;
    await this.records.events.add({
      chargeId,
      kind: "canceled",
      source,
      from: "pending",
      to: "canceled",
    });
    await this.emit(CHARGE_EVENTS.canceled, moved, source);
    return { row: moved, from: "pending", to: "canceled", late: false };
  }

  /**
   * Medusa deleted the charge's session (the cart changed, the shopper switched method or took
   * a new code). Not a status: the charge stays payable at the bank until it expires, so its
   * status keeps following the API; the code is simply no longer offered. Only while the
   * charge is still `sessionId`'s: a newer session of the cart that reused it owns it now.
   */
  async superseded(
    chargeId: string,
    source: LifecycleSource,
    sessionId: string,
  ): Promise<ChargeRow | undefined> {
    const marked = await this.records.charges.supersede(chargeId, sessionId);
    if (!marked) return undefined;
    // An expired code is replaced because the shopper took a new one, not because the cart
    // changed: the timeline says which.
    const kind = marked.status === "expired" ? "renewed" : "superseded";
    await this.records.events.add({ chargeId, kind, source });
    await this.emit(CHARGE_EVENTS.superseded, marked, source);
    return marked;
  }

  /** Hands a charge to the merchant ("Needs attention"), on the timeline and as an event. */
  async flag(
    chargeId: string,
    reason: FlagReason,
    source: LifecycleSource,
  ): Promise<ChargeRow | undefined> {
    const flagged = await this.records.notes.flag(chargeId, reason);
    if (!flagged) return undefined;
    await this.noted(flagged, reason, source);
    return flagged;
  }

  /**
   * Money no order can come of (or the order's no longer) is owed back: `amountCents` of `from`
   * moves to the ledger's `owed` part with its reason, and the note that tells the merchant is
   * written in the same statement (settlement/decide.ts says when). Returns the row when this
   * call moved it; money already moved by another door is left as it is. `orderId`: the
   * collection's order, if any.
   */
  async owe(
    row: ChargeRow,
    from: Extract<LedgerPart, "held" | "captured">,
    amountCents: number,
    reason: RefundReason,
    source: LifecycleSource,
    orderId: string | null,
  ): Promise<ChargeRow | undefined> {
    const note: FlagReason = {
      code: "refund_due",
      reason,
      amount_cents: amountCents,
      order_id: orderId,
    };
    const moved = await this.records.ledger.owe(
      row.charge_id,
      from,
      amountCents,
      reason,
      source,
      this.records.notes.flagColumns(note),
    );
    if (!moved) return undefined;
    await this.noted(moved, note, source);
    return moved;
  }

  /** A note written: on the timeline, in the log and as `pix_checkout.charge.flagged`. */
  private async noted(row: ChargeRow, reason: FlagReason, source: LifecycleSource) {
    await this.records.events.add({
      chargeId: row.charge_id,
      kind: "flagged",
      source,
      detail: reason,
    });
    this.logger.warn(`charge ${row.charge_id} needs the merchant: ${describeFlag(reason)}`);
    await this.emit(CHARGE_EVENTS.flagged, row, source, false, reason);
  }

  /** A hold written (with its note): on the timeline, and the note announced. */
  private async noteHeld(row: ChargeRow, source: LifecycleSource) {
    await this.records.events.add({
      chargeId: row.charge_id,
      kind: "held",
      source,
      detail: {
        reason: "underpaid",
        amount_cents: Number(row.amount_cents),
        api_amount_cents: row.api_amount_cents === null ? null : Number(row.api_amount_cents),
      },
    });
    const note = shortNote(
      row,
      row.api_amount_cents === null ? null : Number(row.api_amount_cents),
    );
    await this.noted(row, note, source);
  }

  private async paid(
    row: ChargeRow,
    source: LifecycleSource,
    facts: PaymentFacts | undefined,
  ): Promise<Transition | undefined> {
    if (!facts) {
      // The status read says nothing of the amount: a payment is recorded from a full read only.
      throw new Error(`charge ${row.charge_id}: a payment needs the API's full read`);
    }
    const chargeId = row.charge_id;
    // The API's own time, when it says: a boleto paid on its due date and confirmed days later
    // was paid on time, whenever the plugin heard of it.
    const apiPaidAt = facts.paidAt ? new Date(facts.paidAt) : null;
    const paidAt = apiPaidAt ?? new Date();
    const underpaid = facts.arrival.heldReason === "underpaid";
    const recorded = {
      paid_at: paidAt,
      api_paid_at: apiPaidAt,
      api_amount_cents: facts.amountCents,
      last_checked_at: new Date(),
      next_check_at: null,
    };
    const note = underpaid ? shortNote(row, facts.amountCents) : undefined;
    const noteColumns = (reason: FlagReason | undefined) =>
      reason ? this.records.notes.flagColumns(reason) : {};
    // The payment and where its money stands are one statement: less than the code asked for is
    // held for the merchant, with its note; more is partly owed back at once (ledger.ts).
    const onTime = await this.records.ledger.arrive(chargeId, ["pending"], facts.arrival, source, {
      ...recorded,
      ...noteColumns(note),
    });
    if (onTime) {
      await this.records.events.add({
        chargeId,
        kind: "paid",
        source,
        from: "pending",
        to: "paid",
      });
      if (underpaid) await this.noteHeld(onTime, source);
      await this.emit(CHARGE_EVENTS.paid, onTime, source);
      return { row: onTime, from: "pending", to: "paid", late: false };
    }
    // Read the status it had: the caller's row may be older than the last transition.
    const current = (await this.records.charges.byChargeId(chargeId)) ?? row;
    const before = current.status;
    if (before === "paid") return undefined;
    // A boleto paid on its due date is confirmed by the bank days later: inside the grace
    // period its `expired` was provisional, and the payment is on time.
    const hold = current.order_hold_until ? new Date(current.order_hold_until) : null;
    const onTimeAfterAll = before === "expired" && hold !== null && paidAt <= hold;
    // A late payment is the merchant's news; a held one's note says more (the money).
    const lateNote: FlagReason | undefined = onTimeAfterAll
      ? undefined
      : { code: "paid_after_charge_closed", status: before };
    const moved = await this.records.ledger.arrive(
      chargeId,
      ["expired", "failed", "canceled"],
      facts.arrival,
      source,
      { ...recorded, ...noteColumns(note ?? lateNote) },
    );
    if (!moved) return undefined;
    await this.records.events.add({
      chargeId,
      kind: onTimeAfterAll ? "paid" : "late_payment",
      source,
      from: before,
      to: "paid",
      ...(onTimeAfterAll ? { detail: { within_grace: true } } : {}),
    });
    if (underpaid) await this.noteHeld(moved, source);
    else if (lateNote) await this.noted(moved, lateNote, source);
    await this.emit(CHARGE_EVENTS.paid, moved, source, !onTimeAfterAll);
    return { row: moved, from: before, to: "paid", late: !onTimeAfterAll };
  }

  private async ended(
    row: ChargeRow,
    status: "expired" | "failed",
    source: LifecycleSource,
  ): Promise<Transition | undefined> {
    const chargeId = row.charge_id;
    const before = (await this.records.charges.byChargeId(chargeId))?.status ?? row.status;
    if (before !== "pending" && before !== "canceled") return undefined;
    const moved = await this.records.charges.transition(chargeId, [before], status);
    if (!moved) return undefined;
    await this.records.events.add({ chargeId, kind: status, source, from: before, to: status });
    await this.emit(CHARGE_EVENTS[status], moved, source);
    return { row: moved, from: before, to: status, late: false };
  }

  /**
   * Announces a refund the merchant recorded (after its transaction committed): the shopper's
   * "Devolvemos R$ X" message listens for it.
   */
  async refunded(row: ChargeRow, refund: RefundEventData): Promise<void> {
    await this.emit(CHARGE_EVENTS.refunded, row, "admin", false, undefined, refund);
  }

  /**
   * Emits after the change is stored. An event bus that fails must not undo or fail a
   * recorded payment: the timeline holds the truth, so the failure is only logged.
   */
  private async emit(
    name: ChargeEventName,
    row: ChargeRow,
    source: LifecycleSource,
    late = false,
    flag?: FlagReason,
    refund?: RefundEventData,
  ): Promise<void> {
    if (!this.events) return;
    const data = chargeEventData(row, source, { late, flag, refund });
    try {
      await this.events.emit({ name, data });
    } catch (error) {
      this.logger.warn(
        `could not emit ${name} for charge ${row.charge_id}: ${(error as Error).message}`,
      );
    }
  }
}

/** The note of a payment that brought less than its code asked for. */
function shortNote(row: ChargeRow, paidCents: number | null): FlagReason {
  return {
    code: "amount_mismatch",
    api_cents: paidCents ?? Number(row.amount_cents),
    recorded_cents: Number(row.amount_cents),
  };
}
