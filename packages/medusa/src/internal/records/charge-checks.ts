import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { CHARGES, liveCharge, type ChargeRow } from "./charges";

/** Failed checks in a row after which reconciliation stops asking about a charge (flagged). */
export const CHECK_ATTEMPTS = 8;

/** How long a reconciliation run holds a charge it claimed to check. */
export const CHECK_LEASE_MS = 2 * 60_000;

/**
 * When the payment service is next asked about a charge (`next_check_at`, `check_failures`,
 * `last_checked_at`): reconciliation's claims, the shopper's "I already paid" hurry, and the
 * back-off after failures.
 */
export class ChargeChecks {
  constructor(private readonly db: Knex) {}

  /** Notes that the API was asked about this charge just now. */
  async touch(chargeId: string): Promise<void> {
    await liveCharge(this.db, chargeId).update({ last_checked_at: new Date() });
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
    await liveCharge(this.db, chargeId)
      .where({ status: "pending" })
      .where("check_failures", 0)
      .whereRaw("next_check_at > now() + make_interval(secs => ?)", [withinMs / 1000])
      .update({
        next_check_at: this.db.raw("now() + make_interval(secs => ?)", [withinMs / 1000]),
      });
  }

  /** Sets when the API is next asked about a charge; a check that worked resets the failures. */
  async scheduleCheck(chargeId: string, at: Date | null): Promise<void> {
    await liveCharge(this.db, chargeId).update({ next_check_at: at, check_failures: 0 });
  }

  /**
   * Records a failed check and backs the row off: 1 min after the first failure, doubling up
   * to an hour. Returns the failures so far; at `CHECK_ATTEMPTS` the caller flags the charge
   * and the row is left out of automatic checks (`next_check_at` = infinity).
   */
  async recordCheckFailure(chargeId: string, now: Date): Promise<number> {
    const rows = (await liveCharge(this.db, chargeId)
      .update({ check_failures: this.db.raw("check_failures + 1") })
      .returning("check_failures")) as { check_failures: number }[];
    const failures = Number(rows[0]?.check_failures ?? 0);
    const backoffMs = Math.min(60 * 60_000, 60_000 * 2 ** Math.max(0, failures - 1));
    await liveCharge(this.db, chargeId).update({
      next_check_at:
        failures >= CHECK_ATTEMPTS
          ? this.db.raw("'infinity'::timestamptz")
          : new Date(now.getTime() + backoffMs),
    });
    return failures;
  }
}
