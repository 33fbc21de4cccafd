import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { CHARGES, liveCharge, type ChargeRow } from "./charges";
import type { ClaimDoor, ClaimHolder } from "./claim-door";
import { CAPTURE_LEASE_MS, liveClaimSql } from "./ledger";
import { CAPTURABLE_HELD } from "./ledger-parts";

/**
 * Failed captures after which a paid charge is flagged and on the merchant's list. Retrying
 * does not stop there: reconciliation keeps trying on `captureRetryDelayMs`'s schedule until the
 * capture lands or the merchant decides (accepts, records a refund), so a Medusa down for an hour
 * or a day costs a shopper no order.
 */
export const CAPTURE_ATTEMPTS = 3;

/** The first retry after a failed capture; each further failure doubles it, up to the cap. */
export const CAPTURE_RETRY_FIRST_MS = 60_000;
/** The longest wait between two tries: a capture failing for days is still tried four times a day. */
export const CAPTURE_RETRY_MAX_MS = 6 * 60 * 60_000;

/** How long after its `failures`-th failed capture a charge is tried again (1 min, 2, 4, … 6 h). */
export function captureRetryDelayMs(failures: number): number {
  if (failures <= 0) return 0;
  return Math.min(CAPTURE_RETRY_MAX_MS, CAPTURE_RETRY_FIRST_MS * 2 ** Math.min(failures - 1, 20));
}

/** Read only, to count a charge's failed captures (see paidNotCaptured); ChargeEvents writes it. */
const EVENTS = "pix_checkout_charge_event";

/**
 * The right to capture a charge's held money (`capture_claimed_*`, `capture_claim_door`), which
 * only one door holds at a time, and what waits for a capture or, once captured, for its cart to
 * become an order. A claim is live only while its lease runs and the held money still covers it
 * (records/ledger.ts `liveClaimSql`).
 */
export class CaptureClaims {
  constructor(private readonly db: Knex) {}

  /**
   * Takes the capture of a paid charge's held money (`amountCents` of it) for `leaseMs`. Only
   * one holder has it at a time (the holder may take it again), and a claim whose holder died
   * (crash, deploy, killed mid-workflow) lapses after the lease, so the charge is captured by
   * the next delivery or reconciliation run instead of never. The lease uses the database
   * clock, so instances with skewed clocks agree on it. Only money held for Medusa's capture
   * can be claimed, never what waits for the merchant.
   */
  async claim(
    chargeId: string,
    holder: ClaimHolder,
    amountCents: number,
    leaseMs = CAPTURE_LEASE_MS,
  ): Promise<boolean> {
    const count = await liveCharge(this.db, chargeId)
      .whereNull("captured_at")
      .where("held_cents", ">=", amountCents)
      .whereIn("held_reason", CAPTURABLE_HELD as string[])
      .where((q) =>
        q
          .whereRaw(`not ${liveClaimSql(CHARGES, leaseMs)}`)
          .orWhere({ capture_claim_door: holder.door, capture_claimed_by: holder.id }),
      )
      .update({
        capture_claimed_at: this.db.fn.now(),
        capture_claimed_by: holder.id,
        capture_claim_door: holder.door,
        capture_claimed_cents: amountCents,
        updated_at: new Date(),
      });
    return count === 1;
  }

  /**
   * The amount a live claim of `door` captures (the database's clock decides whether its lease
   * still runs, and the held money whether it still covers it); undefined when there is none.
   */
  async liveClaimOf(
    chargeId: string,
    door: ClaimDoor,
    leaseMs = CAPTURE_LEASE_MS,
  ): Promise<number | undefined> {
    const row = (await liveCharge(this.db, chargeId)
      .where({ capture_claim_door: door })
      .whereRaw(liveClaimSql(CHARGES, leaseMs))
      .first("capture_claimed_cents")) as { capture_claimed_cents: string | null } | undefined;
    return row?.capture_claimed_cents == null ? undefined : Number(row.capture_claimed_cents);
  }

  /**
   * Gives a capture claim back when the capture itself failed, so a retry can take it. Only its
   * holder can: a slow capture whose lease lapsed must not release the claim of the process
   * that took over.
   */
  async release(chargeId: string, holder: ClaimHolder): Promise<void> {
    await liveCharge(this.db, chargeId)
      .whereNull("captured_at")
      .where({ capture_claim_door: holder.door, capture_claimed_by: holder.id })
      .update({
        capture_claimed_at: null,
        capture_claimed_by: null,
        capture_claim_door: null,
        capture_claimed_cents: null,
      });
  }

  /**
   * Paid charges holding money for Medusa's capture with no live claim (its holder died, or
   * none took it) whose next try is due at `now`: never failed, or failed `n` times and the
   * last failure is `captureRetryDelayMs(n)` old (the same schedule, in SQL).
   */
  async paidNotCaptured(
    limit: number,
    now: Date = new Date(),
    leaseMs = CAPTURE_LEASE_MS,
  ): Promise<ChargeRow[]> {
    return (
      this.db<ChargeRow>(CHARGES)
        .whereNull("deleted_at")
        // Money that waits for the merchant is not here. Written as in the partial index
        // IDX_pix_checkout_charge_capture_due, so the planner reads only that index: money
        // still to capture, not every paid charge ever.
        .where("held_cents", ">", 0)
        .whereIn("held_reason", CAPTURABLE_HELD as string[])
        .whereRaw(
          // `deleted_at is null` lets Postgres use the partial index on the events' charge_id.
          // No row from the subquery: never failed, or its wait is over.
          `not exists (select 1 from ${EVENTS} e where e.charge_id = ${CHARGES}.charge_id and e.deleted_at is null and e.kind = 'capture_failed'
             having max(e.created_at) + least(
               make_interval(secs => ? * power(2, least(count(*) - 1, 20))),
               make_interval(secs => ?)) > ?)`,
          [CAPTURE_RETRY_FIRST_MS / 1000, CAPTURE_RETRY_MAX_MS / 1000, now],
        )
        .whereRaw(`not ${liveClaimSql(CHARGES, leaseMs)}`)
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
      .where("captured_cents", ">", 0)
      .orderBy("awaiting_order_since", "asc")
      .limit(limit);
  }

  /**
   * The captured charge's cart is an order (or has no cart left to become one). True when this
   * call is the one that saw it (the charge was still waiting).
   */
  async orderSeen(chargeId: string): Promise<boolean> {
    const cleared = await liveCharge(this.db, chargeId)
      .whereNotNull("awaiting_order_since")
      .update({ awaiting_order_since: null });
    return Number(cleared) > 0;
  }
}
