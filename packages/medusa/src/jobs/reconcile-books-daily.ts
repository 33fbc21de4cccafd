import { setTimeout as sleep } from "node:timers/promises";
import type { MedusaContainer } from "@medusajs/framework/types";
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils";
import { redact } from "@pix-checkout/client";
import { countDifferences, parsePeriod, type DifferenceKind } from "../internal/books/books";
import { createPluginLogger } from "../internal/platform/logger";
import { registeredProviders } from "../internal/platform/provider-registry";
import { reconcilePeriod } from "../internal/books/reconciliation";
import { previousDay, saoPauloDay } from "@pix-checkout/client/books";
import { PixCheckoutError } from "../internal/platform/errors";
import { isLockHeld } from "../internal/platform/lock-held";

/** Emitted when a day's books disagree; `data` holds counts only, never payer data. */
export const RECONCILIATION_DIFFERENCES_EVENT = "pix_checkout.reconciliation.differences";

/** What one registration's day came to. */
export interface DailyReconciliationResult {
  provider: string;
  day: string;
  counts: Record<DifferenceKind, number> | null;
  /** Set when the books could not be read (the API was down, the key refused...). */
  error?: string;
}

/**
 * Compares one São Paulo calendar day's books for every registration. Read-only: it reads
 * Medusa, the plugin's table and the API, and writes nothing, so it never touches a charge
 * or the checkout path. Differences make one log line and one event per registration.
 */
export async function reconcileDay(
  container: MedusaContainer,
  day: string,
  signal?: AbortSignal,
): Promise<DailyReconciliationResult[]> {
  const logger = createPluginLogger(container.resolve(ContainerRegistrationKeys.LOGGER));
  const events = container.hasRegistration(Modules.EVENT_BUS)
    ? container.resolve(Modules.EVENT_BUS)
    : undefined;
  const period = parsePeriod(day, day, day);
  if (!period.ok) throw new PixCheckoutError("invalid_period", period.message);
  const results: DailyReconciliationResult[] = [];
  for (const provider of registeredProviders(
    container.resolve(ContainerRegistrationKeys.CONFIG_MODULE),
  )) {
    // The lock lost (see records/job-lock.ts): another instance may compare the day now.
    signal?.throwIfAborted();
    let counts: Record<DifferenceKind, number>;
    try {
      counts = countDifferences((await reconcilePeriod(container, provider, period)).differences);
    } catch (error) {
      const message = redact((error as Error).message ?? String(error));
      logger.warn(`reconciliation of ${day} for ${provider.key} could not run: ${message}`);
      results.push({ provider: provider.key, day, counts: null, error: message });
      continue;
    }
    results.push({ provider: provider.key, day, counts });
    const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
    if (total === 0) continue;
    const kinds = Object.entries(counts)
      .filter(([, n]) => n > 0)
      .map(([kind, n]) => `${kind}=${n}`)
      .join(", ");
    logger.warn(
      `reconciliation of ${day} for ${provider.key}: ${total} difference(s) (${kinds}); see GET /admin/pix-checkout/reconciliation?from=${day}&to=${day}&provider=${provider.key}`,
    );
    try {
      await events?.emit({
        name: RECONCILIATION_DIFFERENCES_EVENT,
        data: { provider: provider.key, from: day, to: day, total, counts },
      });
    } catch (error) {
      logger.warn(`the reconciliation event could not be emitted: ${redact(String(error))}`);
    }
  }
  return results;
}

/** One instance compares the day; the others skip it. */
export const DAILY_RECONCILIATION_LOCK = "pix-checkout:daily-reconciliation";

/**
 * How long the instance that ran holds the lock at least. Every worker's cron fires within the
 * same minute; an instance that fires after a small store's day was compared in under a second
 * must still find the lock taken, or it compares the day (and emits its event) again.
 */
export const DAILY_RECONCILIATION_HOLD_MS = 90_000;

/**
 * `reconcileDay` under Medusa's locking module, so one instance does it however many workers
 * run the job (a shared locking provider, Redis or Postgres, makes "one" hold across hosts).
 * Null when another instance holds the lock.
 */
export async function reconcileDayOnce(
  container: MedusaContainer,
  day: string,
  { holdMs = DAILY_RECONCILIATION_HOLD_MS }: { holdMs?: number } = {},
): Promise<DailyReconciliationResult[] | null> {
  const logger = createPluginLogger(container.resolve(ContainerRegistrationKeys.LOGGER));
  const locking = container.resolve(Modules.LOCKING);
  try {
    return await locking.execute(
      DAILY_RECONCILIATION_LOCK,
      async (signal?: AbortSignal) => {
        const started = Date.now();
        const results = await reconcileDay(container, day, signal);
        const left = holdMs - (Date.now() - started);
        // Holding the lock is all the wait is for: a lost lock ends it.
        if (left > 0) await sleep(left, undefined, { signal }).catch(() => undefined);
        return results;
      },
      { timeout: 1, expire: Math.ceil(holdMs / 1000) + 900 },
    );
  } catch (error) {
    if (isLockHeld(error)) {
      logger.debug(`reconciliation of ${day} skipped: another instance is comparing it`);
      return null;
    }
    throw error;
  }
}

/** Once a day: the previous São Paulo day, complete whatever the server's time zone. */
export default async function reconcileBooksDaily(
  container: MedusaContainer,
): Promise<DailyReconciliationResult[] | null> {
  return reconcileDayOnce(container, previousDay(saoPauloDay(new Date())));
}

/** Medusa scheduled-job config (jobs run in worker mode only): 09:30 server time, daily. */
export const config = {
  name: "pix-checkout-daily-reconciliation",
  schedule: "30 9 * * *",
};
