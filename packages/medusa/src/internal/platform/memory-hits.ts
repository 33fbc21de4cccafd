import { LRUCache } from "lru-cache";

/** One key a hit counts against, with its limit per window. */
export interface LinkHitCount {
  /** A namespaced key (`token:<token>`, `address:<client key>`); hashed where it is stored. */
  key: string;
  limit: number;
}

/** Whether a hit is within every limit it counts against, or how long until it is. */
export type LinkHitVerdict = { allowed: true } | { allowed: false; retryAfterMs: number };

/** Keys one instance remembers at most (a few MB); the oldest window is forgotten first. */
const MAX_KEYS = 50_000;

interface Window {
  startedAt: number;
  hits: number;
}

/**
 * `LinkHits.take` for a GET, in this process's memory: a page a mail scanner, a link preview or
 * anyone guessing ids opens must write nothing to the database (a GET never changes state), and
 * an unknown id must not leave a row behind. The price is that each instance counts on its own:
 * behind a balancer of N instances a client gets up to N times a limit. That is enough for what
 * these limits are for (one client cannot load the database through a page; tokens and ids are
 * too long to guess), while the actions that write (the pages' POSTs) keep counting in
 * Postgres, across instances. At most `max` keys are kept, so a client making up ids or
 * rotating through an IPv6 /64 cannot grow memory: a key pushed out starts a new window.
 */
export class MemoryHits {
  private readonly windows: LRUCache<string, Window>;

  constructor({ max = MAX_KEYS }: { max?: number } = {}) {
    this.windows = new LRUCache({ max });
  }

  /**
   * Counts one hit against every key and says whether each is still within its limit. A
   * key's window starts with its first hit and lasts `windowMs`; a refused hit counts too, as
   * in Postgres, so a client that keeps trying stays refused until its window ends.
   */
  take(counts: LinkHitCount[], windowMs: number, now = Date.now()): LinkHitVerdict {
    let retryAfterMs = 0;
    for (const key of new Set(counts.map((c) => c.key))) {
      const limit = Math.min(...counts.filter((c) => c.key === key).map((c) => c.limit));
      let window = this.windows.get(key);
      if (!window || window.startedAt + windowMs <= now) window = { startedAt: now, hits: 0 };
      window.hits += 1;
      this.windows.set(key, window);
      if (window.hits > limit) {
        retryAfterMs = Math.max(retryAfterMs, window.startedAt + windowMs - now, 1);
      }
    }
    return retryAfterMs > 0 ? { allowed: false, retryAfterMs } : { allowed: true };
  }

  /** Keys remembered now (for the bound's test). */
  get size(): number {
    return this.windows.size;
  }
}
