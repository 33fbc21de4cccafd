import { ApiError } from "./api-error.js";
import { expireIfDue } from "./charges.js";
import type { SandboxContext } from "./context.js";
import { toReais } from "./money.js";
import type { ChargeRecord, WithdrawalRecord } from "./records.js";
import { newestFirst } from "./state.js";
import { chargeTransactionItem, withdrawalTransactionItem } from "./views.js";

/** Balance figures, all in cents. */
export interface BalanceFigures {
  availableCents: number;
  pendingCents: number;
  totalEarnedCents: number;
  totalWithdrawnCents: number;
}

/**
 * The spec's formula, with the release delay splitting paid charges in two:
 * available = net of paid charges released (paid_at + release delay <= now)
 *           - completed withdrawals - processing withdrawals;
 * pending   = net of paid charges not yet released.
 * total_earned is the net of every paid charge; total_withdrawn the completed withdrawals.
 */
export function computeBalance(ctx: SandboxContext): BalanceFigures {
  const now = ctx.clock.now();
  let released = 0;
  let pending = 0;
  for (const charge of ctx.state.charges.values()) {
    if (charge.status !== "paid" || charge.paidAt === undefined) continue;
    const net = charge.amount - charge.fee;
    if (charge.paidAt + ctx.timings.releaseDelayMs <= now) released += net;
    else pending += net;
  }
  let completed = 0;
  let processing = 0;
  for (const withdrawal of ctx.state.withdrawals.values()) {
    if (withdrawal.status === "completed") completed += withdrawal.amount;
    if (withdrawal.status === "processing") processing += withdrawal.amount;
  }
  return {
    availableCents: released - completed - processing,
    pendingCents: pending,
    totalEarnedCents: released + pending,
    totalWithdrawnCents: completed,
  };
}

/** The balance resource; one shape in both variants, as the spec gives one. */
export function balanceView(ctx: SandboxContext): Record<string, unknown> {
  const figures = computeBalance(ctx);
  return {
    object: "balance",
    available: [{ amount: figures.availableCents, currency: "brl" }],
    pending: [{ amount: figures.pendingCents, currency: "brl" }],
    summary: {
      available_balance: toReais(figures.availableCents),
      pending_balance: toReais(figures.pendingCents),
      total_earned: toReais(figures.totalEarnedCents),
      total_withdrawn: toReais(figures.totalWithdrawnCents),
      currency: "BRL",
    },
    livemode: true,
  };
}

const TYPES = ["charge", "withdrawal"] as const;
const STATUSES = ["pending", "paid", "expired", "failed", "processing", "completed"] as const;

type Entry =
  { kind: "charge"; record: ChargeRecord } | { kind: "withdrawal"; record: WithdrawalRecord };

function parseTime(params: URLSearchParams, name: string): number | undefined {
  const raw = params.get(name);
  if (raw === null) return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}/.test(raw) ? Date.parse(raw) : Number.NaN;
  if (Number.isNaN(ms)) {
    throw new ApiError(
      400,
      "invalid_created",
      `\`${name}\` must be an ISO 8601 timestamp such as 2026-07-01T00:00:00Z.`,
      {
        extra: { param: name },
      },
    );
  }
  return ms;
}

/**
 * `GET /v1/transactions`: charges and withdrawals, newest first, filtered, then cut after the
 * `starting_after` cursor (the last id of the previous page, in the variant's id form).
 */
export function listTransactions(
  ctx: SandboxContext,
  params: URLSearchParams,
): Record<string, unknown> {
  const rawLimit = params.get("limit");
  const limit = rawLimit === null ? 10 : /^\d+$/.test(rawLimit) ? Number(rawLimit) : Number.NaN;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw new ApiError(400, "invalid_limit", "`limit` must be an integer from 1 to 100.", {
      extra: { param: "limit" },
    });
  }
  const type = params.get("type");
  if (type !== null && !(TYPES as readonly string[]).includes(type)) {
    throw new ApiError(400, "invalid_type", "`type` must be `charge` or `withdrawal`.", {
      extra: { param: "type" },
    });
  }
  const status = params.get("status");
  if (status !== null && !(STATUSES as readonly string[]).includes(status)) {
    throw new ApiError(400, "invalid_status", `\`status\` must be one of ${STATUSES.join(", ")}.`, {
      extra: { param: "status" },
    });
  }
  const gte = parseTime(params, "created[gte]");
  const lte = parseTime(params, "created[lte]");

  const entries: Entry[] = [];
  for (const charge of ctx.state.charges.values()) entries.push({ kind: "charge", record: charge });
  for (const withdrawal of ctx.state.withdrawals.values())
    entries.push({ kind: "withdrawal", record: withdrawal });
  entries.sort((a, b) => newestFirst(a.record, b.record));

  const idOf = (entry: Entry): string =>
    ctx.variant === "a" ? entry.record.uuid : entry.record.id;
  let start = 0;
  const cursor = params.get("starting_after");
  if (cursor !== null) {
    const index = entries.findIndex((entry) => idOf(entry) === cursor);
    if (index === -1) {
      throw new ApiError(
        400,
        "invalid_starting_after",
        "`starting_after` must be the id of an item of an earlier page.",
        {
          extra: { param: "starting_after" },
        },
      );
    }
    start = index + 1;
  }

  const data: Record<string, unknown>[] = [];
  let hasMore = false;
  for (let i = start; i < entries.length; i++) {
    const entry = entries[i] as Entry;
    if (entry.kind === "charge") expireIfDue(ctx, entry.record);
    if (type !== null && entry.kind !== type) continue;
    if (status !== null && entry.record.status !== status) continue;
    if (gte !== undefined && entry.record.createdAt < gte) continue;
    if (lte !== undefined && entry.record.createdAt > lte) continue;
    if (data.length === limit) {
      hasMore = true;
      break;
    }
    data.push(
      entry.kind === "charge"
        ? chargeTransactionItem(ctx.variant, entry.record)
        : withdrawalTransactionItem(ctx.variant, entry.record),
    );
  }
  return { object: "list", data, has_more: hasMore, url: "/v1/transactions" };
}
