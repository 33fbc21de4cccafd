import type { Knex } from "@medusajs/framework/mikro-orm/knex";

/** How often a shopper may ask for an upstream re-check of one session. */
export const REFRESH_INTERVAL_MS = 10_000;

/** Result of `claimRefresh`. */
export type RefreshClaim = { allowed: true } | { allowed: false; retryAfterMs: number };

/**
 * Takes the session's refresh slot if the last one is at least `intervalMs` old, in one
 * statement against Postgres, so two instances racing for the same session cannot both win
 * and the limit survives restarts. The database clock decides, not the instance's.
 */
export async function claimRefresh(
  db: Knex,
  sessionId: string,
  intervalMs: number = REFRESH_INTERVAL_MS,
): Promise<RefreshClaim> {
  const seconds = intervalMs / 1000;
  const taken = await db.raw(
    `insert into pix_checkout_refresh_window (session_id, refreshed_at) values (?, now())
     on conflict (session_id) do update set refreshed_at = now()
     where pix_checkout_refresh_window.refreshed_at <= now() - make_interval(secs => ?)
     returning session_id`,
    [sessionId, seconds],
  );
  if ((taken.rows as unknown[]).length > 0) {
    // Windows older than a day can never limit anything again; about one allowed refresh in
    // a hundred sweeps them, so the table stays the size of a day's refreshes.
    if (Math.random() < 0.01) {
      await db.raw(
        `delete from pix_checkout_refresh_window where refreshed_at < now() - interval '1 day'`,
      );
    }
    return { allowed: true };
  }
  const left = await db.raw(
    `select greatest(0, extract(epoch from (refreshed_at + make_interval(secs => ?) - now())) * 1000)::float8 as ms
     from pix_checkout_refresh_window where session_id = ?`,
    [seconds, sessionId],
  );
  const ms = Number((left.rows as { ms: number }[])[0]?.ms ?? intervalMs);
  return { allowed: false, retryAfterMs: Math.max(1, Math.ceil(ms)) };
}
