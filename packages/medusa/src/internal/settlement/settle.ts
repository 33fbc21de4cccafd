import { redact } from "@pix-checkout/client";
import type { ChargeRow } from "../records/charges";
import type { LifecycleSource } from "../records/charge-lifecycle";
import type { CaptureResult } from "./capture";
import { settleCollection, type CollectionOutcome } from "./collection";
import { settleAndFollow } from "./follow-ups";
import { nextCheckAt } from "../checkout/check-schedule";
import { providerOfRow, workerModeOf, type SettleContext } from "./context";
import { hear, type Claim, type FetchedBack } from "./fetch-back";
import type { ChargeStatus } from "../platform/status";
import { annotate, chargeAttributes, withSpan } from "../platform/telemetry";
import { DELIVERY_DETAILS } from "./delivery-details";
import { captureAfterAnswer } from "./capture-after-answer";

export type { Claim } from "./fetch-back";

/** Who asked to settle a charge; it goes on the timeline. */
export type SettleSource = "webhook" | "reconcile" | "refresh";

/** What settling decided. `forged` and `unmatched` changed nothing. */
export type SettleOutcome = "processed" | "duplicate" | "forged" | "unmatched";

/** How a door settles. */
export interface SettleOptions {
  /**
   * Someone waits on this door's answer to see the payment (the shopper's "I already paid"):
   * Medusa's capture and cart completion go on after it (on the worker, on a server-only
   * instance), and the order's news follows on the shopper's stream.
   */
  captureAfterAnswer?: boolean;
}

/** Result of `settleCharge`. */
export interface SettleResult {
  outcome: SettleOutcome;
  /** The API's status, when it was asked. */
  status?: ChargeStatus;
  /** When a final charge must be asked about again (a boleto inside its grace period). */
  recheckAt?: Date | null;
  detail?: string;
}

/**
 * What every path that hears about a charge (webhook, reconciliation, refresh) does, as a
 * line: the charge's record, what the service confirms of it (fetch-back.ts `hear`: a claim it
 * does not confirm is `forged` and changes nothing), then what that status leads to: a payment
 * goes to the collection's decision (collection.ts: captured, or owed back), an end may end the
 * order that waits on it, a pending charge keeps its schedule.
 */
export function settleCharge(
  ctx: SettleContext,
  chargeId: string,
  source: SettleSource,
  claim?: Claim,
  options: SettleOptions = {},
): Promise<SettleResult> {
  return withSpan(
    "pix_checkout.settle",
    { "pix_checkout.charge_id": chargeId, "pix_checkout.source": source },
    () => settle(ctx, chargeId, source, claim, options),
    (result) => ({ "pix_checkout.outcome": result.outcome, "pix_checkout.status": result.status }),
  );
}

async function settle(
  ctx: SettleContext,
  chargeId: string,
  source: SettleSource,
  claim: Claim | undefined,
  options: SettleOptions,
): Promise<SettleResult> {
  const row = await ctx.records.charges.byChargeId(chargeId);
  if (!row) return { outcome: "unmatched", detail: DELIVERY_DETAILS.unmatched };
  annotate(chargeAttributes(row));
  const heard = await hear(ctx, row, source, claim);
  if (heard.kind === "forged") {
    return { outcome: "forged", status: heard.status, detail: heard.detail };
  }
  return { ...(await follow(ctx, heard, source, options)), status: heard.status };
}

/** What a status the service confirmed leads to. */
async function follow(
  ctx: SettleContext,
  { status, row, moved }: FetchedBack,
  source: SettleSource,
  options: SettleOptions,
): Promise<Omit<SettleResult, "status">> {
  const outcome = moved ? "processed" : "duplicate";
  switch (status) {
    case "pending":
      return stillPending(ctx, row);
    case "paid":
      return afterPaid(ctx, row, source, outcome, options);
    case "expired":
    case "failed": {
      // Paid is final: a later end changes nothing.
      if (row.status === "paid") return { outcome, detail: DELIVERY_DETAILS.paidIgnored(status) };
      const { decision } = await settleCollection(ctx, row.charge_id, source);
      return { outcome, recheckAt: decision.kind === "recheck" ? decision.at : null };
    }
  }
}

/**
 * A charge the service says is still pending: nothing moves. One that had given up on checks
 * (flagged after failures) answered again, so it is put back on its schedule, and a payment
 * that arrives later is still found.
 */
async function stillPending(
  ctx: SettleContext,
  row: ChargeRow,
): Promise<Omit<SettleResult, "status">> {
  if (row.check_failures > 0) {
    const provider = providerOfRow(ctx, row);
    await ctx.records.checks.scheduleCheck(
      row.charge_id,
      scheduleOf(row, provider.options.reconcileIntervalMinutes),
    );
  }
  return { outcome: "duplicate", detail: DELIVERY_DETAILS.stillPending };
}

/** When a still-pending charge is next asked about (check-schedule.ts). */
function scheduleOf(row: ChargeRow, intervalMinutes: number): Date {
  return nextCheckAt({
    createdAt: new Date(row.created_at),
    expiresAt: row.expires_at ? new Date(row.expires_at) : null,
    now: new Date(),
    intervalMs: intervalMinutes * 60_000,
    method: row.method,
  });
}

/**
 * The payment is recorded (the ledger's commit notified the shopper's stream, which shows it
 * paid with its order not paid yet); now the collection decides what it becomes, and Medusa
 * captures it or it waits for the merchant as a refund due. The order's news is the stream's
 * next event (records/charge-channel.ts, storefront/live-status/order-news.ts).
 * A capture that fails does not fail the settle: the money is confirmed and recorded, the
 * failure is on the timeline, and reconciliation retries the capture (paid is final, so
 * without asking the API again).
 *
 * A webhook that lands on a server-only instance hands the capture to the worker
 * (`pix_checkout.charge.capture_requested`, taken by the `pix-checkout-capture` subscriber), as
 * Medusa's own payment webhooks leave `processPaymentWorkflow` to a subscriber: capture and cart
 * completion are the heaviest work of a checkout, and on the instance that takes webhooks they
 * delayed the next shopper's `paid`. Reconciliation, on the worker too, is the net under a lost
 * event. On an instance that runs everything, a webhook's capture and the shopper's own
 * re-check's (`captureAfterAnswer`) run after the answer, which is given at the ledger's commit.
 * Every other door (reconciliation, the admin, the worker's subscriber) captures before it
 * answers.
 */
async function afterPaid(
  ctx: SettleContext,
  row: ChargeRow,
  source: SettleSource,
  outcome: SettleOutcome,
  { captureAfterAnswer: shopperWaits = false }: SettleOptions,
): Promise<Omit<SettleResult, "status">> {
  // Nothing held and no cart waiting to become an order: nothing follows. Captured and its cart
  // no order yet: the collection's decision completes the cart (a re-check of it is the
  // merchant's retry).
  if (Number(row.held_cents) === 0 && !row.awaiting_order_since) {
    return {
      outcome,
      detail:
        Number(row.owed_cents) > 0 && row.owed_reason
          ? DELIVERY_DETAILS.refundDue(row.owed_reason)
          : DELIVERY_DETAILS.alreadyCaptured,
    };
  }
  if ((source === "webhook" || shopperWaits) && workerModeOf(ctx.container) === "server") {
    await ctx.lifecycle.captureRequested(row, source);
    return { outcome, detail: DELIVERY_DETAILS.workerCaptures };
  }
  // On an instance that runs everything, a webhook's capture runs after its answer too: the
  // service delivers the next payments' webhooks while this one is still open, and a capture
  // in each of them (40 at once after a busy minute) kept their payments unrecorded, and their
  // shoppers' "paid" waiting, behind the captures (bench/live-status.mjs, inline path). The
  // payment is recorded when it answers; reconciliation captures it should the process stop.
  if (shopperWaits || source === "webhook") {
    captureAfterAnswer(ctx, row.charge_id, source);
    return { outcome, detail: DELIVERY_DETAILS.capturesAfterAnswer };
  }
  try {
    const settled = paidResult(await settleAndFollow(ctx, row.charge_id, source));
    return outcome === "processed" && settled.outcome === "duplicate"
      ? { ...settled, outcome }
      : settled;
  } catch (error) {
    return {
      outcome,
      detail: DELIVERY_DETAILS.captureRetry(redact((error as Error)?.message ?? String(error))),
    };
  }
}

/**
 * Every path that captures a paid charge (a webhook, the worker's subscriber, reconciliation,
 * the admin's re-check and accept) comes through here, so each asks the collection's one
 * decision (collection.ts) and none captures a payment that is held or due a refund.
 */
export async function settlePaid(
  ctx: SettleContext,
  row: ChargeRow,
  source: LifecycleSource,
): Promise<CaptureResult> {
  return paidResult(await settleAndFollow(ctx, row.charge_id, source));
}

/** What the collection's decision on a paid charge did, as a door reports it. */
function paidResult({ decision, capture }: CollectionOutcome): CaptureResult {
  if (capture) return capture;
  switch (decision.kind) {
    case "hold":
      return { outcome: "processed", detail: DELIVERY_DETAILS.held(decision.reason) };
    case "refund_due":
      return { outcome: "processed", detail: DELIVERY_DETAILS.refundDue(decision.reason) };
    default:
      return {
        outcome: "duplicate",
        detail: decision.kind === "nothing" ? decision.why : decision.kind,
      };
  }
}
