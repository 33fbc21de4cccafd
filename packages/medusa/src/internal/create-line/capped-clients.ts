import type { WaitingRefusal } from "./queue";

/**
 * What one reading of a client found: its refusal (null: it may go on), and whether it is at its
 * cap (refused, or its next create would reach the cap), so its next request is read at once.
 */
export interface CapReading {
  refusal: WaitingRefusal | null;
  capped: boolean;
}

/** How many clients are remembered as capped at most; the oldest noted is forgotten first. */
const REMEMBERED = 10_000;

/**
 * The clients this process last found refused or at their cap (the early refusal's reading,
 * early-refusal.ts), and one reading in flight per client.
 *
 * Why: the process's turns (client-turns.ts) rank a client by what it holds, so a flood that
 * reached its cap by holding unpaid codes ranks behind every shopper, and on a busy minute its
 * requests waited up to the turns' patience (30 s) for the one query that refuses them (the
 * flood bench's one-address phase: 2 to 12 answers, p50 15 to 18 s, instead of the quick 429s
 * of the code before). A request of a client noted here needs no turn: it is judged at once by
 * the same reading, shared by all its requests arriving while that reading runs, so a flood
 * retrying at once costs one small indexed query at a time, not one per request, and never a
 * turn a shopper waits for. A client is noted once a reading finds it refused, or with one place
 * left (the request read takes it), so even its first request past the cap is read at once.
 * Only a reading says a client is refused, never this memory alone:
 * a refusal that lapsed, or a code paid since, is seen at the next request.
 */
export class CappedClients {
  private readonly capped = new Set<string>();
  private readonly reading = new Map<string, Promise<WaitingRefusal | null>>();

  /** Whether the client's last reading here found it refused or at its cap. */
  has(clientKey: string): boolean {
    return this.capped.has(clientKey);
  }

  /** Records whether a reading of the client found it at its cap. */
  note(clientKey: string, capped: boolean): void {
    this.capped.delete(clientKey);
    if (!capped) return;
    if (this.capped.size >= REMEMBERED) {
      const oldest = this.capped.values().next().value;
      if (oldest !== undefined) this.capped.delete(oldest);
    }
    this.capped.add(clientKey);
  }

  /**
   * Judges the client by `read`, sharing the reading already in flight for it if there is one,
   * notes whether it is at its cap, and resolves with its refusal (null when it may go on).
   */
  judge(clientKey: string, read: () => Promise<CapReading>): Promise<WaitingRefusal | null> {
    const inFlight = this.reading.get(clientKey);
    if (inFlight) return inFlight;
    const reading = read()
      .then(({ refusal, capped }) => {
        this.note(clientKey, capped || refusal !== null);
        return refusal;
      })
      .finally(() => this.reading.delete(clientKey));
    this.reading.set(clientKey, reading);
    return reading;
  }
}
