import { LRUCache } from "lru-cache";

/**
 * When reconciliation asks the API about a pending charge: the rule both plugins share,
 * `@pix-checkout/client/check-schedule` (young charges soon and often, older ones at the
 * merchant's `reconcileIntervalMinutes`, a boleto's checks decaying in hours, once a day in its
 * grace). What is Medusa's is below: a shown code's check pulled forward.
 */
export {
  BOLETO_CHECK_AGES_MS,
  BOLETO_INTERVAL_MS,
  EARLY_CHECK_AGES_MS,
  EXPIRY_GRACE_MS,
  graceRecheckAt,
  nextCheckAt,
  type ScheduleInput,
} from "@pix-checkout/client/check-schedule";

/**
 * While a shopper's page shows a pending Pix (it posts `…/shown` when the code appears, and again
 * while it stays on screen), its next check is kept within this long: a shown charge is asked
 * about at most about twice a minute (the job runs every 15 s), an unshown one on the schedule
 * above. The database keeps the rule across instances (`expediteCheck` only pulls a check that
 * is further away than this); each instance also writes at most once a window per charge, so
 * repeated posts cost no writes. A boleto is not expedited: its bank confirms in batches, and a
 * page left open for days would otherwise ask thousands of times.
 */
export const WATCHED_CHECK_MS = 30_000;

/** Charges expedited in this process within the window; bounded, so ids cannot grow it. */
const expedited = new LRUCache<string, true>({ max: 10_000, ttl: WATCHED_CHECK_MS });

/**
 * True when this process should pull a shown charge's check forward now: at most once per
 * `WATCHED_CHECK_MS` per charge, however many pages post for it here.
 */
export function shouldExpedite(chargeId: string): boolean {
  if (expedited.has(chargeId)) return false;
  expedited.set(chargeId, true);
  return true;
}
