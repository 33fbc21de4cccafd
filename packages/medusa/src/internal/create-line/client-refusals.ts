import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import type { WaitingCap } from "./waiting-caps";
import type { Vouch } from "./client-origin";

const REFUSALS = "pix_checkout_client_refusal";

/**
 * Three columns for a select list, `refused_ms`, `refused_cap` and `refused_vouched_by`: how
 * long the client's refusal still stands (ms, by the database clock), which cap it was for and
 * which line refused it (who vouched for the refused request; null: nobody did); all null when
 * none stands. Binds the client key three times.
 */
export const REFUSAL_IN_FORCE_COLUMNS = `
  (select extract(epoch from (refused_until - now())) * 1000 from ${REFUSALS}
    where client_key = ? and refused_until > now()) as refused_ms,
  (select cap from ${REFUSALS}
    where client_key = ? and refused_until > now()) as refused_cap,
  (select vouched_by from ${REFUSALS}
    where client_key = ? and refused_until > now()) as refused_vouched_by`;

/** A refusal still standing, as `REFUSAL_IN_FORCE_COLUMNS` read it. */
export interface RefusalInForce {
  over: WaitingCap;
  /** How long it still stands, ms (at least 1). */
  retryAfterMs: number;
  /** Who vouched for the request it refused: the line it was judged in. */
  vouchedBy: Vouch | null;
}

/** `REFUSAL_IN_FORCE_COLUMNS` of a row, parsed. */
export function refusalInForce(row: {
  refused_ms: string | number | null;
  refused_cap: string | null;
  refused_vouched_by: string | null;
}): RefusalInForce | null {
  if (row.refused_ms == null || row.refused_cap == null) return null;
  return {
    over: row.refused_cap as WaitingCap,
    retryAfterMs: Math.max(1, Math.ceil(Number(row.refused_ms))),
    vouchedBy: (row.refused_vouched_by as Vouch | null) ?? null,
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
   * Records that `clientKey` was refused for `over` and may not take a place for `retryAfterMs`;
   * `vouchedBy`: who vouched for the refused request (the line it was judged in). A refusal
   * still standing is kept as it was: asking again early is refused, not punished with a longer
   * wait, so a shopper who clicks twice is told the same time. One exception: a standing
   * refusal for the full line nobody vouched for gives way to a vouched request's refusal, which
   * a vouched request does not skip (queue.ts `standingFor`) and which says as much to an
   * unvouched one (the vouched line is part of its line, so that is full too); it stands until
   * the later of the two.
   */
  async record(
    clientKey: string,
    over: WaitingCap,
    retryAfterMs: number,
    vouchedBy: Vouch | null,
  ): Promise<void> {
    await this.db.raw(
      `insert into ${REFUSALS} (client_key, cap, refused_at, refused_until, vouched_by)
       values (?, ?, now(), now() + (? * interval '1 millisecond'), ?)
       on conflict (client_key) do update
         set cap = excluded.cap, refused_at = excluded.refused_at,
             refused_until = greatest(excluded.refused_until, ${REFUSALS}.refused_until),
             vouched_by = excluded.vouched_by
         where ${REFUSALS}.refused_until <= now()
            or (${REFUSALS}.cap = 'store' and ${REFUSALS}.vouched_by is null
                and excluded.vouched_by is not null)`,
      [clientKey, over, Math.max(1, Math.ceil(retryAfterMs)), vouchedBy],
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
