import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import { createPluginLogger } from "../platform/logger";
import {
  clientFor,
  registeredProviders,
  type RegisteredProvider,
} from "../platform/provider-registry";
import { redact } from "@pix-checkout/client";
import type { ChargeRow } from "../records/charges";
import type { Attention } from "../records/attention";
import { moneyOf } from "../records/ledger-parts";
import { refundDeadline } from "../records/refund-deadline";
import type { Records } from "../records/records";
import { toServiceError } from "../platform/service-error";
import { sendError } from "../platform/errors";
import { flagOf } from "../records/flag-reasons";
import { z } from "zod";
import type { SettleContext } from "../settlement/context";

/** The client calls the admin routes make, beyond the provider's port. */
export interface AdminClient {
  balance: {
    retrieve(): Promise<{
      availableCents: number;
      pendingCents: number;
      currency: string;
      raw: unknown;
    }>;
  };
  transactions: {
    list(params: Record<string, unknown>): PromiseLike<{
      data: Record<string, unknown>[];
      hasMore: boolean;
      nextCursor: string | null;
    }>;
  };
}

/**
 * The provider registration named by `?provider=` (its medusa-config `id`), or the first
 * one. Answers 404 `provider_not_found` itself and returns undefined when there is none.
 */
export function pickProvider(
  req: MedusaRequest,
  res: MedusaResponse,
): { provider: RegisteredProvider; all: string[] } | undefined {
  const providers = registeredProviders(req.scope.resolve(ContainerRegistrationKeys.CONFIG_MODULE));
  const wanted = typeof req.query.provider === "string" ? req.query.provider : undefined;
  const provider = wanted ? providers.find((p) => p.key === wanted) : providers[0];
  if (!provider) {
    sendError(
      res,
      "provider_not_found",
      wanted
        ? `No Pix Checkout provider is registered with id "${wanted.slice(0, 64)}".`
        : "No Pix Checkout provider is registered under the payment module.",
    );
    return undefined;
  }
  return { provider, all: providers.map((p) => p.key) };
}

/** The client of a registration, with the admin calls typed. */
export async function adminClient(
  req: MedusaRequest,
  provider: RegisteredProvider,
): Promise<AdminClient> {
  const logger = createPluginLogger(req.scope.resolve(ContainerRegistrationKeys.LOGGER));
  return (await clientFor(provider, logger)) as unknown as AdminClient;
}

/**
 * Answers a failed payment-API call with the API's own code and the status the one error
 * tree gives it (service-error.ts: 400 for a refused filter, 503 for a passing failure, 502
 * otherwise), and a message without secrets.
 */
export function sendUpstreamError(res: MedusaResponse, error: unknown): void {
  const { code, status } = toServiceError(error);
  const message = (error as { message?: unknown }).message;
  res.status(status).json({
    code,
    message: `The payment service answered: ${redact(String(message ?? "unknown error"))}`,
  });
}

/** Reais (the API's floats) to integer cents, at this edge only. */
export function reaisToCents(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? Math.round(value * 100) : null;
}

/** A charge's money as the admin shows it: the ledger's parts in integer cents. */
export function adminMoney(row: ChargeRow): Record<string, unknown> {
  const money = moneyOf(row);
  return {
    received: money.received,
    held: money.held,
    held_reason: money.heldReason,
    captured: money.captured,
    owed: money.owed,
    owed_reason: money.owedReason,
    returned: money.returned,
    contested: money.contested,
    /** The charge's MED case (docs/ledger.md "Pix returned by the MED"), or null. */
    med: medCaseOf(row),
  };
}

/**
 * A `date` column as `YYYY-MM-DD`. node-postgres reads a date as local midnight, so the day is
 * read in local time (toISOString could name the day before).
 */
export function dayOf(value: string | Date | null | undefined): string {
  if (!(value instanceof Date)) return String(value ?? "").slice(0, 10);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${value.getFullYear()}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}`;
}

/** A charge's MED case as the admin shows it; null when it was never contested. */
export function medCaseOf(row: ChargeRow): Record<string, unknown> | null {
  if (!row.med_state || !row.med_protocol) return null;
  const deadline = row.med_deadline;
  return {
    state: row.med_state,
    protocol: row.med_protocol,
    /** `YYYY-MM-DD`: the date by which the institution decides. */
    deadline: dayOf(deadline),
    blocked: Number(row.med_blocked_cents ?? 0),
    /** Of `blocked`, money already owed back: still owed, the case's until its outcome. */
    blocked_owed: Number(row.med_blocked_owed_cents ?? 0),
    opened_at: row.med_opened_at ?? null,
    closed_at: row.med_closed_at ?? null,
  };
}

/** A charge row as the admin views show it (with its `attention`, when the read computed it). */
export function adminCharge(
  row: ChargeRow & { attention?: Attention | null },
): Record<string, unknown> {
  const display = (typeof row.display === "string" ? JSON.parse(row.display) : row.display) as {
    pix?: { copy_paste?: string; payment_link?: string };
    boleto?: { url?: string; digitable_line?: string };
  } | null;
  return {
    charge_id: row.charge_id,
    provider_id: row.provider_id,
    session_id: row.session_id,
    method: row.method,
    variant: row.variant,
    status: row.status,
    /** What its collection was for (`cart`, `order`, `order_edit`, `exchange`, `claim`, `return`). */
    purpose: row.purpose ?? null,
    amount: Number(row.amount_cents),
    currency: row.currency_code.toUpperCase(),
    expires_at: row.expires_at,
    paid_at: row.paid_at,
    /** What the API says was paid, in cents; below `amount` for an underpaid charge. */
    received: row.received_cents === null ? null : Number(row.received_cents),
    /** Where every real received is: the ledger's parts, each with its reason (docs/ledger.md). */
    money: adminMoney(row),
    captured_at: row.captured_at,
    last_checked_at: row.last_checked_at,
    /** What the charge needs from the merchant, from its money first (records/charges.ts). */
    attention: row.attention ?? null,
    /**
     * The deadline of its Pix money owed back, and the days left (records/refund-deadline.ts);
     * null when nothing is owed, or for a boleto (no Pix devolução window).
     */
    refund_deadline: refundDeadline(row, new Date()),
    flagged: row.flagged,
    flag: flagOf(row),
    flag_resolved_at: row.flag_resolved_at,
    flag_resolution_note: row.flag_resolution_note,
    superseded_at: row.superseded_at,
    created_at: row.created_at,
    pix: display?.pix?.copy_paste
      ? { copy_paste: display.pix.copy_paste, payment_link: display.pix.payment_link ?? null }
      : null,
    boleto: display?.boleto?.url
      ? { url: display.boleto.url, digitable_line: display.boleto.digitable_line ?? null }
      : null,
  };
}

/**
 * The charges of these payment collections, newest first, each with its state events and
 * webhook deliveries, oldest first (the admin's order view).
 */
export async function chargesOfCollections(
  records: Records,
  collectionIds: readonly string[],
): Promise<
  { row: ChargeRow; events: Record<string, unknown>[]; deliveries: Record<string, unknown>[] }[]
> {
  const rows = await records.attention.ofCollections(collectionIds);
  const ids = rows.map((r) => r.charge_id);
  const [events, deliveries] = await Promise.all([
    records.events.ofCharges(ids),
    records.deliveries.ofCharges(ids),
  ]);
  return rows.map((row) => ({
    row,
    events: events.filter((e) => e.charge_id === row.charge_id),
    deliveries: deliveries.filter((d) => d.charge_id === row.charge_id),
  }));
}

/** A delivery row without its body (the body holds payer names; the outcome is what matters). */
export function adminDelivery(row: Record<string, unknown>): Record<string, unknown> {
  return {
    id: row.id,
    provider_key: row.provider_key,
    event: row.event,
    charge_id: row.charge_id,
    outcome: row.outcome,
    detail: row.detail,
    attempts: row.attempts,
    created_at: row.created_at,
    processed_at: row.processed_at,
  };
}

const chargeParams = z.object({ charge_id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/) });

/**
 * The charge named by `:charge_id` of an admin route. Answers 400 `invalid_charge_id` or 404
 * `charge_not_found` itself and returns undefined when there is none.
 */
export async function chargeOfRequest(
  req: MedusaRequest,
  res: MedusaResponse,
  ctx: SettleContext,
): Promise<ChargeRow | undefined> {
  const parsed = chargeParams.safeParse(req.params);
  if (!parsed.success) {
    sendError(res, "invalid_charge_id", "charge_id must be a charge id of the payment service.");
    return undefined;
  }
  const row = await ctx.records.charges.byChargeId(parsed.data.charge_id);
  if (!row) {
    sendError(
      res,
      "charge_not_found",
      `No charge ${parsed.data.charge_id} is known to this store.`,
    );
  }
  return row;
}
