import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { CHARGES, liveCharge, type ChargeRow, type LocalChargeStatus } from "./charges";

/**
 * What a charge needs from the merchant ("Needs attention"), read from where its money stands
 * (the ledger's parts, records/ledger.ts), never from a flag (which can be resolved or
 * overwritten), then from an open note:
 * - `held`: less money arrived than the code asked for (Accept received amount, or refund);
 * - `refund_due`: money is owed back to the shopper (record the refund once returned), beyond
 *   what an open MED blocked of it (the case's outcome settles that);
 * - `no_order`: captured, and its cart has not become an order for a while;
 * - `not_captured`: held for Medusa's capture, and Medusa has not captured it for a while;
 * - `med`: a MED blocked money (bloqueio cautelar; owed or captured): its outcome is the merchant's to
 *   record (Devolvido pelo MED, or Mantido);
 * - `note`: an open note only (a late payment, a checks that keep failing, ...).
 */
export type Attention = "held" | "refund_due" | "no_order" | "not_captured" | "med" | "note";

/** How long a capture or a cart completion may take before its charge needs the merchant. */
export const ATTENTION_GRACE_MS = 2 * 60_000;

/**
 * `Attention` in SQL, over a `pix_checkout_charge` row (the one definition: the admin's list,
 * the health card, its alerts and the metrics read it). Null when nothing is needed.
 */
export const ATTENTION_SQL = `case
  when owed_cents > (case when med_state = 'open' then med_blocked_owed_cents else 0 end)
    then 'refund_due'
  when held_cents > 0 and held_reason = 'underpaid' then 'held'
  when captured_cents > 0 and awaiting_order_since is not null
    and awaiting_order_since < now() - interval '${ATTENTION_GRACE_MS / 1000} seconds' then 'no_order'
  when held_cents > 0 and paid_at < now() - interval '${ATTENTION_GRACE_MS / 1000} seconds' then 'not_captured'
  when contested_cents > 0 or med_state = 'open' then 'med'
  when flagged then 'note'
end`;

/**
 * The rows that may need attention, as the partial index IDX_pix_checkout_charge_attention
 * holds them (a superset of `ATTENTION_SQL`: the grace periods are read per row), so a list
 * of them reads that index, not the history.
 */
export const MAY_NEED_ATTENTION_SQL = `deleted_at is null and (flagged or held_cents > 0
  or owed_cents > 0 or awaiting_order_since is not null or contested_cents > 0)`;

/**
 * What the merchant must look at, read from `ATTENTION_SQL` over the charge table: the "Needs
 * attention" list, its counts (health card, alerts, metrics), one charge's, and the admin's
 * lists that show it beside each charge.
 */
export class ChargeAttention {
  constructor(private readonly db: Knex) {}

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
      med: 0,
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
    return liveCharge(this.db, chargeId)
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
}
