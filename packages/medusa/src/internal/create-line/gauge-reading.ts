import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { budgetKeyOf } from "./line";
import { CreateQueue } from "./queue";
import { ChargeAttention } from "../records/attention";
import { Ledger } from "../records/ledger";
import type { RegisteredProvider } from "../platform/provider-registry";
import type { BudgetReading, GaugeReading } from "../platform/telemetry";

/**
 * What the telemetry gauges report, read when the merchant's SDK collects (never without one):
 * each create budget's use against its limit, the charges waiting for the merchant, and the
 * ledger's money owed back and held.
 */
export async function readGauges(
  db: Knex,
  providers: readonly RegisteredProvider[],
): Promise<GaugeReading> {
  const limits = new Map<string, number>();
  for (const { options } of providers) {
    // The budget's size is the smallest any registration sharing it allows (create-line.ts).
    const key = budgetKeyOf(options);
    limits.set(
      key,
      Math.min(limits.get(key) ?? Number.POSITIVE_INFINITY, options.createsPerMinute),
    );
  }
  const usage = new Map((await new CreateQueue(db).usage()).map((u) => [u.budgetKey, u]));
  const budgets: BudgetReading[] = [];
  for (const [key, limit] of limits) {
    const use = usage.get(key);
    budgets.push({
      budget: budgetLabel(key),
      used: use?.used ?? 0,
      limit,
      waiting: use?.waiting ?? 0,
    });
  }
  return {
    budgets,
    attention: await new ChargeAttention(db).attentionCounts(),
    outstanding: await new Ledger(db).outstanding(),
  };
}

/** A budget as a label: the service's host and path, never credentials or a query in the URL. */
export function budgetLabel(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.host}${url.pathname}`;
  } catch {
    return "unknown";
  }
}
