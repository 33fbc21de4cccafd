import { generateEntityId } from "@medusajs/framework/utils";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import type { ChargeStatus } from "../platform/status";
import type { PaymentMethod } from "../platform/options";
import type { FlagReason } from "./flag-reasons";

/**
 * Where a paid charge stands for the money, kept in its own column so that no note for the
 * merchant (a flag) ever changes it: `capturable` (it pays for its cart), `held` (less money
 * than the code asked for: the merchant decides), `refund_due` (no order can come of it),
 * `captured`, and `refunded` (the merchant declared all of it returned).
 */
export type Settlement = "capturable" | "held" | "refund_due" | "captured" | "refunded";

/**
 * What a charge needs from the merchant ("Needs attention"), read from where its money stands,
 * never from a flag (which can be resolved or overwritten), then from an open note:
 * - `held`: less money arrived than the code asked for (Accept received amount, or refund);
 * - `refund_due`: no order can come of the money (record the refund once returned);
 * - `no_order`: captured, and its cart has not become an order for a while;
 * - `not_captured`: paid and capturable, and Medusa has not captured it for a while;
 * - `note`: an open note only (a late payment, a checks that keep failing, ...).
 */
export type Attention = "held" | "refund_due" | "no_order" | "not_captured" | "note";

/** How long a capture or a cart completion may take before its charge needs the merchant. */
export const ATTENTION_GRACE_MS = 2 * 60_000;

/**
 * `Attention` in SQL, over a `pix_checkout_charge` row (the one definition: the admin's list,
 * the health card, its alerts and the metrics read it). Null when nothing is needed.
 */
export const ATTENTION_SQL = `case
  when status = 'paid' and settlement = 'held' then 'held'
  when status = 'paid' and settlement = 'refund_due' then 'refund_due'
  when status = 'paid' and captured_at is not null and awaiting_order_since is not null
    and awaiting_order_since < now() - interval '${ATTENTION_GRACE_MS / 1000} seconds' then 'no_order'
  when status = 'paid' and settlement = 'capturable' and captured_at is null
    and paid_at < now() - interval '${ATTENTION_GRACE_MS / 1000} seconds' then 'not_captured'
  when flagged then 'note'
end`;

/**
 * The rows that may need attention, as the partial index IDX_pix_checkout_charge_attention
 * holds them (a superset of `ATTENTION_SQL`: the grace periods are read per row), so a list
 * of them reads that index, not the history.
 */
export const MAY_NEED_ATTENTION_SQL = `deleted_at is null and (flagged
  or settlement in ('held', 'refund_due')
  or awaiting_order_since is not null
  or (settlement = 'capturable' and captured_at is null))`;

/**
 * Less money arrived than the code asked for. The one test of it: the lifecycle uses it to
 * write where a new payment stands, and `decide` (settlement/decide.ts) to hold one recorded
 * before the settlement column existed.
 */
export const paidShort = (askedCents: number, paidCents: number | null): boolean =>
  paidCents !== null && paidCents < askedCents;

/** Local charge status: the API's four words plus `canceled` (the merchant/Medusa side gave up). */
export type LocalChargeStatus = ChargeStatus | "canceled";

/** A row of `pix_checkout_charge`. */
export interface ChargeRow {
  id: string;
  charge_id: string;
  provider_id: string;
  method: PaymentMethod;
  variant: "a" | "b";
  session_id: string;
  payment_collection_id: string | null;
  /** The sales channel of the cart paying; store routes serve the row only to its channels. */
  sales_channel_id: string | null;
  amount_cents: number;
  currency_code: string;
  status: LocalChargeStatus;
  expires_at: Date | null;
  paid_at: Date | null;
  /** What the API says was paid, in cents (set when the API confirms the payment). */
  api_amount_cents: number | null;
  /** When the API says the payment happened (`paid_at` is the API's when it says, else when recorded). */
  api_paid_at: Date | null;
  /** Where a paid charge stands for the money (settlement/decide.ts); null while unpaid. */
  settlement: Settlement | null;
  /** Why a charge is held or due a refund (`underpaid`, `paid_twice`, ...). */
  settlement_reason: string | null;
  /** When a process took the capture; the claim lapses after the lease (see claimCapture). */
  capture_claimed_at: Date | null;
  /** Who holds the capture claim; only the holder releases it. */
  capture_claimed_by: string | null;
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
  created_at: Date;
  updated_at: Date;
}

/**
 * How long a capture claim stays with its holder. processPaymentWorkflow takes well under a
 * second; a holder silent for this long has died, so its claim lapses and another run captures.
 * Capturing after a lapse cannot double the money: Medusa's workflow skips a payment that
 * already has `captured_at`, and `captureOnce` asks Medusa before it claims.
 */
export const CAPTURE_LEASE_MS = 2 * 60_000;

/** Failed captures after which reconciliation leaves a paid charge to the merchant (flagged). */
export const CAPTURE_ATTEMPTS = 3;

/** Failed checks in a row after which reconciliation stops asking about a charge (flagged). */
export const CHECK_ATTEMPTS = 8;

/** How long a reconciliation run holds a charge it claimed to check. */
export const CHECK_LEASE_MS = 2 * 60_000;

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
  | "settlement"
  | "settlement_reason"
  | "capture_claimed_by"
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

const CHARGES = "pix_checkout_charge";
/** Read only, to count a charge's failed captures (see paidNotCaptured); ChargeEvents writes it. */
const EVENTS = "pix_checkout_charge_event";

/** Where retention continues after a batch of finished charges (see pickFinished). */
export interface CompactionKey {
  created_at: Date;
  id: string;
}

/**
 * The SQL of `pix_checkout_charge`, one row per charge the API created for this store. Both the
 * provider (which only has the payment module's container, where Medusa registers the shared
 * `__pg_connection__`) and the plugin's routes, jobs and workflows use it, so there is one
 * writer implementation. Pass a transaction as `db` to take part in it.
 */
export class Charges {
  constructor(private readonly db: Knex) {}

  /**
   * The live row of a charge id. Every index on the plugin's tables is partial (`where
   * deleted_at is null`, as Medusa creates them), so a lookup must say so too or Postgres
   * scans the whole table.
   */
  private charge(chargeId: string) {
    return this.db<ChargeRow>(CHARGES).where({ charge_id: chargeId }).whereNull("deleted_at");
  }

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
    const rows = await this.charge(chargeId)
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
    const rows = await this.charge(chargeId)
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
    const rows = await this.charge(chargeId)
      .where({ status: "paid" })
      .whereNull("captured_at")
      .update({ capture_session_id: sessionId, superseded_at: null, updated_at: new Date() })
      .returning("*");
    return rows[0] as ChargeRow | undefined;
  }

  /** The paid charge a session adopted (see `adopt`), if any. */
  async adoptedBy(sessionId: string): Promise<ChargeRow | undefined> {
    return this.db<ChargeRow>(CHARGES)
      .where({ capture_session_id: sessionId, status: "paid" })
      .whereNull("deleted_at")
      .first();
  }

  /** Every charge recorded for a payment collection, oldest first. */
  async ofCollection(paymentCollectionId: string): Promise<ChargeRow[]> {
    return this.db<ChargeRow>(CHARGES)
      .where({ payment_collection_id: paymentCollectionId })
      .whereNull("deleted_at")
      .orderBy("created_at", "asc");
  }

  /** The local record of an API charge id. */
  async byChargeId(chargeId: string): Promise<ChargeRow | undefined> {
    return this.charge(chargeId).first();
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
   * this caller made the change, undefined when someone else already did. `note`: a note for
   * the merchant written in the same statement (a payment held on arrival).
   */
  async transition(
    chargeId: string,
    from: readonly LocalChargeStatus[],
    to: LocalChargeStatus,
    extra: Partial<
      Pick<
        ChargeRow,
        "paid_at" | "api_amount_cents" | "api_paid_at" | "settlement" | "settlement_reason"
      >
    > = {},
    note?: FlagReason,
  ): Promise<ChargeRow | undefined> {
    // A final status needs no more checks; a grace period schedules its own (collection.ts).
    const final = to === "paid" || to === "expired" || to === "failed";
    const rows = await this.charge(chargeId)
      .whereIn("status", from as LocalChargeStatus[])
      .update({
        status: to,
        updated_at: new Date(),
        last_checked_at: new Date(),
        ...(final ? { next_check_at: null } : {}),
        ...extra,
        ...(note ? this.flagColumns(note) : {}),
      })
      .returning("*");
    return rows[0] as ChargeRow | undefined;
  }

  /**
   * Takes the capture of a paid charge for `leaseMs`. Only one holder has it at a time (the
   * holder may take it again), and
   * a claim whose holder died (crash, deploy, killed mid-workflow) lapses after the lease, so
   * the charge is captured by the next delivery or reconciliation run instead of never. The
   * lease uses the database clock, so instances with skewed clocks agree on it.
   */
  async claimCapture(
    chargeId: string,
    holder: string,
    leaseMs = CAPTURE_LEASE_MS,
  ): Promise<boolean> {
    const count = await this.charge(chargeId)
      .whereNull("captured_at")
      .where({ settlement: "capturable" })
      .where((q) =>
        q
          .whereNull("capture_claimed_at")
          .orWhere({ capture_claimed_by: holder })
          .orWhereRaw("capture_claimed_at < now() - make_interval(secs => ?)", [leaseMs / 1000]),
      )
      .update({
        capture_claimed_at: this.db.fn.now(),
        capture_claimed_by: holder,
        updated_at: new Date(),
      });
    return count === 1;
  }

  /**
   * Records that the capture is done (Medusa holds it captured), and, in the same statement,
   * that the charge now waits to see its cart become an order: a restart or a failed query
   * right after a capture then leaves a row reconciliation finds, never a paid cart nothing
   * retries. True for the one caller that recorded it first.
   */
  async confirmCapture(chargeId: string): Promise<boolean> {
    const count = await this.charge(chargeId).whereNull("captured_at").update({
      captured_at: this.db.fn.now(),
      settlement: "captured",
      awaiting_order_since: this.db.fn.now(),
      updated_at: new Date(),
    });
    return count === 1;
  }

  /** The captured charge's cart is an order (or has no cart left to become one). */
  async orderSeen(chargeId: string): Promise<void> {
    await this.charge(chargeId)
      .whereNotNull("awaiting_order_since")
      .update({ awaiting_order_since: null });
  }

  /**
   * Gives a capture claim back when the capture itself failed, so a retry can take it. Only its
   * holder can: a slow capture whose lease lapsed must not release the claim of the process
   * that took over.
   */
  async releaseCapture(chargeId: string, holder: string): Promise<void> {
    await this.charge(chargeId)
      .whereNull("captured_at")
      .where({ capture_claimed_by: holder })
      .update({ capture_claimed_at: null, capture_claimed_by: null });
  }

  /**
   * A paid charge no order can come of (captured or not: a cart that failed to become an
   * order after its capture too) waits for the merchant as a refund due, with its note, in one
   * statement: no failure can leave one without the other. Returns the row when this call
   * marked it; a charge already due a refund is left as it is.
   */
  async markRefundDue(
    chargeId: string,
    reason: string,
    note: FlagReason,
  ): Promise<ChargeRow | undefined> {
    const rows = await this.charge(chargeId)
      .where({ status: "paid" })
      .where((q) => q.whereNull("settlement").orWhereNot({ settlement: "refund_due" }))
      .update({
        settlement: "refund_due",
        settlement_reason: reason,
        // No order is waited for: the money goes back.
        awaiting_order_since: null,
        ...this.flagColumns(note),
        updated_at: new Date(),
      })
      .returning("*");
    return rows[0] as ChargeRow | undefined;
  }

  /**
   * Moves a paid charge's settlement, only from one of `from` (a conditional UPDATE, like
   * `transition`), with its note for the merchant written or resolved in the same statement.
   * Returns the row when this call moved it.
   */
  async settle(
    chargeId: string,
    from: readonly (Settlement | null)[],
    to: Settlement,
    reason: string | null,
    with_: { note?: FlagReason; resolution?: string } = {},
  ): Promise<ChargeRow | undefined> {
    const named = from.filter((value): value is Settlement => value !== null);
    const rows = await this.charge(chargeId)
      .where({ status: "paid" })
      .whereNull("captured_at")
      .where((q) => {
        q.whereIn("settlement", named);
        if (from.includes(null)) q.orWhereNull("settlement");
      })
      .update({
        settlement: to,
        settlement_reason: reason,
        ...(with_.note ? this.flagColumns(with_.note) : {}),
        ...(with_.resolution !== undefined ? this.resolutionColumns(with_.resolution) : {}),
        updated_at: new Date(),
      })
      .returning("*");
    return rows[0] as ChargeRow | undefined;
  }

  /**
   * Every charge the merchant must see ("Needs attention"), each with its `attention`, newest
   * first (admin list; see `Attention`).
   */
  async needingAttention(limit: number): Promise<(ChargeRow & { attention: Attention })[]> {
    const result = await this.db.raw(
      `select * from (
         select *, ${ATTENTION_SQL} as attention from ${CHARGES}
         where ${MAY_NEED_ATTENTION_SQL}
       ) c where attention is not null order by updated_at desc limit ?`,
      [limit],
    );
    return result.rows as (ChargeRow & { attention: Attention })[];
  }

  /** How many charges need the merchant, by what they need (health card, alerts, metrics). */
  async attentionCounts(): Promise<Record<Attention, number>> {
    const result = await this.db.raw(
      `select attention, count(*) as n from (
         select ${ATTENTION_SQL} as attention from ${CHARGES} where ${MAY_NEED_ATTENTION_SQL}
       ) c where attention is not null group by attention`,
    );
    const counts: Record<Attention, number> = {
      held: 0,
      refund_due: 0,
      no_order: 0,
      not_captured: 0,
      note: 0,
    };
    for (const row of result.rows as { attention: Attention; n: string }[]) {
      counts[row.attention] = Number(row.n);
    }
    return counts;
  }

  /** A charge with what it needs from the merchant (the admin's answers about one charge). */
  async withAttention(
    chargeId: string,
  ): Promise<(ChargeRow & { attention: Attention | null }) | undefined> {
    return this.charge(chargeId)
      .select("*", this.db.raw(`${ATTENTION_SQL} as attention`))
      .first();
  }

  /** What one charge needs from the merchant, if anything (see `Attention`). */
  async attentionOf(chargeId: string): Promise<Attention | null> {
    const result = await this.db.raw(
      `select ${ATTENTION_SQL} as attention from ${CHARGES}
        where charge_id = ? and deleted_at is null`,
      [chargeId],
    );
    return (result.rows[0] as { attention: Attention | null } | undefined)?.attention ?? null;
  }

  /** Charges, newest first, optionally of one status (admin list). */
  async list(filter: {
    status?: LocalChargeStatus;
    limit: number;
  }): Promise<(ChargeRow & { attention: Attention | null })[]> {
    const query = this.db(CHARGES)
      .select("*", this.db.raw(`${ATTENTION_SQL} as attention`))
      .whereNull("deleted_at");
    if (filter.status) query.where({ status: filter.status });
    return query.orderBy("updated_at", "desc").limit(filter.limit);
  }

  /**
   * Marks a charge for the merchant's attention, with its reason as a code and values. Use
   * `ChargeLifecycle.flag`, which also puts it on the timeline and emits the event.
   */
  async flag(chargeId: string, reason: FlagReason): Promise<ChargeRow | undefined> {
    const rows = await this.charge(chargeId)
      .update({ ...this.flagColumns(reason), updated_at: new Date() })
      .returning("*");
    return rows[0] as ChargeRow | undefined;
  }

  /** The columns of an open note for the merchant, for an UPDATE that writes it with others. */
  flagColumns(reason: FlagReason): Record<string, unknown> {
    const { code, ...detail } = reason;
    return {
      flagged: true,
      flag_code: code,
      flag_detail: this.db.raw("?::jsonb", [JSON.stringify(detail)]),
      flag_resolved_at: null,
      flag_resolution_note: null,
    };
  }

  /** The merchant dealt with a flag; the note says how. */
  async resolveFlag(chargeId: string, note: string): Promise<ChargeRow | undefined> {
    const rows = await this.charge(chargeId)
      .where({ flagged: true })
      .update({ ...this.resolutionColumns(note), updated_at: new Date() })
      .returning("*");
    return rows[0] as ChargeRow | undefined;
  }

  /** The columns of a resolved note, for an UPDATE that resolves it with others. */
  resolutionColumns(note: string): Record<string, unknown> {
    return {
      flagged: false,
      flag_resolved_at: this.db.raw("case when flagged then now() else flag_resolved_at end"),
      flag_resolution_note: this.db.raw("case when flagged then ? else flag_resolution_note end", [
        note,
      ]),
    };
  }

  /**
   * Claims up to `limit` charges whose next reminder is due at `now`, by moving it a lease
   * ahead in the same statement (`skip locked`), as `claimDueChecks` does for checks: two
   * instances take different charges, and a claimer that dies lets the lease run out. The
   * partial index on `next_reminder_at` makes an idle pass cost one index probe, whatever the
   * history.
   */
  async claimDueReminders(now: Date, limit: number, leaseMs: number): Promise<ChargeRow[]> {
    const result = await this.db.raw(
      `update ${CHARGES} c set next_reminder_at = ? from (
         select id from ${CHARGES}
         where deleted_at is null and next_reminder_at <= ?
         order by next_reminder_at asc limit ? for update skip locked
       ) due where c.id = due.id returning c.*`,
      [new Date(now.getTime() + leaseMs), now, limit],
    );
    return result.rows as ChargeRow[];
  }

  /** Sets when the charge's next reminder falls due (null: its cadence is over). */
  async scheduleReminder(chargeId: string, at: Date | null): Promise<void> {
    await this.charge(chargeId).update({ next_reminder_at: at });
  }

  /** Notes that the API was asked about this charge just now. */
  async touch(chargeId: string): Promise<void> {
    await this.charge(chargeId).update({ last_checked_at: new Date() });
  }

  /**
   * Claims up to `limit` pending (or locally canceled) charges whose check is due, and expired
   * boletos inside their grace period (a bank may still confirm them), oldest due
   * first, by moving their `next_check_at` a lease ahead in the same statement. Two instances
   * running reconciliation at once claim different rows (`skip locked`), so each charge is
   * asked about once per due time; a claimer that dies simply lets the lease run out.
   * Each row also carries `due_at`, the `next_check_at` it was claimed at.
   */
  async claimDueChecks(
    now: Date,
    limit: number,
    leaseMs = CHECK_LEASE_MS,
  ): Promise<(ChargeRow & { due_at: Date })[]> {
    const result = await this.db.raw(
      `update ${CHARGES} c set next_check_at = ? from (
         select id, next_check_at as due_at from ${CHARGES}
         where deleted_at is null and status in ('pending', 'canceled', 'expired') and next_check_at <= ?
         order by next_check_at asc limit ? for update skip locked
       ) due where c.id = due.id returning c.*, due.due_at`,
      [new Date(now.getTime() + leaseMs), now, limit],
    );
    return (result.rows as (ChargeRow & { due_at: Date })[]).sort(
      (a, b) => new Date(a.created_at).getTime() - new Date(b.created_at).getTime(),
    );
  }

  /**
   * A shopper is watching this pending charge: make its next check no later than `withinMs`
   * from now (database clock). A charge already due sooner, or not pending, is left alone.
   */
  async expediteCheck(chargeId: string, withinMs: number): Promise<void> {
    await this.charge(chargeId)
      .where({ status: "pending" })
      .where("check_failures", 0)
      .whereRaw("next_check_at > now() + make_interval(secs => ?)", [withinMs / 1000])
      .update({
        next_check_at: this.db.raw("now() + make_interval(secs => ?)", [withinMs / 1000]),
      });
  }

  /** Sets when the API is next asked about a charge; a check that worked resets the failures. */
  async scheduleCheck(chargeId: string, at: Date | null): Promise<void> {
    await this.charge(chargeId).update({ next_check_at: at, check_failures: 0 });
  }

  /**
   * Records a failed check and backs the row off: 1 min after the first failure, doubling up
   * to an hour. Returns the failures so far; at `CHECK_ATTEMPTS` the caller flags the charge
   * and the row is left out of automatic checks (`next_check_at` = infinity).
   */
  async recordCheckFailure(chargeId: string, now: Date): Promise<number> {
    const rows = (await this.charge(chargeId)
      .update({ check_failures: this.db.raw("check_failures + 1") })
      .returning("check_failures")) as { check_failures: number }[];
    const failures = Number(rows[0]?.check_failures ?? 0);
    const backoffMs = Math.min(60 * 60_000, 60_000 * 2 ** Math.max(0, failures - 1));
    await this.charge(chargeId).update({
      next_check_at:
        failures >= CHECK_ATTEMPTS
          ? this.db.raw("'infinity'::timestamptz")
          : new Date(now.getTime() + backoffMs),
    });
    return failures;
  }

  /**
   * Paid charges with no capture and no live claim (its holder died, or none took it), that
   * have not yet failed `CAPTURE_ATTEMPTS` times (those wait for the merchant, flagged).
   */
  async paidNotCaptured(limit: number, leaseMs = CAPTURE_LEASE_MS): Promise<ChargeRow[]> {
    return (
      this.db<ChargeRow>(CHARGES)
        .where({ status: "paid" })
        .whereNull("captured_at")
        .whereNull("deleted_at")
        // Held and refund-due charges wait for the merchant. Written as in the partial index
        // IDX_pix_checkout_charge_capture_due, so the planner reads only that index: paid
        // charges still to capture, not every paid charge ever.
        .where({ settlement: "capturable" })
        .whereRaw(
          // `deleted_at is null` lets Postgres use the partial index on the events' charge_id.
          `(select count(*) from ${EVENTS} e where e.charge_id = ${CHARGES}.charge_id and e.deleted_at is null and e.kind = 'capture_failed') < ?`,
          [CAPTURE_ATTEMPTS],
        )
        .where((q) =>
          q
            .whereNull("capture_claimed_at")
            .orWhereRaw("capture_claimed_at < now() - make_interval(secs => ?)", [leaseMs / 1000]),
        )
        .orderBy("paid_at", "asc")
        .limit(limit)
    );
  }

  /**
   * Captured charges whose cart has not been seen become an order since before `before`
   * (reconciliation completes them). Read from `awaiting_order_since`, whose partial index
   * IDX_pix_checkout_charge_awaiting_order holds only these rows.
   */
  async awaitingOrder(before: Date, limit: number): Promise<ChargeRow[]> {
    return this.db<ChargeRow>(CHARGES)
      .whereNotNull("awaiting_order_since")
      .whereNull("deleted_at")
      .where("awaiting_order_since", "<", before)
      .where({ status: "paid" })
      .whereNotNull("captured_at")
      .orderBy("awaiting_order_since", "asc")
      .limit(limit);
  }

  /**
   * The merchant declared all of a paid charge's money returned: it stands `refunded`, and no
   * order is waited for. Pass a transaction as the records' `db`, so the declaration and this
   * are written together.
   */
  async markRefunded(chargeId: string): Promise<ChargeRow | undefined> {
    const rows = await this.charge(chargeId)
      .where({ status: "paid" })
      .where((q) => q.whereNull("settlement").orWhereNot({ settlement: "refunded" }))
      .update({ settlement: "refunded", awaiting_order_since: null, updated_at: new Date() })
      .returning("*");
    return rows[0] as ChargeRow | undefined;
  }

  /** The charges of these payment collections, newest first (the admin's order view). */
  async ofCollections(
    collectionIds: readonly string[],
  ): Promise<(ChargeRow & { attention: Attention | null })[]> {
    if (collectionIds.length === 0) return [];
    return this.db(CHARGES)
      .select("*", this.db.raw(`${ATTENTION_SQL} as attention`))
      .whereIn("payment_collection_id", collectionIds as string[])
      .whereNull("deleted_at")
      .orderBy("created_at", "desc");
  }

  /**
   * Retention: takes up to `limit` finished charges (below) last changed before `cutoff` and not
   * compacted yet, oldest first after `after`, locking them (`for update skip locked`, so call it
   * inside a transaction; see operations/retention.ts).
   *
   * Finished: no open note, no cart waiting to become an order, no money waiting for the
   * merchant (held or a refund due), and either paid and captured (or refunded), or
   * unpaid and closed (expired, failed or canceled) with no check scheduled and its expiry and
   * any boleto grace period over.
   */
  async pickFinished(
    cutoff: Date,
    limit: number,
    after: CompactionKey | null,
  ): Promise<{ id: string; charge_id: string; created_at: Date }[]> {
    const picked = await this.db.raw(
      // `deleted_at is null and compacted_at is null` and the (created_at, id) key match
      // IDX_pix_checkout_charge_not_compacted; charges compacted earlier are not in it.
      `select id, charge_id, created_at from ${CHARGES}
       where deleted_at is null and compacted_at is null
         and created_at < ? and (created_at, id) > (?::timestamptz, ?)
         and updated_at < ? and flagged = false and awaiting_order_since is null
         and (
           (status = 'paid' and settlement in ('captured', 'refunded') and updated_at < ?)
           or (status in ('expired', 'failed', 'canceled') and paid_at is null and next_check_at is null
               and coalesce(order_hold_until, expires_at, created_at) < ?)
         )
       order by created_at, id limit ? for update skip locked`,
      [cutoff, after?.created_at ?? new Date(0), after?.id ?? "", cutoff, cutoff, cutoff, limit],
    );
    return picked.rows as { id: string; charge_id: string; created_at: Date }[];
  }

  /** Notes that retention compacted these charges' history (row ids, not charge ids). */
  async markCompacted(ids: readonly string[]): Promise<void> {
    await this.db(CHARGES)
      .whereIn("id", ids as string[])
      .update({ compacted_at: this.db.fn.now() });
  }
}
