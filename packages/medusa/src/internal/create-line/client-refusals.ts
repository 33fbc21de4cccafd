import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import type { WaitingCap } from "./waiting-caps";

const REFUSALS = "pix_checkout_client_refusal";

/**
 * Two columns for a select list, `refused_ms` and `refused_cap`: how long the client's refusal
 * still stands (ms, by the database clock) and which cap it was for; both null when none does.
 * Binds the client key twice.
 */
export const REFUSAL_IN_FORCE_COLUMNS = `
  (select extract(epoch from (refused_until - now())) * 1000 from ${REFUSALS}
    where client_key = ? and refused_until > now()) as refused_ms,
  (select cap from ${REFUSALS}
    where client_key = ? and refused_until > now()) as refused_cap`;

/** A refusal still standing, as `REFUSAL_IN_FORCE_COLUMNS` read it. */
export interface RefusalInForce {
  over: WaitingCap;
  /** How long it still stands, ms (at least 1). */
  retryAfterMs: number;
}

/** `REFUSAL_IN_FORCE_COLUMNS` of a row, parsed. */
export function refusalInForce(row: {
  refused_ms: string | number | null;
  refused_cap: string | null;
}): RefusalInForce | null {
  if (row.refused_ms == null || row.refused_cap == null) return null;
  return {
    over: row.refused_cap as WaitingCap,
    retryAfterMs: Math.max(1, Math.ceil(Number(row.refused_ms))),
  };
}

/**
 * The SQL of `pix_checkout_client_refusal`: the clients the create line refused a place, each
 * until its `Retry-After`. A refused client that asks again before then is refused again, even
 * when a place freed meanwhile: otherwise a flood retrying at once takes every place that frees
 * before a shopper who comes after it can. In Postgres, so every instance of the store sees it.
 */
export class ClientRefusals {
  constructor(private readonly db: Knex) {}

  /**
   * Records that `clientKey` was refused for `over` and may not take a place for `retryAfterMs`.
   * A refusal still standing is kept as it was: asking again early is refused, not punished
   * with a longer wait, so a shopper who clicks twice is told the same time.
   */
  async record(clientKey: string, over: WaitingCap, retryAfterMs: number): Promise<void> {
    await this.db.raw(
      `insert into ${REFUSALS} (client_key, cap, refused_at, refused_until)
       values (?, ?, now(), now() + (? * interval '1 millisecond'))
       on conflict (client_key) do update
         set cap = excluded.cap, refused_at = excluded.refused_at,
             refused_until = excluded.refused_until
         where ${REFUSALS}.refused_until <= now()`,
      [clientKey, over, Math.max(1, Math.ceil(retryAfterMs))],
    );
  }

  /** Drops refusals that no longer stand, at most `limit` of them. */
  async prune(limit: number): Promise<number> {
    const deleted = await this.db(REFUSALS)
      .whereIn(
        "client_key",
        this.db(REFUSALS)
          .select("client_key")
          .where("refused_until", "<", this.db.raw("now()"))
          .limit(limit),
      )
      .delete();
    return Number(deleted);
  }
}
