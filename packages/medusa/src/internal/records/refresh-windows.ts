import type { Knex } from "@medusajs/framework/mikro-orm/knex";

const REFRESH_WINDOWS = "pix_checkout_refresh_window";
const CLIENT_REFRESHES = "pix_checkout_client_refresh";
/** A client's re-checks are counted per minute, from its first one. */
const CLIENT_WINDOW = "interval '60 seconds'";

/** Result of `RefreshWindows.claim`. */
export type RefreshClaim = { allowed: true } | { allowed: false; retryAfterMs: number };

/**
 * The SQL of `pix_checkout_refresh_window` and `pix_checkout_client_refresh`: when each session
 * last asked the API for a fresh status on a shopper's behalf, and how many re-checks each
 * client asked for this minute, so a refresh button cannot be used to hammer the API, nor one
 * client's re-checks leave none for another's.
 */
export class RefreshWindows {
  constructor(private readonly db: Knex) {}

  /**
   * Takes the session's refresh slot if the last one is at least `intervalMs` old, in one
   * statement, so two instances racing for the same session cannot both win and the limit
   * survives restarts. The database clock decides, not the instance's.
   */
  async claim(sessionId: string, intervalMs: number): Promise<RefreshClaim> {
    const seconds = intervalMs / 1000;
    const taken = await this.db.raw(
      `insert into ${REFRESH_WINDOWS} (session_id, refreshed_at) values (?, now())
       on conflict (session_id) do update set refreshed_at = now()
       where ${REFRESH_WINDOWS}.refreshed_at <= now() - make_interval(secs => ?)
       returning session_id`,
      [sessionId, seconds],
    );
    if ((taken.rows as unknown[]).length > 0) {
      // Windows older than a day can never limit anything again; about one allowed refresh in
      // a hundred sweeps them, so the table stays the size of a day's refreshes.
      if (Math.random() < 0.01) {
        await this.db.raw(
          `delete from ${REFRESH_WINDOWS} where refreshed_at < now() - interval '1 day'`,
        );
        await this.db.raw(
          `delete from ${CLIENT_REFRESHES} where window_start < now() - ${CLIENT_WINDOW}`,
        );
      }
      return { allowed: true };
    }
    const left = await this.db.raw(
      `select greatest(0, extract(epoch from (refreshed_at + make_interval(secs => ?) - now())) * 1000)::float8 as ms
       from ${REFRESH_WINDOWS} where session_id = ?`,
      [seconds, sessionId],
    );
    const ms = Number((left.rows as { ms: number }[])[0]?.ms ?? intervalMs);
    return { allowed: false, retryAfterMs: Math.max(1, Math.ceil(ms)) };
  }

  /**
   * Takes one of the client's `perMinute` re-checks of its current minute (which starts at its
   * first re-check), in one statement on every instance: the database clock decides, and two
   * instances racing for the last one cannot both take it.
   */
  async claimForClient(clientKey: string, perMinute: number): Promise<RefreshClaim> {
    const taken = await this.db.raw(
      `insert into ${CLIENT_REFRESHES} as w (client_key, window_start, used) values (?, now(), 1)
       on conflict (client_key) do update set
         window_start = case when w.window_start <= now() - ${CLIENT_WINDOW} then now()
                             else w.window_start end,
         used = case when w.window_start <= now() - ${CLIENT_WINDOW} then 1 else w.used + 1 end
       where w.window_start <= now() - ${CLIENT_WINDOW} or w.used < ?
       returning client_key`,
      [clientKey, perMinute],
    );
    if ((taken.rows as unknown[]).length > 0) return { allowed: true };
    const left = await this.db.raw(
      `select greatest(0, extract(epoch from (window_start + ${CLIENT_WINDOW} - now())) * 1000)::float8 as ms
       from ${CLIENT_REFRESHES} where client_key = ?`,
      [clientKey],
    );
    const ms = Number((left.rows as { ms: number }[])[0]?.ms ?? 60_000);
    return { allowed: false, retryAfterMs: Math.max(1, Math.ceil(ms)) };
  }
}
