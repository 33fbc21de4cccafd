/**
 * When reconciliation asks the API about a pending charge. A webhook is the fast path; this
 * is the net under it. "Paid, and the order never changed" is the complaint that matters, so
 * young charges, whose shoppers are still looking at the code, are asked soon and often, and
 * older ones at the merchant's `reconcileIntervalMinutes`.
 */

/** Ages (since creation) at which a young charge is asked: 15 s, 30 s, 1 min, 2 min. */
export const EARLY_CHECK_AGES_MS: readonly number[] = [15_000, 30_000, 60_000, 120_000];

/** A charge is asked once more this long after its expiry, to learn it expired (or was paid). */
export const EXPIRY_GRACE_MS = 5_000;

/** What `nextCheckAt` needs to know about a charge. */
export interface ScheduleInput {
  createdAt: Date;
  expiresAt: Date | null;
  now: Date;
  /** The provider's `reconcileIntervalMinutes`, in ms. */
  intervalMs: number;
}

/**
 * The next time to ask the API about a charge that is still pending: the next early age not
 * yet reached, else one interval from now, but never later than just after its expiry.
 *
 * Upstream calls this makes for one charge over a life of `L` (when no webhook arrives): at
 * most `4 + ceil((L - 2 min) / interval) + 1`; a 30-minute Pix with the default 5-minute
 * interval is asked at most 10 times, and usually once, because its webhook arrives first.
 */
export function nextCheckAt({ createdAt, expiresAt, now, intervalMs }: ScheduleInput): Date {
  const age = now.getTime() - createdAt.getTime();
  const early = EARLY_CHECK_AGES_MS.find((at) => at > age);
  let next = early === undefined ? now.getTime() + intervalMs : createdAt.getTime() + early;
  if (expiresAt) {
    const afterExpiry = expiresAt.getTime() + EXPIRY_GRACE_MS;
    if (afterExpiry > now.getTime()) next = Math.min(next, afterExpiry);
  }
  return new Date(next);
}

/**
 * While a shopper's stream is open on a pending charge, its next check is kept within this
 * long: a watched charge is asked about at most about twice a minute (the job runs every 15 s),
 * an unwatched one on the schedule above.
 */
export const WATCHED_CHECK_MS = 30_000;

const expedited = new Map<string, number>();

/**
 * True when this process should pull a watched charge's check forward now: at most once per
 * `WATCHED_CHECK_MS` per charge, however many streams watch it here.
 */
export function shouldExpedite(chargeId: string, now = Date.now()): boolean {
  const last = expedited.get(chargeId);
  if (last !== undefined && now - last < WATCHED_CHECK_MS) return false;
  if (expedited.size > 10_000) expedited.clear();
  expedited.set(chargeId, now);
  return true;
}
