import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { ATTENTION_GRACE_MS, ChargeAttention, type Attention } from "../records/attention";
import { CAPTURE_ATTEMPTS } from "../records/capture-claims";
import { CAPTURE_LEASE_MS } from "../records/ledger";
import { createClient, type PaymentServiceClient } from "../platform/client-port";
import { CREATE_WINDOW_MS } from "../create-line/queue";
import { budgetKeyOf } from "../create-line/line";
import type { PluginLogger } from "../platform/logger";
import type { RegisteredProvider } from "../platform/provider-registry";
import type { RegionProviders } from "../medusa/region-providers";
import { countOrdersWithoutCode } from "../medusa/orders-without-code";
import { medHealthLine, type OpenMed } from "./med-deadline";
import { owedNearDeadline, type OwedNearDeadline } from "./refund-deadlines";
import { redisLine, type RedisProbe } from "./redis-health";
import type { HealthAction, HealthLine, HealthReport, HealthState } from "./health-line";

export type { HealthAction, HealthLine, HealthReport, HealthState } from "./health-line";

/** The service check's own limit: an admin page must not hang on a slow service. */
export const SERVICE_TIMEOUT_MS = 3_000;
/** A webhook p95 above this is slow (the reconciliation job would find most of them sooner). */
export const SLOW_WEBHOOK_MS = 60_000;
/** A check this late means no reconciliation pass ran (the job runs every 15 s). */
export const CHECK_GRACE_MS = 60_000;
/** A check this late means the job has stopped for a while, not just paused. */
export const CHECK_BROKEN_MS = 15 * 60_000;
/** A create waiting this long means no instance is sending the line. */
export const LINE_STUCK_MS = 5 * 60_000;

/** What one service check found. */
export interface ServiceCheck {
  provider: string;
  checkedAt: Date;
  latencyMs: number;
  /** The client's error code, when the call failed. */
  code?: string;
  status?: number;
}

/** The plugin's own tables, read for the card (database clock). */
export interface HealthFigures {
  now: Date;
  webhooks: {
    lastReceivedAt: Date | null;
    deliveriesDay: number;
    /** Delivery delays of the last hour's `charge.paid`, in ms. */
    delaysMs: number[];
    /** Paid transitions by `source`, last hour and last day. */
    paidHour: Record<string, number>;
    paidDay: Record<string, number>;
  };
  checks: { overdue: number; oldestDueAt: Date | null; oldestChargeId: string | null };
  captures: {
    waiting: number;
    oldestPaidAt: Date | null;
    oldestChargeId: string | null;
    /** Of those, handed to the merchant: captures that failed `CAPTURE_ATTEMPTS` times. */
    handed: number;
  };
  /** Captured payments whose cart is no order yet, past the grace a capture's follow-up has. */
  carts: { waiting: number; oldestAt: Date | null };
  /** Charges that need the merchant, by what they need (records/charges.ts `Attention`). */
  attention: Record<Attention, number>;
  /**
   * Orders the merchant keeps although their code could never be made (medusa/orders-without-code.ts):
   * on the same "Needs attention" list, and nothing else tells of them (Medusa lists each as
   * one more order awaiting payment).
   */
  ordersWithoutCode: number;
  /** Pix money owed back 15 days or fewer from its devolução deadline, or past it, nearest first. */
  owedNearDeadline: OwedNearDeadline[];
  budgets: {
    /** The first registration drawing on this budget: the line's id. */
    provider: string;
    limit: number;
    used: number;
    waiting: number;
    oldestWaitingAt: Date | null;
    pausedUntil: Date | null;
  }[];
}

const CHARGES = "pix_checkout_charge";
const EVENTS = "pix_checkout_charge_event";
const DELIVERIES = "pix_checkout_webhook_delivery";
const REQUESTS = "pix_checkout_create_request";
const BUDGETS = "pix_checkout_create_budget";

/** Sources that mean the payment was found without its webhook. */
const FOUND_WITHOUT_WEBHOOK = new Set(["reconcile", "refresh"]);

const date = (value: unknown): Date | null =>
  value === null || value === undefined ? null : new Date(value as string);

/** Reads every figure of the card from the plugin's tables. Only selects. */
export async function readHealthFigures(
  db: Knex,
  providers: readonly RegisteredProvider[],
): Promise<HealthFigures> {
  const one = async <T>(sql: string, bindings: unknown[] = []): Promise<T> =>
    ((await db.raw(sql, bindings as Knex.RawBinding[])) as { rows: T[] }).rows[0] as T;
  const all = async <T>(sql: string, bindings: unknown[] = []): Promise<T[]> =>
    ((await db.raw(sql, bindings as Knex.RawBinding[])) as { rows: T[] }).rows;

  const clock = await one<{ now: Date }>("select now() as now");
  const deliveries = await one<{ last: Date | null; day: string }>(
    // Two subqueries, so each reads the end or the last day of the created_at index, not the
    // whole table (a filtered count over every delivery ever grows with the history).
    `select (select max(created_at) from ${DELIVERIES} where deleted_at is null) as last,
            (select count(*) from ${DELIVERIES}
              where deleted_at is null and created_at > now() - interval '1 day') as day`,
  );
  // The event's own time when the service sent it, else when the plugin recorded the payment;
  // parsed here rather than cast in SQL, so one odd body cannot fail the whole card.
  const delays = await all<{
    created_at: Date;
    event_paid_at: string | null;
    paid_at: Date | null;
  }>(
    `select d.created_at, d.body->'data'->>'paid_at' as event_paid_at, c.paid_at
       from ${DELIVERIES} d
       left join ${CHARGES} c on c.charge_id = d.charge_id and c.deleted_at is null
      where d.deleted_at is null and d.event = 'charge.paid'
        and d.created_at > now() - interval '1 hour'
      order by d.created_at desc limit 2000`,
  );
  const delaysMs: number[] = [];
  for (const row of delays) {
    const sent =
      Date.parse(row.event_paid_at ?? "") || (row.paid_at ? +new Date(row.paid_at) : NaN);
    if (Number.isFinite(sent)) delaysMs.push(Math.max(0, +new Date(row.created_at) - sent));
  }
  const paid = await all<{ source: string; hour: string; day: string }>(
    `select source,
            count(*) filter (where created_at > now() - interval '1 hour') as hour,
            count(*) as day
       from ${EVENTS}
      where deleted_at is null and to_status = 'paid' and kind in ('paid', 'late_payment')
        and created_at > now() - interval '1 day'
      group by source`,
  );
  const checks = await one<{ overdue: string; oldest: Date | null; charge_id: string | null }>(
    `select count(*) as overdue, min(next_check_at) as oldest,
            (array_agg(charge_id order by next_check_at asc))[1] as charge_id
       from ${CHARGES}
      where deleted_at is null and status = 'pending' and next_check_at <> 'infinity'
        and next_check_at < now() - make_interval(secs => ?)`,
    [CHECK_GRACE_MS / 1000],
  );
  const captures = await one<{
    waiting: string;
    oldest: Date | null;
    charge_id: string | null;
    handed: string;
  }>(
    // Written as the partial index IDX_pix_checkout_charge_capture_due reads: money still to
    // capture, not every paid charge ever.
    `select count(*) as waiting, min(paid_at) as oldest,
            (array_agg(charge_id order by paid_at asc))[1] as charge_id,
            count(*) filter (where (select count(*) from ${EVENTS} e
              where e.charge_id = c.charge_id and e.deleted_at is null and e.kind = 'capture_failed') >= ?) as handed
       from ${CHARGES} c
      where deleted_at is null and held_cents > 0 and held_reason in ('awaiting_capture', 'accepted')`,
    [CAPTURE_ATTEMPTS],
  );
  const carts = await one<{ waiting: string; oldest: Date | null }>(
    // `awaiting_order_since` is set in the statement that records a capture and cleared once
    // the order exists; its partial index holds only these rows.
    `select count(*) as waiting, min(awaiting_order_since) as oldest
       from ${CHARGES}
      where deleted_at is null and awaiting_order_since is not null
        and awaiting_order_since < now() - make_interval(secs => ?)`,
    [ATTENTION_GRACE_MS / 1000],
  );
  const attention = await new ChargeAttention(db).attentionCounts();
  const ordersWithoutCode = await countOrdersWithoutCode(db);
  const nearDeadline = await owedNearDeadline(db, new Date(clock.now));

  // One budget per service address, its limit the smallest of the registrations sharing it.
  const budgets = new Map<string, { provider: string; limit: number }>();
  for (const provider of providers) {
    const key = budgetKeyOf(provider.options);
    const seen = budgets.get(key);
    budgets.set(key, {
      provider: seen?.provider ?? provider.key,
      limit: Math.min(seen?.limit ?? Infinity, provider.options.createsPerMinute),
    });
  }
  const budgetLines: HealthFigures["budgets"] = [];
  for (const [key, { provider, limit }] of budgets) {
    const row = await one<{
      used: string;
      waiting: string;
      oldest: Date | null;
      paused_until: Date | null;
    }>(
      `select
         (select count(*) from ${REQUESTS} where budget_key = ?
            and (state = 'sending' or done_at > now() - make_interval(secs => ?))) as used,
         (select count(*) from ${REQUESTS} where budget_key = ? and state = 'waiting') as waiting,
         (select min(enqueued_at) from ${REQUESTS} where budget_key = ? and state = 'waiting') as oldest,
         (select paused_until from ${BUDGETS} where budget_key = ? and paused_until > now()) as paused_until`,
      [key, CREATE_WINDOW_MS / 1000, key, key, key],
    );
    budgetLines.push({
      provider,
      limit,
      used: Number(row.used),
      waiting: Number(row.waiting),
      oldestWaitingAt: date(row.oldest),
      pausedUntil: date(row.paused_until),
    });
  }

  const bySource = (key: "hour" | "day") =>
    Object.fromEntries(paid.map((r) => [r.source, Number(r[key])]));
  return {
    now: new Date(clock.now),
    webhooks: {
      lastReceivedAt: date(deliveries.last),
      deliveriesDay: Number(deliveries.day),
      delaysMs,
      paidHour: bySource("hour"),
      paidDay: bySource("day"),
    },
    checks: {
      overdue: Number(checks.overdue),
      oldestDueAt: date(checks.oldest),
      oldestChargeId: checks.charge_id,
    },
    captures: {
      waiting: Number(captures.waiting),
      oldestPaidAt: date(captures.oldest),
      oldestChargeId: captures.charge_id,
      handed: Number(captures.handed),
    },
    carts: { waiting: Number(carts.waiting), oldestAt: date(carts.oldest) },
    attention,
    ordersWithoutCode,
    owedNearDeadline: nearDeadline,
    budgets: budgetLines,
  };
}

/** The 95th percentile (nearest rank) of some durations, or null for none. */
export function p95(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)] ?? null;
}

const iso = (value: Date | null): string | null => (value ? value.toISOString() : null);
const sum = (counts: Record<string, number>, keep: (source: string) => boolean) =>
  Object.entries(counts).reduce((total, [source, n]) => total + (keep(source) ? n : 0), 0);

/** The service line of one registration, from its check. */
export function serviceLine(check: ServiceCheck): HealthLine {
  const detail: Record<string, unknown> = {
    provider: check.provider,
    checked_at: check.checkedAt.toISOString(),
    latency_ms: check.latencyMs,
  };
  const id = `service:${check.provider}`;
  if (check.code === undefined) {
    return { id, state: "ok", value: check.latencyMs, detail, action: null };
  }
  detail.code = check.code;
  const line = (state: HealthState, reason: string, action: HealthAction): HealthLine => ({
    id,
    state,
    value: null,
    detail: { ...detail, reason },
    action,
  });
  if (check.code === "variant_mismatch") return line("broken", "variant_mismatch", "check_variant");
  if (check.status === 401 || check.status === 403) {
    return line("broken", "key_refused", "check_api_key");
  }
  if (check.code === "rate_limit_exceeded" || check.code === "client_rate_limited") {
    return line("warning", "busy", "wait_for_service");
  }
  if (check.status !== undefined && check.status >= 500) {
    return line("warning", "service_error", "wait_for_service");
  }
  // No answer, or an answer that is not the payment API's: the address is the first suspect.
  return line("broken", "unreachable", "check_base_url");
}

/**
 * The variant line of one registration. `GET /balance` reads the same in both variants, so a
 * wrong `variant` shows where the client detects it: a create refused with `variant_mismatch`
 * (kept on the create line's request for a day), or the service check itself.
 */
export function variantLine(
  provider: RegisteredProvider,
  refusedCreates: number,
  check: ServiceCheck | undefined,
): HealthLine {
  const mismatch = refusedCreates > 0 || check?.code === "variant_mismatch";
  return {
    id: `variant:${provider.key}`,
    state: mismatch ? "broken" : "ok",
    value: provider.options.variant,
    detail: {
      provider: provider.key,
      configured: provider.options.variant,
      refused_creates_day: refusedCreates,
      ...(mismatch ? { reason: "variant_mismatch" } : {}),
    },
    action: mismatch ? "check_variant" : null,
  };
}

/** The lines read from the plugin's tables, by the rules the README's "Health" table states. */
export function tableLines(f: HealthFigures): HealthLine[] {
  const now = f.now.getTime();
  const lines: HealthLine[] = [];

  // Webhooks: the last hour decides when it saw payments, else the last day.
  const recent = Object.keys(f.webhooks.paidHour).some((s) => (f.webhooks.paidHour[s] ?? 0) > 0)
    ? f.webhooks.paidHour
    : f.webhooks.paidDay;
  const byWebhook = sum(recent, (s) => s === "webhook");
  const withoutWebhook = sum(recent, (s) => FOUND_WITHOUT_WEBHOOK.has(s));
  const paidDay = sum(f.webhooks.paidDay, () => true);
  const delay = p95(f.webhooks.delaysMs);
  const webhookDetail = {
    last_received_at: iso(f.webhooks.lastReceivedAt),
    p95_ms: delay,
    deliveries_day: f.webhooks.deliveriesDay,
    paid_by_webhook: byWebhook,
    paid_by_reconciliation: withoutWebhook,
  };
  const webhooks = (state: HealthState, reason?: string, action?: HealthAction): HealthLine => ({
    id: "webhooks",
    state,
    value: delay,
    detail: reason ? { ...webhookDetail, reason } : webhookDetail,
    action: action ?? null,
  });
  if (withoutWebhook > byWebhook) {
    lines.push(webhooks("warning", "found_by_reconciliation", "check_webhook_url"));
  } else if (paidDay > 0 && f.webhooks.deliveriesDay === 0) {
    // Paid through another path (a cart completed after paying) with no delivery all day.
    lines.push(webhooks("warning", "no_deliveries", "check_webhook_url"));
  } else if (delay !== null && delay > SLOW_WEBHOOK_MS) {
    lines.push(webhooks("warning", "slow", "wait_for_service"));
  } else {
    lines.push(webhooks("ok"));
  }

  const late = f.checks.oldestDueAt ? now - f.checks.oldestDueAt.getTime() : 0;
  lines.push({
    id: "checks",
    state: f.checks.overdue === 0 ? "ok" : late > CHECK_BROKEN_MS ? "broken" : "warning",
    value: f.checks.overdue,
    detail: {
      overdue: f.checks.overdue,
      oldest_due_at: iso(f.checks.oldestDueAt),
      oldest_charge_id: f.checks.oldestChargeId,
      ...(f.checks.overdue > 0 ? { reason: "checks_overdue" } : {}),
    },
    action: f.checks.overdue > 0 ? "check_worker" : null,
  });

  // A capture takes well under a second; one waiting past the capture lease has no one on it.
  const waited = f.captures.oldestPaidAt ? now - f.captures.oldestPaidAt.getTime() : 0;
  const captureDetail = {
    waiting: f.captures.waiting,
    oldest_paid_at: iso(f.captures.oldestPaidAt),
    oldest_charge_id: f.captures.oldestChargeId,
    handed: f.captures.handed,
  };
  if (f.captures.handed > 0) {
    lines.push({
      id: "captures",
      state: "broken",
      value: f.captures.waiting,
      detail: { ...captureDetail, reason: "capture_handed_to_merchant" },
      action: "see_needs_attention",
    });
  } else if (f.captures.waiting > 0 && waited > CAPTURE_LEASE_MS) {
    lines.push({
      id: "captures",
      state: "warning",
      value: f.captures.waiting,
      detail: { ...captureDetail, reason: "capture_late" },
      action: "check_worker",
    });
  } else {
    lines.push({
      id: "captures",
      state: "ok",
      value: f.captures.waiting,
      detail: captureDetail,
      action: null,
    });
  }

  lines.push({
    id: "carts",
    state: f.carts.waiting > 0 ? "warning" : "ok",
    value: f.carts.waiting,
    detail: {
      waiting: f.carts.waiting,
      oldest_at: iso(f.carts.oldestAt),
      ...(f.carts.waiting > 0 ? { reason: "cart_not_completed" } : {}),
    },
    action: f.carts.waiting > 0 ? "wait_for_cart_retries" : null,
  });

  // Everything that holds money for the merchant, from the money's state, open notes, and the
  // orders kept without a code (`no_code`): the rows of the same list.
  const attentionTotal =
    Object.values(f.attention).reduce((sum, n) => sum + n, 0) + f.ordersWithoutCode;
  lines.push({
    id: "attention",
    state: attentionTotal > 0 ? "warning" : "ok",
    value: attentionTotal,
    detail: {
      ...f.attention,
      no_code: f.ordersWithoutCode,
      total: attentionTotal,
      ...(attentionTotal > 0 ? { reason: "needs_attention" } : {}),
    },
    action: attentionTotal > 0 ? "see_needs_attention" : null,
  });
  lines.push(refundDeadlineLine(f.owedNearDeadline));

  for (const budget of f.budgets) {
    const waitedMs = budget.oldestWaitingAt ? now - budget.oldestWaitingAt.getTime() : 0;
    const full = budget.used >= budget.limit || budget.pausedUntil !== null;
    const state: HealthState =
      waitedMs > LINE_STUCK_MS ? "broken" : full || budget.waiting > 0 ? "warning" : "ok";
    const reason =
      state === "broken" ? "line_stuck" : state === "warning" ? "budget_spent" : undefined;
    lines.push({
      id: `create_budget:${budget.provider}`,
      state,
      value: `${budget.used}/${budget.limit}`,
      detail: {
        provider: budget.provider,
        used: budget.used,
        limit: budget.limit,
        waiting: budget.waiting,
        oldest_waiting_since: iso(budget.oldestWaitingAt),
        paused_until: iso(budget.pausedUntil),
        ...(reason ? { reason } : {}),
      },
      action: state === "broken" ? "check_worker" : state === "warning" ? "busy_minute" : null,
    });
  }
  return lines;
}

/** The card's line of the devolução clock (`refund_deadline`). */
export const REFUND_DEADLINE_LINE = "refund_deadline";

/**
 * The devolução clock on the card: warning while an owed Pix amount has 15 days or fewer of
 * its 90 left, broken at 5 or fewer and once past (then the money can only go back by a
 * transfer), with the nearest one (records/refund-deadline.ts). Each charge's own alerts are
 * `operations/refund-deadline-alerts.ts`.
 */
export function refundDeadlineLine(owed: readonly OwedNearDeadline[]): HealthLine {
  const count = (state: string) => owed.filter((o) => o.deadline.state === state).length;
  const counts = { warning: count("warning"), critical: count("critical"), past: count("past") };
  const nearest = owed[0];
  const state: HealthState =
    counts.critical + counts.past > 0 ? "broken" : counts.warning > 0 ? "warning" : "ok";
  const reason =
    counts.past > 0
      ? "refund_deadline_past"
      : counts.critical > 0
        ? "refund_deadline_critical"
        : counts.warning > 0
          ? "refund_deadline_near"
          : undefined;
  return {
    id: REFUND_DEADLINE_LINE,
    state,
    value: owed.length,
    detail: {
      ...counts,
      total: owed.length,
      nearest: nearest
        ? {
            charge_id: nearest.charge_id,
            owed_cents: nearest.owed_cents,
            deadline: nearest.deadline.deadline,
            days_left: nearest.deadline.days_left,
          }
        : null,
      ...(reason ? { reason } : {}),
    },
    action:
      counts.past > 0 ? "refund_by_transfer" : state !== "ok" ? "refund_before_deadline" : null,
  };
}

/** Creates the service refused with `variant_mismatch` in the last day, per registration. */
export async function refusedForVariant(db: Knex): Promise<Map<string, number>> {
  const result = (await db.raw(
    `select provider_key, count(*) as n from ${REQUESTS}
      where error_code = 'variant_mismatch' and enqueued_at > now() - interval '1 day'
      group by provider_key`,
  )) as { rows: { provider_key: string; n: string }[] };
  return new Map(result.rows.map((r) => [r.provider_key, Number(r.n)]));
}

// The check's own client: no retries and a short timeout, so a slow service answers the
// admin quickly with "broken" instead of holding the page. Checkout keeps its own client.
const checkClients = new Map<string, Promise<PaymentServiceClient>>();
const inFlight = new Map<string, Promise<ServiceCheck>>();

/**
 * One authenticated read (`GET /balance`) per registration. Read-only: nothing here touches
 * a charge. Checks already running for a registration are shared, so a page opened in many
 * tabs asks the service once.
 */
export function checkService(
  provider: RegisteredProvider,
  logger: PluginLogger,
): Promise<ServiceCheck> {
  const running = inFlight.get(provider.key);
  if (running) return running;
  const check = (async (): Promise<ServiceCheck> => {
    const cacheKey = `${provider.key}|${provider.options.baseUrl}|${provider.options.variant}`;
    let client = checkClients.get(cacheKey);
    if (!client) {
      client = createClient(
        { ...provider.options, timeoutMs: SERVICE_TIMEOUT_MS, maxRetries: 0 },
        logger,
      );
      checkClients.set(cacheKey, client);
    }
    const started = Date.now();
    const checkedAt = new Date();
    try {
      const balance = (await client) as unknown as {
        balance: { retrieve(o: { signal: AbortSignal }): Promise<unknown> };
      };
      await balance.balance.retrieve({ signal: AbortSignal.timeout(SERVICE_TIMEOUT_MS) });
      return { provider: provider.key, checkedAt, latencyMs: Date.now() - started };
    } catch (error) {
      const err = error as { code?: unknown; status?: unknown };
      return {
        provider: provider.key,
        checkedAt,
        latencyMs: Date.now() - started,
        code: typeof err.code === "string" ? err.code : "connection_error",
        ...(typeof err.status === "number" ? { status: err.status } : {}),
      };
    }
  })().finally(() => inFlight.delete(provider.key));
  inFlight.set(provider.key, check);
  return check;
}

/** The worst of some states. */
export function worst(states: readonly HealthState[]): HealthState {
  if (states.includes("broken")) return "broken";
  return states.includes("warning") ? "warning" : "ok";
}

/**
 * One line per provider of the registrations shown (`pp_pix_a`, `pp_boleto_a`): enabled on at
 * least one BRL region, or broken, saying which provider to enable where. Since Medusa 2.20 a
 * session cannot be created with a provider the cart's region does not enable.
 */
export function regionLines(
  read: RegionProviders,
  providers: readonly RegisteredProvider[],
): HealthLine[] {
  const keys = new Set(providers.map((p) => p.key));
  const brl = read.brlRegions.map((region) => region.name);
  return read.providers
    .filter((provider) => provider.is_enabled)
    .filter((provider) => keys.has(provider.id.replace(/^pp_(pix|boleto)_/, "")))
    .map((provider): HealthLine => {
      const id = `region:${provider.id}`;
      const regions = read.brlRegions
        .filter((region) => region.providerIds.includes(provider.id))
        .map((region) => region.name);
      const broken = (reason: string, action: HealthAction): HealthLine => ({
        id,
        state: "broken",
        value: null,
        detail: { provider_id: provider.id, brl_regions: brl, reason },
        action,
      });
      if (brl.length === 0) return broken("no_brl_region", "add_brl_region");
      if (regions.length === 0) return broken("not_on_brl_region", "enable_on_region");
      return {
        id,
        state: "ok",
        value: regions.join(", "),
        detail: { provider_id: provider.id, regions },
        action: null,
      };
    });
}

/**
 * The open MEDs (docs/ledger.md, "Pix returned by the MED") and their deadlines, on the
 * database's São Paulo day: read on the "Needs attention" index, which holds every contested
 * charge.
 */
async function medLine(db: Knex) {
  const result = await db.raw(
    `select charge_id, med_protocol, to_char(med_deadline, 'YYYY-MM-DD') as deadline,
            contested_cents, to_char(now() at time zone 'America/Sao_Paulo', 'YYYY-MM-DD') as today
       from ${CHARGES}
      where deleted_at is null and contested_cents > 0 and med_state = 'open'`,
  );
  const rows = result.rows as {
    charge_id: string;
    med_protocol: string;
    deadline: string;
    contested_cents: string;
    today: string;
  }[];
  const today =
    rows[0]?.today ??
    new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo" }).format(new Date());
  const open: OpenMed[] = rows.map((row) => ({
    chargeId: row.charge_id,
    protocol: row.med_protocol,
    deadline: row.deadline,
    blockedCents: Number(row.contested_cents),
  }));
  return medHealthLine(open, today);
}

/**
 * The whole card: service checks in parallel, then the tables; with `redis` (what the admin
 * route read of the store's Redis, redis-health.ts), its line.
 */
export async function healthReport(
  db: Knex,
  providers: readonly RegisteredProvider[],
  logger: PluginLogger,
  regions: RegionProviders | null = null,
  redis: RedisProbe | null = null,
): Promise<HealthReport> {
  const [checks, refused, figures] = await Promise.all([
    Promise.all(providers.map((p) => checkService(p, logger))),
    refusedForVariant(db),
    readHealthFigures(db, providers),
  ]);
  const lines: HealthLine[] = [];
  providers.forEach((provider, i) => {
    const check = checks[i];
    if (check) lines.push(serviceLine(check));
    lines.push(variantLine(provider, refused.get(provider.key) ?? 0, check));
  });
  if (regions) lines.push(...regionLines(regions, providers));
  lines.push(...tableLines(figures));
  lines.push(await medLine(db));
  if (redis) lines.push(redisLine(redis, figures.now));
  return {
    state: worst(lines.map((l) => l.state)),
    checked_at: figures.now.toISOString(),
    lines,
  };
}
