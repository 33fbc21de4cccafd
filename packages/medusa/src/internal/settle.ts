import {
  cancelOrderWorkflow,
  completeCartWorkflow,
  processPaymentWorkflow,
} from "@medusajs/medusa/core-flows";
import { ContainerRegistrationKeys, Modules, PaymentActions } from "@medusajs/framework/utils";
import type { IPaymentModuleService, MedusaContainer } from "@medusajs/framework/types";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { CAPTURE_ATTEMPTS, ChargeStore, type ChargeRow } from "./charge-store";
import { redactString } from "./redact";
import { createPluginLogger, type PluginLogger } from "./logger";
import { fromCents } from "./money";
import { clientFor, keyOfProviderId, providerByKey } from "./provider-registry";
import type { ChargeStatus } from "./status";

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
  detail?: string;
}

/** Everything the state machine needs from Medusa. */
export interface SettleContext {
  container: MedusaContainer;
  store: ChargeStore;
  logger: PluginLogger;
}

/** Builds the context from a full (request, job or workflow) container. */
export function settleContext(container: MedusaContainer): SettleContext {
  return {
    container,
    store: new ChargeStore(container.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION)),
    logger: createPluginLogger(container.resolve(ContainerRegistrationKeys.LOGGER)),
  };
}

/**
 * The one-way state machine every path goes through (webhook, reconciliation, refresh):
 * ask the API (fetch-back), then move the local charge forward only.
 *
 * - `paid` is final: later `expired`/`failed` are ignored.
 * - `paid` after the charge expired or was canceled is still captured, and flagged.
 * - Each transition is one conditional UPDATE and the capture is claimed once, so five
 *   duplicate webhooks on three instances still give one capture.
 */
export async function settleCharge(
  ctx: SettleContext,
  chargeId: string,
  source: SettleSource,
  claim?: Claim,
): Promise<SettleResult> {
  const { store, logger } = ctx;
  const row = await store.byChargeId(chargeId);
  if (!row) return { outcome: "unmatched", detail: "no payment session knows this charge yet" };

  const provider = providerByKey(
    ctx.container.resolve(ContainerRegistrationKeys.CONFIG_MODULE),
    keyOfProviderId(row.provider_id),
  );
  const client = await clientFor(provider, logger);
  const charge = await client.charges.retrieve(chargeId);
  await store.touch(chargeId);

  if (claim) {
    const claimsPaid = claim.status === "paid" && charge.status !== "paid";
    const wrongAmount = claim.amountCents !== charge.amountCents;
    if (claimsPaid || wrongAmount) {
      const detail = claimsPaid
        ? `claimed paid, the API says ${charge.status}`
        : `claimed ${claim.amountCents} cents, the API says ${charge.amountCents}`;
      await store.addEvent({ chargeId, kind: "forged_webhook", source, detail: { claim, detail } });
      logger.warn(
        `ignored a webhook for charge ${chargeId} that the API does not confirm: ${detail}`,
      );
      return { outcome: "forged", status: charge.status, detail };
    }
  }
  if (charge.amountCents !== row.amount_cents) {
    await store.flag(chargeId, `API amount ${charge.amountCents} differs from ${row.amount_cents}`);
  }

  switch (charge.status) {
    case "paid":
      return { ...(await onPaid(ctx, row, source)), status: "paid" };
    case "expired":
    case "failed":
      return { ...(await onEnded(ctx, row, charge.status, source)), status: charge.status };
    case "pending":
      return { outcome: "duplicate", status: "pending", detail: "still pending" };
  }
}

async function onPaid(
  ctx: SettleContext,
  row: ChargeRow,
  source: SettleSource,
): Promise<SettleResult> {
  const { store, logger } = ctx;
  const chargeId = row.charge_id;
  const paidAt = new Date();
  let moved = await store.transition(chargeId, ["pending"], "paid", { paid_at: paidAt });
  if (moved) {
    await store.addEvent({ chargeId, kind: "paid", source, from: "pending", to: "paid" });
  } else {
    const reason = `paid after the charge was ${row.status}`;
    moved = await store.transition(chargeId, ["expired", "failed", "canceled"], "paid", {
      paid_at: paidAt,
      flagged: true,
      flag_reason: reason,
    });
    if (moved) {
      await store.addEvent({
        chargeId,
        kind: "late_payment",
        source,
        from: row.status,
        to: "paid",
        detail: { reason },
      });
      logger.warn(
        `charge ${chargeId} was ${reason}; capturing it and flagging it for the merchant`,
      );
    }
  }
  const captured = await captureOnce(ctx, (await store.byChargeId(chargeId)) ?? row, source);
  return moved && captured.outcome === "duplicate" ? { outcome: "processed" } : captured;
}

/**
 * Makes a locally paid charge a captured Medusa payment on an order, exactly once. Needs no
 * call to the payment service (paid is final), so reconciliation uses it for stuck captures.
 *
 * Medusa may already have captured it: when `authorizePayment` answers `captured` (the shopper
 * paid before completing the cart), Medusa captures inside cart completion, under a claim that
 * `authorizePayment` took. Once that claim is released by its lease, the capture is confirmed
 * here from Medusa's own payment rather than made again.
 */
export async function captureOnce(
  ctx: SettleContext,
  row: ChargeRow,
  source: SettleSource,
): Promise<SettleResult> {
  const { store, logger } = ctx;
  const chargeId = row.charge_id;
  if (row.captured_at) return { outcome: "duplicate", detail: "already captured" };
  // Only the claim holder captures or confirms, so a capture is recorded exactly once.
  if (!(await store.claimCapture(chargeId))) {
    return { outcome: "duplicate", detail: "another process is capturing it" };
  }
  let capturedBy: "this process" | "cart completion" = "this process";
  try {
    if ((await paymentOfSession(ctx.container, row.session_id))?.captured_at) {
      capturedBy = "cart completion";
    } else {
      await processPaymentWorkflow(ctx.container).run({
        input: {
          action: PaymentActions.SUCCESSFUL,
          data: { session_id: row.session_id, amount: fromCents(row.amount_cents) },
        },
      });
      // The workflow's steps are conditional and can end without capturing anything, so only
      // Medusa's own captured payment counts as done.
      if (!(await paymentOfSession(ctx.container, row.session_id))?.captured_at) {
        throw new Error(
          `Medusa holds no captured payment for session ${row.session_id} after processPaymentWorkflow`,
        );
      }
    }
  } catch (error) {
    // Give the claim back so the next delivery or the reconciliation job captures it.
    await store.releaseCapture(chargeId);
    await recordCaptureFailure(ctx, row, source, error);
    throw error;
  }
  if (!(await store.confirmCapture(chargeId))) {
    // Our lease lapsed mid-capture and a later holder recorded it first.
    return { outcome: "duplicate", detail: "already captured" };
  }
  await store.addEvent({
    chargeId,
    kind: "captured",
    source,
    detail: { session_id: row.session_id, by: capturedBy },
  });
  logger.info(`captured charge ${chargeId} (session ${row.session_id}, by ${capturedBy})`);
  await completeCartIfNeeded(ctx, row, source);
  const order = await orderOfCollection(ctx.container, row.payment_collection_id);
  if (order?.status === "canceled") {
    // The money arrived; the merchant decides whether to ship or refund.
    await store.flag(chargeId, `paid after order ${order.id} was canceled`);
    await store.addEvent({
      chargeId,
      kind: "flagged",
      source,
      detail: { reason: "order canceled", order_id: order.id },
    });
    logger.warn(
      `charge ${chargeId} was paid after order ${order.id} was canceled; flagged for the merchant`,
    );
  }
  return { outcome: "processed" };
}

/**
 * Puts a failed capture on the timeline. After `CAPTURE_ATTEMPTS` failures the charge is
 * flagged for the merchant (money arrived, Medusa could not record it) and reconciliation
 * stops retrying it every run; a new delivery or the admin's re-check still tries again.
 */
async function recordCaptureFailure(
  ctx: SettleContext,
  row: ChargeRow,
  source: SettleSource,
  error: unknown,
): Promise<void> {
  const { store, logger } = ctx;
  const message = redactString((error as Error)?.message ?? String(error));
  await store.addEvent({
    chargeId: row.charge_id,
    kind: "capture_failed",
    source,
    detail: { message },
  });
  const failures = await store.countEvents(row.charge_id, "capture_failed");
  if (failures === CAPTURE_ATTEMPTS) {
    await store.flag(
      row.charge_id,
      `paid, but Medusa could not capture it (${failures} attempts): ${message}`,
    );
    logger.error(
      `charge ${row.charge_id} is paid but could not be captured after ${failures} attempts; flagged for the merchant: ${message}`,
    );
  }
}

/** Medusa's payment for a session, if cart completion or a capture already made one. */
async function paymentOfSession(
  container: MedusaContainer,
  sessionId: string,
): Promise<{ id: string; captured_at: Date | string | null } | undefined> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY);
  const { data } = await query.graph({
    entity: "payment",
    fields: ["id", "captured_at"],
    filters: { payment_session_id: sessionId },
  });
  return data[0] as { id: string; captured_at: Date | string | null } | undefined;
}

async function onEnded(
  ctx: SettleContext,
  row: ChargeRow,
  status: "expired" | "failed",
  source: SettleSource,
): Promise<SettleResult> {
  const { store } = ctx;
  const chargeId = row.charge_id;
  const moved = await store.transition(chargeId, ["pending", "canceled"], status);
  if (!moved) {
    // Paid is final; an expired/failed already recorded needs nothing more.
    return { outcome: "duplicate", detail: `charge is ${row.status}; ${status} ignored` };
  }
  await store.addEvent({ chargeId, kind: status, source, from: row.status, to: status });
  await cancelOrderAndSession(ctx, moved, source);
  return { outcome: "processed" };
}

/**
 * Pay-first: makes sure the paid cart became an order. Medusa's processPaymentWorkflow
 * completes the cart after capturing, but with `continueOnPermanentFailure`, so a failed
 * completion (a lock held by the storefront's own `cart.complete`, a restart, a cart that
 * was not ready) would leave a captured payment with no order. Completing here, and
 * recording a failure for the reconciliation job to retry, closes that gap.
 */
export async function completeCartIfNeeded(
  ctx: SettleContext,
  row: ChargeRow,
  source: SettleSource,
): Promise<"has_order" | "completed" | "failed" | "no_cart"> {
  const { container, store, logger } = ctx;
  const cartId = await cartOfCollection(container, row.payment_collection_id);
  if (!cartId) return "no_cart";
  if (await orderOfCollection(container, row.payment_collection_id)) return "has_order";
  try {
    const { result } = await completeCartWorkflow(container).run({ input: { id: cartId } });
    await store.addEvent({
      chargeId: row.charge_id,
      kind: "cart_completed",
      source,
      detail: { cart_id: cartId, order_id: (result as { id?: string }).id },
    });
    return "completed";
  } catch (error) {
    const message = (error as Error).message;
    await store.addEvent({
      chargeId: row.charge_id,
      kind: "cart_completion_failed",
      source,
      detail: { cart_id: cartId, message },
    });
    logger.warn(
      `charge ${row.charge_id} is paid but cart ${cartId} could not become an order (${message}); the reconciliation job retries it`,
    );
    return "failed";
  }
}

async function cartOfCollection(
  container: MedusaContainer,
  paymentCollectionId: string | null,
): Promise<string | undefined> {
  if (!paymentCollectionId) return undefined;
  const query = container.resolve(ContainerRegistrationKeys.QUERY);
  const { data: carts } = await query.graph({
    entity: "cart_payment_collection",
    fields: ["cart_id"],
    filters: { payment_collection_id: paymentCollectionId },
  });
  return (carts[0] as { cart_id?: string } | undefined)?.cart_id;
}

/** The order created from the cart that owns this payment collection, if any. */
async function orderOfCollection(
  container: MedusaContainer,
  paymentCollectionId: string | null,
): Promise<{ id: string; status: string } | undefined> {
  const cartId = await cartOfCollection(container, paymentCollectionId);
  if (!cartId) return undefined;
  const query = container.resolve(ContainerRegistrationKeys.QUERY);
  const { data: links } = await query.graph({
    entity: "order_cart",
    fields: ["order_id"],
    filters: { cart_id: cartId },
  });
  const orderId = (links[0] as { order_id?: string } | undefined)?.order_id;
  if (!orderId) return undefined;
  const { data: orders } = await query.graph({
    entity: "order",
    fields: ["id", "status"],
    filters: { id: orderId },
  });
  return orders[0] as { id: string; status: string } | undefined;
}

/** Cancels the order waiting on this charge (releasing its stock) and the session. */
async function cancelOrderAndSession(
  ctx: SettleContext,
  row: ChargeRow,
  source: SettleSource,
): Promise<void> {
  const { container, store, logger } = ctx;
  const order = await orderOfCollection(container, row.payment_collection_id);
  if (order && order.status !== "canceled") {
    try {
      await cancelOrderWorkflow(container).run({ input: { order_id: order.id } });
      await store.addEvent({
        chargeId: row.charge_id,
        kind: "order_canceled",
        source,
        detail: { order_id: order.id },
      });
    } catch (error) {
      logger.warn(
        `could not cancel order ${order.id} for charge ${row.charge_id}: ${(error as Error).message}`,
      );
    }
  }
  const payment = container.resolve<IPaymentModuleService>(Modules.PAYMENT);
  try {
    const session = await payment.retrievePaymentSession(row.session_id);
    if (session.status !== "canceled") {
      await payment.updatePaymentSession({
        id: session.id,
        amount: session.amount,
        currency_code: session.currency_code,
        data: session.data ?? {},
        status: "canceled",
      } as Parameters<IPaymentModuleService["updatePaymentSession"]>[0]);
    }
  } catch {
    // The session may be gone (the cart moved on); the charge record keeps the history.
  }
}
