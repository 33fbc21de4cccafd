import { generateEntityId } from "@medusajs/framework/utils";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import type { LocalChargeStatus } from "./charges";

const EVENTS = "pix_checkout_charge_event";

/**
 * Every kind of line a charge's timeline holds. The admin translates each one (its test reads
 * this list), so a kind added here without its words fails that test, not a merchant's screen.
 */
export const CHARGE_EVENT_KINDS = [
  "created",
  "reused",
  "pending",
  "paid",
  "expired",
  "failed",
  "canceled",
  "superseded",
  // Superseded after it had expired: the shopper took a new code, the cart did not change.
  "renewed",
  "late_payment",
  "forged_webhook",
  "flagged",
  "held",
  "flag_resolved",
  "amount_accepted",
  "captured",
  "capture_failed",
  "order_transaction_recorded",
  "cart_completed",
  "cart_completion_failed",
  "order_kept",
  "order_canceled",
  "adopted",
  "refund_declared",
  "refund_recorded",
  // A MED blocked captured money (bloqueio cautelar), and its outcome (docs/ledger.md).
  "med_opened",
  "med_kept",
  "med_returned",
  "reminder_sent",
  "reminder_skipped",
] as const;

/** A kind of timeline line. */
export type ChargeEventKind = (typeof CHARGE_EVENT_KINDS)[number];

/** Who or what wrote a timeline line. */
export const CHARGE_EVENT_SOURCES = [
  "provider",
  "authorize",
  "order_placed",
  "webhook",
  "reconcile",
  "refresh",
  "admin",
  "recovery",
] as const;

/** A timeline line's source. */
export type ChargeEventSource = (typeof CHARGE_EVENT_SOURCES)[number];

/**
 * The SQL of `pix_checkout_charge_event`, a charge's timeline: every state change, capture
 * try, flag and refund, oldest first. Pass a transaction as `db` to take part in it.
 */
export class ChargeEvents {
  constructor(private readonly db: Knex) {}

  /** Appends to a charge's timeline; returns the line's id. */
  async add(event: {
    chargeId: string;
    kind: ChargeEventKind;
    source: ChargeEventSource;
    from?: LocalChargeStatus | null;
    to?: LocalChargeStatus | null;
    detail?: unknown;
  }): Promise<string> {
    const now = new Date();
    const id = generateEntityId(undefined, "pxev");
    await this.db(EVENTS).insert({
      id,
      charge_id: event.chargeId,
      kind: event.kind,
      source: event.source,
      from_status: event.from ?? null,
      to_status: event.to ?? null,
      detail: event.detail === undefined ? null : JSON.stringify(event.detail),
      created_at: now,
      updated_at: now,
    });
    return id;
  }

  /** How often a captured charge's cart failed to become an order, and the last reason. */
  async cartFailures(chargeId: string): Promise<{ count: number; lastMessage: string | null }> {
    const rows = (await this.db(EVENTS)
      .where({ charge_id: chargeId, kind: "cart_completion_failed" })
      .whereNull("deleted_at")
      .orderBy("created_at", "desc")
      .select("detail")) as { detail: { message?: unknown } | string | null }[];
    const last = rows[0]?.detail;
    const detail = typeof last === "string" ? (JSON.parse(last) as { message?: unknown }) : last;
    return {
      count: rows.length,
      lastMessage: typeof detail?.message === "string" ? detail.message : null,
    };
  }

  /**
   * The timeline's line for a refund the merchant declared: `amountCents` returned in the
   * service's dashboard, `medusaCents` of it money Medusa holds captured. The money itself moves
   * in the ledger, in the same transaction (operations/merchant-refund.ts).
   */
  async declareRefund(
    chargeId: string,
    amountCents: number,
    note: string,
    medusaCents: number,
  ): Promise<string> {
    return this.add({
      chargeId,
      kind: "refund_declared",
      source: "admin",
      detail: { amount_cents: amountCents, medusa_cents: medusaCents, note },
    });
  }

  /**
   * Takes `amountCents` of what the ledger returned of Medusa's money (returned entries that name
   * a Medusa payment: money Medusa held captured) and Medusa has not recorded as refunded yet.
   * False when less is left: the refund did not happen and must not be recorded. Serialized per
   * charge, so two refunds cannot both take the same return; each one taken is a
   * `refund_recorded` event.
   */
  async takeDeclaredRefund(chargeId: string, amountCents: number): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      await trx.raw("select pg_advisory_xact_lock(hashtext(?))", [`pix-refund:${chargeId}`]);
      const result = await trx.raw(
        `select (select coalesce(sum(amount_cents), 0) from pix_checkout_ledger_entry
                  where charge_id = :charge and to_part = 'returned' and medusa_ref is not null)
              - (select coalesce(sum((detail->>'amount_cents')::bigint), 0) from ${EVENTS}
                  where charge_id = :charge and kind = 'refund_recorded' and deleted_at is null)
                as cents`,
        { charge: chargeId },
      );
      const left = Number((result.rows as { cents: string }[])[0]?.cents ?? 0);
      if (left < amountCents) return false;
      const now = new Date();
      await trx(EVENTS).insert({
        id: generateEntityId(undefined, "pxev"),
        charge_id: chargeId,
        kind: "refund_recorded",
        source: "admin",
        detail: JSON.stringify({ amount_cents: amountCents }),
        created_at: now,
        updated_at: now,
      });
      return true;
    });
  }

  /** The sum of `detail.amount_cents` over a charge's events of `kind`. */
  async sum(chargeId: string, kind: string): Promise<number> {
    const result = await this.db.raw(
      `select coalesce(sum((detail->>'amount_cents')::bigint), 0)::bigint as cents from ${EVENTS}
       where charge_id = ? and kind = ? and deleted_at is null`,
      [chargeId, kind],
    );
    return Number((result.rows as { cents: string }[])[0]?.cents ?? 0);
  }

  /** How many events of `kind` a charge's timeline holds. */
  async count(chargeId: string, kind: string): Promise<number> {
    const [row] = await this.db(EVENTS)
      .where({ charge_id: chargeId, kind })
      .whereNull("deleted_at")
      .count({ n: "*" });
    return Number(row?.n ?? 0);
  }

  /** The timeline of a charge, oldest first. */
  async of(chargeId: string): Promise<Record<string, unknown>[]> {
    return this.db(EVENTS)
      .where({ charge_id: chargeId })
      .whereNull("deleted_at")
      .orderBy("created_at", "asc");
  }

  /** The timelines of these charges, oldest first (the admin's order view). */
  async ofCharges(chargeIds: readonly string[]): Promise<Record<string, unknown>[]> {
    if (chargeIds.length === 0) return [];
    // `deleted_at is null` matches the table's partial index on charge_id.
    return this.db(EVENTS)
      .whereIn("charge_id", chargeIds as string[])
      .whereNull("deleted_at")
      .orderBy("created_at", "asc");
  }

  /**
   * Retention: compacts these charges' timelines. Keeps every event kind a charge had, with its
   * first and last occurrence (the admin's timeline shows kinds); only repeats in between go
   * (capture or cart retries, repeated forged or reused notices). Declared and recorded refunds
   * are all kept: takeDeclaredRefund sums them. Returns how many events went.
   */
  async compact(chargeIds: readonly string[]): Promise<number> {
    const result = await this.db.raw(
      `delete from ${EVENTS} where id in (
         select id from (
           select id,
                  row_number() over (partition by charge_id, kind order by created_at, id) as nth,
                  count(*) over (partition by charge_id, kind) as runs
           from ${EVENTS}
           where charge_id = any(?) and deleted_at is null and kind not in ('refund_declared', 'refund_recorded')
         ) timeline where nth > 1 and nth < runs
       )`,
      [chargeIds as string[]],
    );
    return Number(result.rowCount ?? 0);
  }
}
