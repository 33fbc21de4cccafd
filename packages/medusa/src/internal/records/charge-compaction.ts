import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { CHARGES } from "./charges";

/** Where retention continues after a batch of finished charges (see pickFinished). */
export interface CompactionKey {
  created_at: Date;
  id: string;
}

/** Which charges are finished, for retention to compact their history (operations/retention.ts). */
export class ChargeCompaction {
  constructor(private readonly db: Knex) {}

  /**
   * Retention: takes up to `limit` finished charges (below) last changed before `cutoff` and not
   * compacted yet, oldest first after `after`, locking them (`for update skip locked`, so call it
   * inside a transaction; see operations/retention.ts).
   *
   * Finished: no open note, no cart waiting to become an order, no money waiting for the
   * merchant (held or owed back), and either paid with all its money captured or returned, or
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
           (status = 'paid' and held_cents = 0 and owed_cents = 0 and updated_at < ?)
           or (status in ('expired', 'failed', 'canceled') and paid_at is null and next_check_at is null
               and coalesce(order_hold_until, expires_at, created_at) < ?)
         )
       order by created_at, id limit ? for update skip locked`,
      [cutoff, after?.created_at ?? new Date(0), after?.id ?? "", cutoff, cutoff, cutoff, limit],
    );
    return picked.rows as { id: string; charge_id: string; created_at: Date }[];
  }

  /**
   * Notes that retention compacted these charges' history (row ids, not charge ids), and forgets
   * the buyer's document they were created with: Medusa's order holds it by then (LGPD: the
   * plugin keeps personal data no longer than it needs it).
   */
  async markCompacted(ids: readonly string[]): Promise<void> {
    await this.db(CHARGES)
      .whereIn("id", ids as string[])
      .update({ compacted_at: this.db.fn.now(), buyer_document: null });
  }
}
