import { generateEntityId } from "@medusajs/framework/utils";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";

/**
 * What follows a capture, written in the statement that records it (Ledger.capture) and
 * delivered at least once, each idempotently (settlement/follow-ups.ts):
 * - `order_transactions`: the capture on the order's transactions, so Medusa's order shows it
 *   paid;
 * - `announce_captured`: `pix_checkout.charge.captured`, and with it the shopper's "paid"
 *   message, once the cart is an order;
 * - `order_canceled_check`: an order canceled while the payment was being captured makes that
 *   money owed back.
 */
export const FOLLOW_UP_KINDS = [
  "order_transactions",
  "announce_captured",
  "order_canceled_check",
] as const;

/** One kind of follow-up. */
export type FollowUpKind = (typeof FOLLOW_UP_KINDS)[number];

/** A row of `pix_checkout_outbox`. */
export interface FollowUpRow {
  id: string;
  charge_id: string;
  kind: FollowUpKind;
  due_at: Date;
  attempts: number;
  done_at: Date | null;
  outcome: string | null;
  last_error: string | null;
  created_at: Date;
}

const OUTBOX = "pix_checkout_outbox";

/** How long a delivery holds a follow-up before another may take it. */
export const FOLLOW_UP_LEASE_MS = 60_000;

/** The SQL of `pix_checkout_outbox`. Pass a transaction as `db` to take part in it. */
export class Outbox {
  constructor(private readonly db: Knex) {}

  /** The rows a capture writes, one per kind (text columns only: they go through a VALUES list). */
  static rowsOf(chargeId: string): Record<string, unknown>[] {
    return FOLLOW_UP_KINDS.map((kind) => ({
      id: generateEntityId(undefined, "pxob"),
      charge_id: chargeId,
      kind,
    }));
  }

  /**
   * Takes up to `limit` follow-ups due at `now` (the database's clock when null; of one charge,
   * when `chargeId` is given), by moving them a lease ahead in the same statement (`skip
   * locked`): two instances take different rows, and a taker that dies lets the lease run out.
   */
  async take(now: Date | null, limit: number, chargeId?: string): Promise<FollowUpRow[]> {
    const at = now ?? this.db.raw("now()");
    const result = await this.db.raw(
      `update ${OUTBOX} o set due_at = ?::timestamptz + make_interval(secs => ?), attempts = o.attempts + 1 from (
         select id from ${OUTBOX}
          where done_at is null and due_at <= ? ${chargeId ? "and charge_id = ?" : ""}
          order by due_at asc limit ? for update skip locked
       ) due where o.id = due.id returning o.*`,
      [at, FOLLOW_UP_LEASE_MS / 1000, at, ...(chargeId ? [chargeId] : []), limit],
    );
    return result.rows as FollowUpRow[];
  }

  /** A follow-up was delivered (or has nothing left to do); `outcome` says which. */
  async done(id: string, outcome: string): Promise<void> {
    await this.db(OUTBOX)
      .where({ id })
      .whereNull("done_at")
      .update({ done_at: this.db.fn.now(), outcome, last_error: null });
  }

  /** A follow-up could not be delivered yet: tried again at `at`. */
  async later(id: string, at: Date, error: string | null): Promise<void> {
    await this.db(OUTBOX)
      .where({ id })
      .whereNull("done_at")
      .update({ due_at: at, last_error: error });
  }

  /** A charge's follow-ups not delivered yet are due now (what they waited for happened). */
  async dueNow(chargeId: string): Promise<void> {
    await this.db(OUTBOX)
      .where({ charge_id: chargeId })
      .whereNull("done_at")
      .update({ due_at: this.db.fn.now() });
  }

  /** A charge's follow-ups, oldest first. */
  async ofCharge(chargeId: string): Promise<FollowUpRow[]> {
    return this.db<FollowUpRow>(OUTBOX).where({ charge_id: chargeId }).orderBy("created_at", "asc");
  }
}
