import { LRUCache } from "lru-cache";

/**
 * Says a warning at most once per key per `everyMs`, remembering at most `max` keys: the keys
 * are peers' addresses, which a client rotating inside its IPv6 /64 can make without end, so
 * an unbounded map would grow by one entry per request. A key pushed out before its time may
 * be warned about again; how many were pushed out is said in the next warning, so a flood of
 * new peers is visible rather than silent.
 */
export class WarnOnce {
  private readonly said: LRUCache<string, true>;
  private dropped = 0;

  constructor({ max = 1_000, everyMs }: { max?: number; everyMs: number }) {
    this.said = new LRUCache({
      max,
      ttl: everyMs,
      // "evict" is a key pushed out by newer ones; expiry ("expire", "delete") is the plan.
      dispose: (_value, _key, reason) => {
        if (reason === "evict") this.dropped++;
      },
    });
  }

  /**
   * Calls `say` unless `key` was warned about within `everyMs`; `forgotten` counts the keys
   * pushed out of memory since the last warning said, so their warnings may repeat.
   */
  warn(key: string, say: (forgotten: number) => void): void {
    if (this.said.has(key)) return;
    this.said.set(key, true);
    const forgotten = this.dropped;
    this.dropped = 0;
    say(forgotten);
  }

  /** Keys remembered now (for tests and the bound's check). */
  get size(): number {
    return this.said.size;
  }
}
