import { createHash } from "node:crypto";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import type { LinkHitCount, LinkHitVerdict } from "../platform/memory-hits";

export type { LinkHitCount, LinkHitVerdict };

const LINK_HITS = "pix_checkout_link_hit";

/**
 * The SQL of `pix_checkout_link_hit`: how many times each key pressed a reminder page's button
 * (a POST, which acts) in its current window, shared by every instance of the store (a limit per
 * process would be one per instance behind a load balancer), and surviving restarts. Opening a
 * page (a GET) is counted in memory instead (platform/memory-hits.ts): a GET writes nothing. Keys are stored hashed: they are
 * compared, never read back, and the table keeps neither a link's token nor an address.
 */
export class LinkHits {
  constructor(private readonly db: Knex) {}

  /**
   * Counts one hit against every key at once, in one statement, and says whether each is
   * still within its limit. A key's window starts with its first hit and lasts `windowMs`; a
   * refused hit counts too, so a client that keeps trying stays refused until its window ends.
   * The database clock decides, not the instance's.
   */
  async take(counts: LinkHitCount[], windowMs: number): Promise<LinkHitVerdict> {
    if (counts.length === 0) return { allowed: true };
    const seconds = windowMs / 1000;
    // Distinct keys, in a fixed order: two requests sharing keys lock them in the same order.
    const hashed = [...new Set(counts.map((c) => c.key))].sort().map((key) => ({
      key,
      hash: createHash("sha256").update(key).digest("hex").slice(0, 40),
    }));
    const result = await this.db.raw(
      `insert into ${LINK_HITS} as h (key_hash, window_started_at, hits)
       values ${hashed.map(() => "(?, now(), 1)").join(", ")}
       on conflict (key_hash) do update set
         window_started_at = case when h.window_started_at <= now() - make_interval(secs => ?)
                                  then now() else h.window_started_at end,
         hits = case when h.window_started_at <= now() - make_interval(secs => ?)
                     then 1 else h.hits + 1 end
       returning key_hash, hits,
         greatest(0, extract(epoch from (window_started_at + make_interval(secs => ?) - now())) * 1000)::float8 as ms_left`,
      [...hashed.map((h) => h.hash), seconds, seconds, seconds],
    );
    const rows = result.rows as { key_hash: string; hits: number; ms_left: number }[];
    // Windows over for a day can never limit anything again; about one request in a hundred
    // sweeps them, so the table stays the size of a day's visitors.
    if (Math.random() < 0.01) {
      await this.db.raw(
        `delete from ${LINK_HITS} where window_started_at < now() - interval '1 day' - make_interval(secs => ?)`,
        [seconds],
      );
    }
    let retryAfterMs = 0;
    for (const row of rows) {
      const key = hashed.find((h) => h.hash === row.key_hash)!.key;
      const limit = Math.min(...counts.filter((c) => c.key === key).map((c) => c.limit));
      if (Number(row.hits) > limit) {
        retryAfterMs = Math.max(retryAfterMs, Math.ceil(Number(row.ms_left)), 1);
      }
    }
    return retryAfterMs > 0 ? { allowed: false, retryAfterMs } : { allowed: true };
  }
}
