import { generateEntityId } from "@medusajs/framework/utils";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import type { ChargeStatus } from "../platform/status";
import type { PaymentMethod } from "../platform/options";
import type { HeldReason, OwedReason } from "./ledger-parts";
import type { ClaimDoor } from "./claim-door";

/** Local charge status: the API's four words plus `canceled` (the merchant/Medusa side gave up). */
export type LocalChargeStatus = ChargeStatus | "canceled";

/**
 * What a charge's payment collection was for when the charge was made: a storefront's cart, an
 * order's own total nothing had paid yet (a converted draft order), or the difference a
 * confirmed change of a paid order left owed (medusa/order-collections.ts `purposeOf`).
 */
export type ChargePurpose = "cart" | "order" | "order_edit" | "exchange" | "claim" | "return";

/** A row of `pix_checkout_charge`. */
export interface ChargeRow {
  id: string;
  charge_id: string;
  provider_id: string;
  method: PaymentMethod;
  variant: "a" | "b";
  session_id: string;
  payment_collection_id: string | null;
  /**
   * The sales channel of the cart or order paying; store routes serve the row only to its
   * channels.
   */
  sales_channel_id: string | null;
  /** What it was for (null: recorded before the plugin kept it). */
  purpose: ChargePurpose | null;
  amount_cents: number;
  currency_code: string;
  status: LocalChargeStatus;
  expires_at: Date | null;
  paid_at: Date | null;
  /** What the API says was paid, in cents (set when the API confirms the payment). */
  api_amount_cents: number | null;
  /**
   * The ledger's balances of this charge (records/ledger.ts): what the service received, and
   * where each real of it is. Written only by `Ledger.move`, with the entries that explain them.
   */
  received_cents: number | null;
  held_cents: number;
  held_reason: HeldReason | null;
  captured_cents: number;
  owed_cents: number;
  owed_reason: OwedReason | null;
  returned_cents: number;
  /** Blocked by an open MED (bloqueio cautelar): Medusa holds it captured; not income. */
  contested_cents?: number;
  /**
   * The charge's MED case (docs/ledger.md "Pix returned by the MED"), one at a time, written in
   * the statement that moves its money (records/ledger.ts `contest`, `endContest`): the
   * notificação de infração's protocol number, the date by which the institution decides, the
   * case's state, the amount blocked (and of it, owed money), when it opened and closed. Null:
   * never contested.
   */
  med_protocol?: string | null;
  med_deadline?: string | Date | null;
  med_state?: MedState | null;
  med_blocked_cents?: number | string | null;
  /** Of `med_blocked_cents`, the money already owed back (it stays `owed`, the case's). */
  med_blocked_owed_cents?: number | string | null;
  med_opened_at?: Date | null;
  med_closed_at?: Date | null;
  /** When the API says the payment happened (`paid_at` is the API's when it says, else when recorded). */
  api_paid_at: Date | null;
  /** When a process took the capture; the claim lapses after the lease (see claimCapture). */
  capture_claimed_at: Date | null;
  /** Who holds the capture claim (its id within its door); only the holder releases it. */
  capture_claimed_by: string | null;
  /** Which door holds the capture claim (capture-claims.ts `ClaimDoor`). */
  capture_claim_door: ClaimDoor | null;
  /** How much the claim's holder captures (the capture door checks Medusa's capture against it). */
  capture_claimed_cents: number | null;
  /** When the capture was confirmed done in Medusa. */
  captured_at: Date | null;
  last_checked_at: Date | null;
  /** When reconciliation next asks the API; `infinity` once the row gave up (flagged). */
  next_check_at: Date | null;
  /**
   * When the charge's next reminder falls due (checkout/reminder-cadence.ts); null when it has none, or
   * the store sends none. Written with the charge, moved by the reminders' pass.
   */
  next_reminder_at?: Date | null;
  /** Consecutive failed checks (see `recordCheckFailure`). */
  check_failures: number;
  flagged: boolean;
  /** When the shopper's own page first showed the code (storefront/code-shown); null before. */
  shown_at?: Date | null;
  /** Why the charge waits for the merchant: a `FlagReason`'s code, and its values. */
  flag_code: string | null;
  flag_detail: Record<string, unknown> | null;
  flag_resolved_at: Date | null;
  flag_resolution_note: string | null;
  /** Medusa deleted or replaced this charge's session: the code is no longer offered. */
  superseded_at: Date | null;
  /** Until when this boleto, unpaid, keeps the order it waits on open (its grace period). */
  order_hold_until: Date | null;
  /** The session this superseded charge's payment was captured on (see collection.ts). */
  capture_session_id: string | null;
  /**
   * Captured, and its cart not yet seen become an order: set in the statement that records the
   * capture, cleared once the order exists (or the money is a refund due). Reconciliation
   * completes the cart, or the collection's decision makes it a refund due.
   */
  awaiting_order_since: Date | null;
  /** When retention compacted this finished charge's history. */
  compacted_at: Date | null;
  display: Record<string, unknown> | null;
  /**
   * The buyer's CPF or CNPJ the charge was created with, bare and checked
   * (checkout/buyer-document.ts); null when none was sent, or once retention compacted the row.
   * Personal data: never in a log, a metric or a store answer.
   */
  buyer_document?: string | null;
  created_at: Date;
  updated_at: Date;
}

/** Where a charge's MED case stands: open (money contested), or its outcome. */
export type MedState = "open" | "kept" | "returned";

/** Thrown when a charge id is already recorded for another payment collection. */
export class ChargeBoundElsewhereError extends Error {
  constructor(
    readonly chargeId: string,
    readonly paymentCollectionId: string | null,
  ) {
    super(
      `charge ${chargeId} is already recorded for payment collection ${String(paymentCollectionId)}; it is never moved to another one`,
    );
    this.name = "ChargeBoundElsewhereError";
  }
}

/** A charge as the provider records it when it creates one. */
export type NewChargeRow = Omit<
  ChargeRow,
  | "id"
  | "created_at"
  | "updated_at"
  | "status"
  | "paid_at"
  | "api_amount_cents"
  | "api_paid_at"
  | "received_cents"
  | "held_cents"
  | "held_reason"
  | "captured_cents"
  | "owed_cents"
  | "owed_reason"
  | "returned_cents"
  | "capture_claimed_by"
  | "capture_claim_door"
  | "capture_claimed_cents"
  | "capture_claimed_at"
  | "captured_at"
  | "last_checked_at"
  | "check_failures"
  | "flagged"
  | "flag_code"
  | "flag_detail"
  | "flag_resolved_at"
  | "flag_resolution_note"
  | "superseded_at"
  | "capture_session_id"
  | "awaiting_order_since"
  | "compacted_at"
>;

/** The plugin's charge table. */
export const CHARGES = "pix_checkout_charge";

/**
 * The live row of a charge id. Every index on the plugin's tables is partial (`where
 * deleted_at is null`, as Medusa creates them), so a lookup must say so too or Postgres
 * scans the whole table.
 */
export function liveCharge(db: Knex, chargeId: string) {
  return db<ChargeRow>(CHARGES).where({ charge_id: chargeId }).whereNull("deleted_at");
}

/**
 * A charge's identity and status in `pix_checkout_charge`: recording a charge the provider
 * made, finding it by id, session or collection, re-pointing, replacing and adopting it, and its
 * status moves. Where its money is, the ledger says (ledger.ts); what it needs from the
 * merchant, attention.ts; its checks, capture claim, notes and retention have their own files.
 * Both the provider (which only has the payment module's container, where Medusa registers the
 * shared `__pg_connection__`) and the plugin's routes, jobs and workflows use these classes, so
 * there is one writer implementation. Pass a transaction as `db` to take part in it.
 */
export class Charges {
  constructor(private readonly db: Knex) {}

  /** A pending, unexpired charge of this collection, provider and amount that can be shown again. */
  async findReusable(params: {
    paymentCollectionId: string;
    providerId: string;
    amountCents: number;
    notExpiringBefore: Date;
  }): Promise<ChargeRow | undefined> {
    return this.db<ChargeRow>(CHARGES)
      .where({
        payment_collection_id: params.paymentCollectionId,
        provider_id: params.providerId,
        amount_cents: params.amountCents,
        status: "pending",
      })
      .whereNull("deleted_at")
      .where("expires_at", ">", params.notExpiringBefore)
      .orderBy("created_at", "desc")
      .first();
  }

  /**
   * Records a charge the provider just created (or recovered after a lost response). A charge
   * id already recorded is accepted only for the same payment collection, where it re-points
   * the row at the new session; any other collection throws `ChargeBoundElsewhereError`, so
   * one payment can never be bound to two shoppers' carts.
   */
  async insert(row: NewChargeRow): Promise<ChargeRow> {
    const now = new Date();
    const rows = (await this.db(CHARGES)
      .insert({
        ...row,
        id: generateEntityId(undefined, "pxch"),
        status: "pending",
        display: row.display === null ? null : JSON.stringify(row.display),
        flagged: false,
        check_failures: 0,
        created_at: now,
        updated_at: now,
      })
      // The unique index on charge_id is partial (soft-deleted rows excluded), so the
      // conflict target must repeat its predicate.
      .onConflict(this.db.raw("(charge_id) where deleted_at is null"))
      .merge({ session_id: row.session_id, updated_at: now })
      .where(`${CHARGES}.payment_collection_id`, row.payment_collection_id)
      .returning("*")) as ChargeRow[];
    if (rows[0]) return rows[0];
    const existing = await this.byChargeId(row.charge_id);
    throw new ChargeBoundElsewhereError(row.charge_id, existing?.payment_collection_id ?? null);
  }

  /**
   * Points a reusable charge at the collection's new session (Medusa replaced the session
   * when the cart changed and changed back). Only within the same payment collection.
   */
  async repoint(
    chargeId: string,
    paymentCollectionId: string,
    sessionId: string,
  ): Promise<ChargeRow | undefined> {
    const rows = await liveCharge(this.db, chargeId)
      .where({ payment_collection_id: paymentCollectionId })
      .update({ session_id: sessionId, superseded_at: null, updated_at: new Date() })
      .returning("*");
    return rows[0] as ChargeRow | undefined;
  }

  /**
   * Marks the charge of a deleted session superseded, unless it is paid (a paid charge's
   * session is Medusa's record of the money) or already superseded. Returns the row when
   * this call marked it.
   */
  async supersede(chargeId: string, sessionId: string): Promise<ChargeRow | undefined> {
    const rows = await liveCharge(this.db, chargeId)
      // A charge another session of the collection took over (reuse) is not this session's.
      .where({ session_id: sessionId })
      .whereNot({ status: "paid" })
      .whereNull("superseded_at")
      .update({ superseded_at: this.db.fn.now(), updated_at: new Date() })
      .returning("*");
    return rows[0] as ChargeRow | undefined;
  }

  /**
   * A paid superseded charge becomes the payment of the collection's current session: Medusa
   * captures that session, and the charge is no longer superseded.
   */
  async adopt(chargeId: string, sessionId: string): Promise<ChargeRow | undefined> {
    const rows = await liveCharge(this.db, chargeId)
      .where({ status: "paid" })
      .whereNull("captured_at")
      .update({ capture_session_id: sessionId, superseded_at: null, updated_at: new Date() })
      .returning("*");
    return rows[0] as ChargeRow | undefined;
  }

  /**
   * The shopper's page showed a pending charge's code: records it once. True only for the call
   * that recorded it (the first page to show it), so what follows happens once.
   */
  async markShown(chargeId: string): Promise<boolean> {
    const rows = await liveCharge(this.db, chargeId)
      .where({ status: "pending" })
      .whereNull("shown_at")
      .update({ shown_at: this.db.raw("now()") })
      .returning(["charge_id"]);
    return rows.length > 0;
  }

  /**
   * The paid charges whose money Medusa captures on this session: those it adopted (an older
   * code paid first, `capture_session_id`), then its own unless another session adopted it;
   * each group oldest paid first. Two may share a session: an older code the session adopted
   * stays marked so after the session's own code was captured instead and the older one owed
   * back as paid twice, so the adopted row alone does not say whose money Medusa holds there.
   */
  async paidOnSession(sessionId: string): Promise<ChargeRow[]> {
    return this.db<ChargeRow>(CHARGES)
      .where({ status: "paid" })
      .whereNull("deleted_at")
      .where((q) =>
        q
          .where({ capture_session_id: sessionId })
          .orWhere((own) => own.where({ session_id: sessionId }).whereNull("capture_session_id")),
      )
      .orderByRaw("(capture_session_id is null) asc, paid_at asc, charge_id asc");
  }

  /** Every charge recorded for a payment collection, oldest first. */
  async ofCollection(paymentCollectionId: string): Promise<ChargeRow[]> {
    return this.db<ChargeRow>(CHARGES)
      .where({ payment_collection_id: paymentCollectionId })
      .whereNull("deleted_at")
      .orderBy("created_at", "asc");
  }

  /**
   * Every charge recorded for a cart's payment collection (Medusa's cart–collection link),
   * oldest first, in one statement: Medusa's own cart routes ask it of every cart of the store,
   * most of which have none.
   */
  async ofCart(cartId: string): Promise<ChargeRow[]> {
    return this.db<ChargeRow>(CHARGES)
      .whereIn(
        "payment_collection_id",
        this.db("cart_payment_collection")
          .select("payment_collection_id")
          .where({ cart_id: cartId })
          .whereNull("deleted_at"),
      )
      .whereNull("deleted_at")
      .orderBy("created_at", "asc");
  }

  /**
   * Whether any charge is recorded for an order's payment collections (its own links, and its
   * cart's collection), in one statement: every order of the store, Pix or not, is asked.
   */
  async anyOfOrder(orderId: string): Promise<boolean> {
    const { rows } = await this.db.raw<{ rows: unknown[] }>(
      `select 1 from ${CHARGES} c
        where c.deleted_at is null and c.payment_collection_id in (
          select opc.payment_collection_id from order_payment_collection opc
           where opc.order_id = ? and opc.deleted_at is null
          union all
          select cpc.payment_collection_id from order_cart oc
            join cart_payment_collection cpc on cpc.cart_id = oc.cart_id and cpc.deleted_at is null
           where oc.order_id = ? and oc.deleted_at is null)
        limit 1`,
      [orderId, orderId],
    );
    return rows.length > 0;
  }

  /** The local record of an API charge id. */
  async byChargeId(chargeId: string): Promise<ChargeRow | undefined> {
    return liveCharge(this.db, chargeId).first();
  }

  /** The newest local record of a payment session. */
  async bySessionId(sessionId: string): Promise<ChargeRow | undefined> {
    return this.db<ChargeRow>(CHARGES)
      .where({ session_id: sessionId })
      .whereNull("deleted_at")
      .orderBy("created_at", "desc")
      .first();
  }

  /** The newest local record of each of these sessions (live status sweeps). */
  async bySessionIds(sessionIds: readonly string[]): Promise<Map<string, ChargeRow>> {
    const rows = await this.db<ChargeRow>(CHARGES)
      .whereIn("session_id", sessionIds as string[])
      .whereNull("deleted_at")
      .orderBy("created_at", "asc");
    // Newest row of a session wins, the same rule as bySessionId.
    const bySession = new Map<string, ChargeRow>();
    for (const row of rows) bySession.set(row.session_id, row);
    return bySession;
  }

  /** The rows of these charges, by charge id (ids this store never made are absent). */
  async byChargeIds(chargeIds: readonly string[]): Promise<Map<string, ChargeRow>> {
    if (chargeIds.length === 0) return new Map();
    const rows: ChargeRow[] = await this.db<ChargeRow>(CHARGES)
      .whereIn("charge_id", chargeIds as string[])
      .whereNull("deleted_at");
    return new Map(rows.map((row) => [row.charge_id, row]));
  }

  /**
   * Moves a charge to `to` only from one of `from`, in one UPDATE, so two instances (or a
   * webhook and the job) racing on the same charge cannot both win. Returns the row when
   * this caller made the change, undefined when someone else already did. A payment is no
   * status move of this kind: its money arrives with it (`Ledger.arrive`).
   */
  async transition(
    chargeId: string,
    from: readonly LocalChargeStatus[],
    to: LocalChargeStatus,
  ): Promise<ChargeRow | undefined> {
    // A final status needs no more checks; a grace period schedules its own (collection.ts).
    const final = to === "expired" || to === "failed";
    const rows = await liveCharge(this.db, chargeId)
      .whereIn("status", from as LocalChargeStatus[])
      .update({
        status: to,
        updated_at: new Date(),
        last_checked_at: new Date(),
        ...(final ? { next_check_at: null } : {}),
      })
      .returning("*");
    return rows[0] as ChargeRow | undefined;
  }
}
