import type { ChargeStore } from "../records/charge-store";
import type { RegisteredProvider } from "../platform/provider-registry";

/** Charges taken per transaction: each batch holds its row locks for well under a second. */
const BATCH = 500;
/** A run stops after this long; the next hour's run continues where history still is. */
const BUDGET_MS = 60_000;

/** What one retention run removed. */
export interface RetentionReport {
  /** Charges whose history was compacted (their rows stay). */
  charges: number;
  deliveries: number;
  events: number;
  /** True when the run stopped on its time budget with history left for the next run. */
  more: boolean;
}

/**
 * The retention every registration agrees to: the longest `retentionDays`, or none (keep
 * everything) as soon as one registration says `false`. The tables are shared by all
 * registrations, so the most careful one decides.
 */
export function retentionDaysOf(providers: readonly RegisteredProvider[]): number | false {
  if (providers.length === 0) return false;
  let days = 0;
  for (const { options } of providers) {
    if (options.retentionDays === false) return false;
    days = Math.max(days, options.retentionDays);
  }
  return days;
}

/**
 * Deletes the finished webhook deliveries of charges finished more than `days` ago and
 * compacts their timelines (ChargeStore.compactFinished), then the finished deliveries that
 * named no charge, in batches of `batch` each in its own short transaction, until nothing is
 * left or `budgetMs` has passed.
 */
export async function runRetention(
  store: ChargeStore,
  days: number,
  { now = new Date(), batch = BATCH, budgetMs = BUDGET_MS } = {},
): Promise<RetentionReport> {
  const cutoff = new Date(now.getTime() - days * 24 * 60 * 60_000);
  const deadline = Date.now() + budgetMs;
  const report: RetentionReport = { charges: 0, deliveries: 0, events: 0, more: false };
  let after: Awaited<ReturnType<ChargeStore["compactFinished"]>>["next"] = null;
  do {
    const done = await store.compactFinished(cutoff, batch, after);
    report.charges += done.charges;
    report.deliveries += done.deliveries;
    report.events += done.events;
    after = done.next;
  } while (after && Date.now() < deadline);
  if (after) return { ...report, more: true };
  for (;;) {
    const deleted = await store.deleteChargelessDeliveries(cutoff, batch);
    report.deliveries += deleted;
    if (deleted < batch) return report;
    if (Date.now() >= deadline) return { ...report, more: true };
  }
}
