import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { CHARGES } from "../records/charges";
import {
  NEAR_DEADLINE_PAID_BEFORE_DAYS,
  owedOnTheClock,
  refundDeadline,
  type RefundDeadline,
} from "../records/refund-deadline";

/** A charge whose Pix money owed back is 15 days or fewer from its deadline, or past it. */
export interface OwedNearDeadline {
  charge_id: string;
  payment_collection_id: string | null;
  owed_cents: number;
  paid_at: Date;
  deadline: RefundDeadline;
}

/**
 * The owed Pix amounts near or past their devolução deadline at `now` (the database's clock),
 * nearest first: the health card's line and the alerts of each charge. Only selects; rows of
 * the "Needs attention" index (money owed), paid long enough ago to be within 15 days of their
 * deadline, each then asked of the one rule (records/refund-deadline.ts), which leaves out
 * owed money an open MED blocked.
 */
export async function owedNearDeadline(db: Knex, now: Date): Promise<OwedNearDeadline[]> {
  const result = (await db.raw(
    `select charge_id, payment_collection_id, method, paid_at, owed_cents, med_state,
            med_blocked_owed_cents from ${CHARGES}
      where deleted_at is null and owed_cents > 0 and method = 'pix' and paid_at is not null
        and paid_at < ?::timestamptz - make_interval(days => ?)`,
    [now.toISOString(), NEAR_DEADLINE_PAID_BEFORE_DAYS],
  )) as {
    rows: {
      charge_id: string;
      payment_collection_id: string | null;
      method: "pix";
      paid_at: Date;
      owed_cents: string | number;
      med_state: string | null;
      med_blocked_owed_cents: string | number | null;
    }[];
  };
  const near: OwedNearDeadline[] = [];
  for (const row of result.rows) {
    const deadline = refundDeadline(row, now);
    if (!deadline || deadline.state === "ok") continue;
    near.push({
      charge_id: row.charge_id,
      payment_collection_id: row.payment_collection_id,
      // Owed money an open MED blocked asks for no devolução while the case is open.
      owed_cents: owedOnTheClock(row),
      paid_at: new Date(row.paid_at),
      deadline,
    });
  }
  return near.sort((a, b) => a.deadline.days_left - b.deadline.days_left);
}
