import { redact } from "@pix-checkout/client";
import type { ChargeRow } from "../records/charges";
import type { LifecycleSource } from "../records/charge-lifecycle";
import type { CaptureResult } from "./capture";
import { settleCollection } from "./collection";
import { nextCheckAt } from "../checkout/check-schedule";
import { clientFor } from "../platform/provider-registry";
import { providerOfRow, workerModeOf, type SettleContext } from "./context";
import { readCharge, recordConfirmed } from "./fetch-back";
import type { ChargeStatus } from "../platform/status";
import { annotate, chargeAttributes, withSpan } from "../platform/telemetry";
import { DELIVERY_DETAILS } from "./delivery-details";

/** Who asked to settle a charge; it goes on the timeline. */
export type SettleSource = "webhook" | "reconcile" | "refresh";

/** What a webhook claimed, to compare with what the API says. */
export interface Claim {
  status: ChargeStatus;
  amountCents: number;
}

/** What settling decided. `forged` and `unmatched` changed nothing. */
export type SettleOutcome = "processed" | "duplicate" | "forged" | "unmatched";

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
 * What every path that hears about a charge (webhook, reconciliation, refresh) does, top-down:
 * 1. ask the API (fetch-back), unless the charge is already recorded paid and nobody claims
 *    otherwise (paid is final);
 * 2. refuse a claim the API does not confirm (`forged`: changes nothing);
 * 3. record what the API confirms through the charge lifecycle;
 * 4. let the collection decide what it means: a paid charge is captured or becomes a refund
 *    due; an ended one may end the order that waits on it (collection.ts).
 */
export function settleCharge(
  ctx: SettleContext,
  chargeId: string,
  source: SettleSource,
  claim?: Claim,
): Promise<SettleResult> {
  return withSpan(
    "pix_checkout.settle",
    { "pix_checkout.charge_id": chargeId, "pix_checkout.source": source },
    () => settle(ctx, chargeId, source, claim),
    (result) => ({ "pix_checkout.outcome": result.outcome, "pix_checkout.status": result.status }),
  );
}

async function settle(
  ctx: SettleContext,
  chargeId: string,
  source: SettleSource,
  claim?: Claim,
): Promise<SettleResult> {
  const { records, logger } = ctx;
  const row = await records.charges.byChargeId(chargeId);
  if (!row) return { outcome: "unmatched", detail: DELIVERY_DETAILS.unmatched };
  annotate(chargeAttributes(row));

  const provider = providerOfRow(ctx, row);
  const repeatsConfirmedPayment =
    claim?.status === "paid" && claim.amountCents === Number(row.amount_cents);
  if (row.status === "paid" && (!claim || repeatsConfirmedPayment)) {
    // Paid is final. A check that reaches a charge a webhook settled meanwhile (reconciliation
    // claims rows in batches), or a repeated `charge.paid` that says what the API already
    // confirmed (at-least-once delivery), asks the API nothing and only finishes the capture.
    // A claim that disagrees with the record is still checked, so a forgery is recorded.
    return { ...(await afterPaid(ctx, row, source, false)), status: "paid" };
  }
  const client = await clientFor(provider, logger);
  // Every answer of the API below has touched the row already.
  const stillPending = async (): Promise<SettleResult> => {
    if (row.check_failures > 0) {
      // A charge that had given up on checks (flagged after failures) answered again: put it
      // back on its schedule, so a payment that arrives later is still found.
      await records.checks.scheduleCheck(
        chargeId,
        scheduleOf(row, provider.options.reconcileIntervalMinutes),
      );
    }
    return { outcome: "duplicate", status: "pending", detail: DELIVERY_DETAILS.stillPending };
  };
  // Nobody claims anything (reconciliation, a refresh): the light read answers the common case.
  const read = await readCharge(ctx, client, chargeId, { full: claim !== undefined });
  if (claim && read.charge) {
    const charge = read.charge;
    const untrue =
      claim.status !== charge.status && (claim.status === "paid" || charge.status === "pending");
    const wrongAmount = claim.amountCents !== charge.amountCents;
    if (untrue || wrongAmount) {
      const detail = untrue
        ? `claimed ${claim.status}, the API says ${charge.status}`
        : `claimed ${claim.amountCents} cents, the API says ${charge.amountCents}`;
      await records.events.add({
        chargeId,
        kind: "forged_webhook",
        source,
        detail: { claim, detail },
      });
      logger.warn(
        `ignored a webhook for charge ${chargeId} that the API does not confirm: ${detail}`,
      );
      return { outcome: "forged", status: charge.status, detail };
    }
  }
  const { status, moved, row: current } = await recordConfirmed(ctx, row, read, source);
  switch (status) {
    case "pending":
      return stillPending();
    case "paid":
      return { ...(await afterPaid(ctx, current, source, moved !== undefined)), status: "paid" };
    case "expired":
    case "failed": {
      if (current.status === "paid") {
        return {
          outcome: "duplicate",
          status,
          detail: DELIVERY_DETAILS.paidIgnored(status),
        };
      }
      const { decision } = await settleCollection(ctx, chargeId, source);
      const recheckAt = decision.kind === "recheck" ? decision.at : null;
      return { outcome: moved ? "processed" : "duplicate", status, recheckAt };
    }
  }
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
 * The payment is recorded (the shopper's stream already shows it); now the collection decides
 * what it becomes, and Medusa captures it or it waits for the merchant as a refund due.
 * A capture that fails does not fail the settle: the money is confirmed and recorded, the
 * failure is on the timeline, and reconciliation retries the capture (paid is final, so
 * without asking the API again).
 *
 * A webhook that lands on a server-only instance hands the capture to the worker
 * (`pix_checkout.charge.capture_requested`, taken by the `pix-checkout-capture` subscriber), as
 * Medusa's own payment webhooks leave `processPaymentWorkflow` to a subscriber: capture and cart
 * completion are the heaviest work of a checkout, and on the instance that takes webhooks they
 * delayed the next shopper's `paid`. Reconciliation, on the worker too, is the net under a lost
 * event.
 */
async function afterPaid(
  ctx: SettleContext,
  row: ChargeRow,
  source: SettleSource,
  recordedNow: boolean,
): Promise<SettleResult> {
  const outcome = recordedNow ? "processed" : "duplicate";
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
  if (source === "webhook" && workerModeOf(ctx.container) === "server") {
    await ctx.lifecycle.captureRequested(row, source);
    return { outcome, detail: DELIVERY_DETAILS.workerCaptures };
  }
  try {
    const settled = await settlePaid(ctx, row, source);
    return recordedNow && settled.outcome === "duplicate" ? { ...settled, outcome } : settled;
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
  const { decision, capture } = await settleCollection(ctx, row.charge_id, source);
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
