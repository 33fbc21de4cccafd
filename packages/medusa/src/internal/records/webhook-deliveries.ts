import { generateEntityId } from "@medusajs/framework/utils";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";

const DELIVERIES = "pix_checkout_webhook_delivery";

/** Tries of a delivery that names no charge of this store (see `unfinished`). */
export const UNMATCHED_TRIES = 6;

/** Delivery outcomes no retry will change (see unfinished for the others). */
const FINISHED_OUTCOMES = ["processed", "duplicate", "forged", "recorded", "failed"] as const;

/**
 * The SQL of `pix_checkout_webhook_delivery`: every webhook delivery, stored before it is
 * answered, and what processing it decided. Pass a transaction as `db` to take part in it.
 */
export class WebhookDeliveries {
  constructor(private readonly db: Knex) {}

  /**
   * Retention for deliveries that named no charge of this store (forged, or for another
   * store): deletes up to `limit` finished ones received before `cutoff`. Returns how many.
   */
  async deleteChargeless(cutoff: Date, limit: number): Promise<number> {
    const result = await this.db.raw(
      `delete from ${DELIVERIES} where id in (
         select id from ${DELIVERIES}
         where deleted_at is null and charge_id is null and created_at < ?
           and (outcome in (${FINISHED_OUTCOMES.map(() => "?").join(", ")}) or attempts >= 20)
         order by created_at limit ?
       )`,
      [cutoff, ...FINISHED_OUTCOMES, limit],
    );
    return Number(result.rowCount ?? 0);
  }

  /**
   * Retention for deliveries that named a charge this store never had (forged, or for another
   * store) and ran out of tries: deletes up to `limit` received before `cutoff`, like any
   * finished charge's. Returns how many.
   */
  async deleteUnmatched(cutoff: Date, limit: number): Promise<number> {
    const result = await this.db.raw(
      `delete from ${DELIVERIES} where id in (
         select d.id from ${DELIVERIES} d
         where d.deleted_at is null and d.created_at < ? and d.outcome = 'unmatched'
           and d.attempts >= ?
           and not exists (select 1 from pix_checkout_charge c
                            where c.charge_id = d.charge_id and c.deleted_at is null)
         order by d.created_at limit ?
       )`,
      [cutoff, UNMATCHED_TRIES, limit],
    );
    return Number(result.rowCount ?? 0);
  }

  /** Stores a webhook delivery before it is answered. Returns its id. */
  async insert(delivery: {
    providerKey: string;
    event: string;
    chargeId: string | null;
    body: unknown;
  }): Promise<string> {
    const id = generateEntityId(undefined, "pxwh");
    const now = new Date();
    await this.db(DELIVERIES).insert({
      id,
      provider_key: delivery.providerKey,
      event: delivery.event,
      charge_id: delivery.chargeId,
      body: JSON.stringify(delivery.body),
      outcome: "received",
      attempts: 0,
      created_at: now,
      updated_at: now,
    });
    return id;
  }

  /** How many times a delivery was processed so far. */
  async attempts(id: string): Promise<number> {
    const row = (await this.db(DELIVERIES).where({ id }).first("attempts")) as
      { attempts: number } | undefined;
    return Number(row?.attempts ?? 0);
  }

  /**
   * Records what processing a delivery decided. `chargeId`: the charge the API says the
   * delivery names (a Variant B event names it by the service's `uuid`), so the delivery is
   * kept under the id the plugin knows it by, on the charge's timeline and in its retention.
   */
  async finish(id: string, outcome: string, detail?: string, chargeId?: string): Promise<void> {
    await this.db(DELIVERIES)
      .where({ id })
      .update({
        outcome,
        detail: detail ?? null,
        ...(chargeId === undefined ? {} : { charge_id: chargeId }),
        processed_at: new Date(),
        updated_at: new Date(),
        attempts: this.db.raw("attempts + 1"),
      });
  }

  /**
   * Deliveries not processed yet (the process answering them stopped), not matched yet, or
   * failed, whose retry is due: each one backs off on its own (15 s after its last try,
   * doubling up to an hour), so a few that keep failing never hold the batch's head. One that
   * names no charge of this store is tried `UNMATCHED_TRIES` times (about 16 minutes: a
   * webhook that beat its charge's record finds it within seconds); anyone can post one, so
   * that is all one may cost.
   */
  async unfinished(now: Date, olderThan: Date, limit: number): Promise<Record<string, unknown>[]> {
    const dueAt = `coalesce(processed_at, created_at) + make_interval(secs => least(15 * power(2, attempts), 3600))`;
    return this.db(DELIVERIES)
      .whereIn("outcome", ["received", "unmatched", "error"])
      .whereNull("deleted_at")
      .where("created_at", "<", olderThan)
      .where("attempts", "<", 20)
      .where((q) => q.whereNot({ outcome: "unmatched" }).orWhere("attempts", "<", UNMATCHED_TRIES))
      .whereRaw(`${dueAt} <= ?`, [now])
      .orderByRaw(dueAt)
      .limit(limit);
  }

  /** Deliveries, newest first (admin view and tests). */
  async latest(limit = 50): Promise<Record<string, unknown>[]> {
    return this.db(DELIVERIES).orderBy("created_at", "desc").limit(limit);
  }

  /** The deliveries that named these charges, oldest first (the admin's order view). */
  async ofCharges(chargeIds: readonly string[]): Promise<Record<string, unknown>[]> {
    if (chargeIds.length === 0) return [];
    // `deleted_at is null` matches the table's partial index on charge_id.
    return this.db(DELIVERIES)
      .whereIn("charge_id", chargeIds as string[])
      .whereNull("deleted_at")
      .orderBy("created_at", "asc");
  }

  /** Retention: deletes the finished deliveries of these charges. Returns how many. */
  async deleteFinishedOf(chargeIds: readonly string[]): Promise<number> {
    const deleted = await this.db(DELIVERIES)
      .whereIn("charge_id", chargeIds as string[])
      .whereNull("deleted_at")
      // Out of tries (see unfinished) is as finished as a final outcome.
      .where((q) =>
        q
          .whereIn("outcome", FINISHED_OUTCOMES as unknown as string[])
          .orWhere("attempts", ">=", 20),
      )
      .delete();
    return Number(deleted);
  }
}
