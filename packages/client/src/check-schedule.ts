/*
 * When a plugin asks the service about a code still waiting (`@pix-checkout/client/check-schedule`),
 * for both plugins' reconciliation: a webhook is the fast path; this is the net under it. Pure,
 * no imports.
 */

/**
 * When reconciliation asks the API about a pending charge. A webhook is the fast path; this
 * is the net under it. "Paid, and the order never changed" is the complaint that matters, so
 * young charges, whose shoppers are still looking at the code, are asked soon and often, and
 * older ones at the plugin's interval (the Medusa plugin's `reconcileIntervalMinutes`).
 */

/** Ages (since creation) at which a young charge is asked: 15 s, 30 s, 1 min, 2 min. */
export const EARLY_CHECK_AGES_MS: readonly number[] = [15_000, 30_000, 60_000, 120_000];

/**
 * A boleto is mostly paid at a bank and confirmed in the bank's batches, hours to a day later,
 * so after two quick looks (a payment made at once by app, a webhook lost) its checks decay in
 * hours and days: 15 s, 1 min, 1 h, 6 h, then every 12 h until it falls due. A 3-day boleto is
 * asked 10 times up to just after its due date, and the grace period after it adds one a day
 * (`graceRecheckAt`): at most 20 in all.
 */
export const BOLETO_CHECK_AGES_MS: readonly number[] = [
  15_000,
  60_000,
  60 * 60_000,
  6 * 60 * 60_000,
];

/** The least time between two checks of a boleto past its early ages. */
export const BOLETO_INTERVAL_MS = 12 * 60 * 60_000;

/** A charge is asked once more this long after its expiry, to learn it expired (or was paid). */
export const EXPIRY_GRACE_MS = 5_000;

/** What `nextCheckAt` needs to know about a charge. */
export interface ScheduleInput {
  createdAt: Date;
  expiresAt: Date | null;
  now: Date;
  /** The plugin's interval between two checks of an older code, in ms. */
  intervalMs: number;
  /** A boleto's checks decay in hours and days; a Pix's in seconds and minutes. */
  method?: "pix" | "boleto";
}

/**
 * The next time to ask the API about a charge that is still pending: the next early age not
 * yet reached, else one interval from now, but never later than just after its expiry.
 *
 * Upstream calls this makes for one charge over a life of `L` (when no webhook arrives): at
 * most `4 + ceil((L - 2 min) / interval) + 1`; a 30-minute Pix with the default 5-minute
 * interval is asked at most 10 times, and usually once, because its webhook arrives first. A
 * 3-day boleto: 4 + 5 + 1 = 10 (see BOLETO_CHECK_AGES_MS).
 */
export function nextCheckAt({
  createdAt,
  expiresAt,
  now,
  intervalMs,
  method = "pix",
}: ScheduleInput): Date {
  const age = now.getTime() - createdAt.getTime();
  const boleto = method === "boleto";
  const early = (boleto ? BOLETO_CHECK_AGES_MS : EARLY_CHECK_AGES_MS).find((at) => at > age);
  const interval = boleto ? Math.max(intervalMs, BOLETO_INTERVAL_MS) : intervalMs;
  let next = early === undefined ? now.getTime() + interval : createdAt.getTime() + early;
  if (expiresAt) {
    const afterExpiry = expiresAt.getTime() + EXPIRY_GRACE_MS;
    if (afterExpiry > now.getTime()) next = Math.min(next, afterExpiry);
  }
  return new Date(next);
}

/**
 * When to ask again about a boleto the API calls expired while it is inside its grace period
 * (its bank may still confirm a payment made on the due date): once a day, and at the end.
 */
export function graceRecheckAt(now: Date, holdUntil: Date): Date {
  const tomorrow = new Date(now.getTime() + 24 * 60 * 60_000);
  return holdUntil < tomorrow ? holdUntil : tomorrow;
}
