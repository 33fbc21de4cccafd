import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import { processDelivery } from "./process-delivery";
import { keyOfProviderId, providerByKey, registeredProviders } from "../platform/provider-registry";
import { redact } from "@pix-checkout/client";
import { settleCollection } from "./collection";
import { settlePaid, settleCharge } from "./settle";
import type { SettleContext } from "./context";
import type { ChargeRow } from "../records/charges";
import { CHECK_ATTEMPTS } from "../records/charge-checks";
import { deliverDueFollowUps } from "./follow-ups";
import { settleFailedCreates } from "./failed-creates";
import { capturedOfCanceledOrders } from "../medusa/canceled-orders";
import { nextCheckAt } from "../checkout/check-schedule";
import { sweepCreateLine } from "../create-line/line";
import type { ParsedWebhook } from "./webhook-intake";
import { recordCheckLag, reportAttributes, withSpan } from "../platform/telemetry";
import { PixCheckoutError } from "../platform/errors";

/** Charges and deliveries handled per run, so one run stays short. */
const BATCH = 100;
/** A capture's own follow-up (its cart becoming an order) has this long before a pass helps. */
const AWAITING_GRACE_MS = 30_000;
/** A delivery still `received` after this long lost its in-process worker (crash, deploy). */
const STALE_DELIVERY_MS = 30_000;

/** What one reconciliation run did. */
export interface ReconcileReport {
  checked: number;
  settled: number;
  deliveriesRetried: number;
  cartsCompleted: number;
  /** Follow-ups of captures delivered (the outbox). */
  followUps: number;
  /** Captured money found on an order canceled since, and owed back. */
  canceledOrders: number;
  /** Orders whose code could not be created: ended, or kept for the merchant. */
  failedCreateOrders: number;
  errors: number;
}

/**
 * One reconciliation pass, through the same state machine as webhooks:
 * 0. the create line is swept: waiting creates are sent as the budget allows (in case every
 *    instance that asked for them went quiet), and a send whose process died is recovered;
 * 1. pending (or locally canceled) charges whose check is due are claimed and asked about
 *    (young charges on a decaying schedule, then every `reconcileIntervalMinutes`, and just
 *    after expiry: see check-schedule.ts); a check that fails backs that row off, so a bad
 *    row never delays a good one, and after `CHECK_ATTEMPTS` failures it is flagged;
 * 2. paid charges whose capture never finished (no claim, or a lapsed one) are captured;
 * 3. deliveries that were never processed, did not match yet, or failed are retried, each on
 *    its own backoff; one that can never be processed (its registration is gone, its body
 *    unreadable) is finished as `failed`;
 * 4. captured payments whose cart is no order yet (pay-first) are decided again: the cart is
 *    completed, or, once it kept failing, the payment is a refund due (decide.ts);
 * 5. what follows a capture and was not delivered yet (the outbox: the order's transactions,
 *    the `captured` event and the shopper's "paid" message, the canceled-order check) is
 *    delivered;
 * 6. captured money whose order was canceled without the plugin hearing of it (its
 *    `order.canceled` subscriber failed, or never ran) is decided again: owed back;
 * 7. creates that failed after their cart became an order (order-first in a busy minute) end
 *    that order, or keep it for the merchant (failed-creates.ts).
 */
export function reconcileOnce(
  ctx: SettleContext,
  now = new Date(),
  signal?: AbortSignal,
): Promise<ReconcileReport> {
  return withSpan(
    "pix_checkout.reconcile",
    {},
    () => reconcile(ctx, now, signal),
    reportAttributes,
  );
}

/**
 * `signal` is the job lock's: once it fires (Medusa's locking lost the pass's lease), another
 * instance may be running the pass, so this one takes no further charge, delivery or cart and
 * throws the signal's reason. What it already started finishes under its collection's own lease.
 */
async function reconcile(
  ctx: SettleContext,
  now: Date,
  signal: AbortSignal | undefined,
): Promise<ReconcileReport> {
  const stillHeld = () => signal?.throwIfAborted();
  const report: ReconcileReport = {
    checked: 0,
    settled: 0,
    deliveriesRetried: 0,
    cartsCompleted: 0,
    followUps: 0,
    canceledOrders: 0,
    failedCreateOrders: 0,
    errors: 0,
  };
  const configModule = ctx.container.resolve(ContainerRegistrationKeys.CONFIG_MODULE);
  const providers = registeredProviders(configModule);
  if (providers.length === 0) return report;
  // Creates waiting in line whose instances all went quiet, or whose sender died mid-send.
  await sweepCreateLine(ctx.db, providers, ctx.lifecycle, ctx.logger, configModule).catch(
    (error: unknown) => {
      report.errors += 1;
      ctx.logger.warn(`create line sweep failed: ${redact((error as Error).message ?? "")}`);
    },
  );
  stillHeld();
  for (const row of await ctx.records.checks.claimDueChecks(now, BATCH)) {
    stillHeld();
    const provider = providers.find((p) => p.key === keyOfProviderId(row.provider_id));
    report.checked += 1;
    recordCheckLag(row, now);
    try {
      if (!provider) {
        throw new PixCheckoutError(
          "provider_not_found",
          `no provider is registered as ${row.provider_id} (was the provider's id renamed in medusa-config?)`,
        );
      }
      const result = await settleCharge(ctx, row.charge_id, "reconcile");
      if (result.outcome === "processed") report.settled += 1;
      // A charge the API still calls pending is asked again on its schedule; a final one only
      // inside a boleto's grace period.
      await ctx.records.checks.scheduleCheck(
        row.charge_id,
        result.status === "pending"
          ? nextCheckAt({
              createdAt: new Date(row.created_at),
              expiresAt: row.expires_at ? new Date(row.expires_at) : null,
              now,
              intervalMs: provider.options.reconcileIntervalMinutes * 60_000,
              method: row.method,
            })
          : (result.recheckAt ?? null),
      );
    } catch (error) {
      report.errors += 1;
      await recordCheckFailure(ctx, row, now, redact((error as Error).message ?? String(error)));
    }
  }
  // Paid is final, so a capture that never finished needs no new question to the API.
  stillHeld();
  for (const row of await ctx.records.captures.paidNotCaptured(BATCH, now)) {
    stillHeld();
    report.checked += 1;
    try {
      const result = await settlePaid(ctx, row, "reconcile");
      if (result.outcome === "processed") report.settled += 1;
    } catch (error) {
      report.errors += 1;
      ctx.logger.warn(
        `capturing paid charge ${row.charge_id} failed: ${redact((error as Error).message)}`,
      );
    }
  }
  stillHeld();
  const deliveries = await ctx.records.deliveries.unfinished(
    now,
    new Date(now.getTime() - STALE_DELIVERY_MS),
    BATCH,
  );
  for (const delivery of deliveries) {
    stillHeld();
    const id = String(delivery.id);
    let provider;
    let body: ParsedWebhook;
    try {
      provider = providerByKey(configModule, String(delivery.provider_key));
      body = (
        typeof delivery.body === "string" ? JSON.parse(delivery.body) : delivery.body
      ) as ParsedWebhook;
    } catch (error) {
      // A registration renamed or removed, or a body that cannot be read: no retry can help.
      report.errors += 1;
      const message = redact((error as Error).message ?? String(error));
      await ctx.records.deliveries.finish(id, "failed", message);
      ctx.logger.warn(`delivery ${id} cannot be processed and is given up: ${message}`);
      continue;
    }
    try {
      await processDelivery(ctx, id, provider, body);
      report.deliveriesRetried += 1;
    } catch (error) {
      report.errors += 1;
      ctx.logger.warn(`retrying delivery ${id} failed: ${redact((error as Error).message)}`);
    }
  }
  // Captured payments whose cart is no order yet: the collection decides (complete the cart,
  // or, once it kept failing, a refund due). Past a grace, so a capture in flight finishes first.
  const settled = new Date(now.getTime() - AWAITING_GRACE_MS);
  stillHeld();
  for (const row of await ctx.records.captures.awaitingOrder(settled, BATCH)) {
    stillHeld();
    try {
      const { cart } = await settleCollection(ctx, row.charge_id, "reconcile");
      if (cart === "completed") report.cartsCompleted += 1;
      if (cart === "failed") report.errors += 1;
    } catch (error) {
      report.errors += 1;
      ctx.logger.warn(
        `completing the cart of charge ${row.charge_id} failed: ${redact((error as Error).message)}`,
      );
    }
  }
  stillHeld();
  const followUps = await deliverDueFollowUps(ctx, now);
  report.followUps += followUps.delivered;
  report.errors += followUps.errors;
  stillHeld();
  for (const chargeId of await capturedOfCanceledOrders(ctx.db, BATCH)) {
    stillHeld();
    try {
      const { decision } = await settleCollection(ctx, chargeId, "reconcile");
      if (decision.kind === "refund_due") report.canceledOrders += 1;
    } catch (error) {
      report.errors += 1;
      ctx.logger.warn(
        `deciding captured charge ${chargeId} of a canceled order failed: ${redact((error as Error).message)}`,
      );
    }
  }
  stillHeld();
  const failedCreates = await settleFailedCreates(ctx, now);
  report.failedCreateOrders += failedCreates.ordersEnded + failedCreates.ordersKept;
  return report;
}

/** Backs a row off after a failed check, and hands it to the merchant at the cap. */
async function recordCheckFailure(
  ctx: SettleContext,
  row: ChargeRow,
  now: Date,
  message: string,
): Promise<void> {
  const failures = await ctx.records.checks.recordCheckFailure(row.charge_id, now);
  ctx.logger.warn(`reconciliation of charge ${row.charge_id} failed (${failures}): ${message}`);
  if (failures === CHECK_ATTEMPTS) {
    await ctx.lifecycle.flag(
      row.charge_id,
      { code: "check_failed", attempts: failures, message },
      "reconcile",
    );
  }
}
