import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { ChargeEvents } from "../records/charge-events";
import { ChargeCompaction, type CompactionKey } from "../records/charge-compaction";
import { WebhookDeliveries } from "../records/webhook-deliveries";
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
 * One bounded batch: takes up to `limit` finished charges (ChargeCompaction.pickFinished) last changed
 * before `cutoff` and not compacted yet, oldest first after `after`, deletes their finished
 * webhook deliveries and compacts their timelines, in one short transaction. Charge rows are
 * never deleted. Returns how much went and the key to continue after (null when done).
 */
async function compactFinished(
  db: Knex,
  cutoff: Date,
  limit: number,
  after: CompactionKey | null,
): Promise<{ charges: number; deliveries: number; events: number; next: CompactionKey | null }> {
  return db.transaction(async (trx) => {
    const charges = new ChargeCompaction(trx);
    const rows = await charges.pickFinished(cutoff, limit, after);
    if (rows.length === 0) return { charges: 0, deliveries: 0, events: 0, next: null };
    const chargeIds = rows.map((r) => r.charge_id);
    const deliveries = await new WebhookDeliveries(trx).deleteFinishedOf(chargeIds);
    const events = await new ChargeEvents(trx).compact(chargeIds);
    await charges.markCompacted(rows.map((r) => r.id));
    const last = rows[rows.length - 1]!;
    return {
      charges: rows.length,
      deliveries,
      events,
      next: rows.length < limit ? null : { created_at: last.created_at, id: last.id },
    };
  });
}

/**
 * Deletes the finished webhook deliveries of charges finished more than `days` ago and
 * compacts their timelines (compactFinished), then the finished deliveries that
 * named no charge, and those that named a charge this store never had, in batches of `batch` each in its own short transaction, until nothing is
 * left or `budgetMs` has passed.
 */
export async function runRetention(
  db: Knex,
  days: number,
  {
    now = new Date(),
    batch = BATCH,
    budgetMs = BUDGET_MS,
    signal,
  }: { now?: Date; batch?: number; budgetMs?: number; signal?: AbortSignal } = {},
): Promise<RetentionReport> {
  // The job lock's signal: once the lease is lost, no further batch (each is its own
  // transaction, so what is done stays done).
  const stillHeld = () => signal?.throwIfAborted();
  const cutoff = new Date(now.getTime() - days * 24 * 60 * 60_000);
  const deadline = Date.now() + budgetMs;
  const report: RetentionReport = { charges: 0, deliveries: 0, events: 0, more: false };
  let after: CompactionKey | null = null;
  do {
    stillHeld();
    const done = await compactFinished(db, cutoff, batch, after);
    report.charges += done.charges;
    report.deliveries += done.deliveries;
    report.events += done.events;
    after = done.next;
  } while (after && Date.now() < deadline);
  if (after) return { ...report, more: true };
  for (const prune of [
    (d: WebhookDeliveries) => d.deleteChargeless(cutoff, batch),
    (d: WebhookDeliveries) => d.deleteUnmatched(cutoff, batch),
  ]) {
    for (;;) {
      stillHeld();
      const deleted = await prune(new WebhookDeliveries(db));
      report.deliveries += deleted;
      if (deleted < batch) break;
      if (Date.now() >= deadline) return { ...report, more: true };
    }
  }
  return report;
}
