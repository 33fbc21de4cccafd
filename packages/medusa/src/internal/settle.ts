import {
  cancelOrderWorkflow,
  completeCartWorkflow,
  processPaymentWorkflow,
} from "@medusajs/medusa/core-flows";
import { ContainerRegistrationKeys, Modules, PaymentActions } from "@medusajs/framework/utils";
import type {
  BigNumberInput,
  IOrderModuleService,
  IPaymentModuleService,
  MedusaContainer,
} from "@medusajs/framework/types";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { CAPTURE_ATTEMPTS, ChargeStore, type ChargeRow } from "./charge-store";
import { ChargeLifecycle, type EventBusLike, type LifecycleSource } from "./charge-lifecycle";
import { redact } from "@pix-checkout/client";
import { createPluginLogger, type PluginLogger } from "./logger";
import { clientFor, keyOfProviderId, providerByKey } from "./provider-registry";
import type { ChargeStatus } from "./status";
import { describeFlag } from "./flag-reasons";

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

/** Everything settling needs from Medusa. */
export interface SettleContext {
  container: MedusaContainer;
  store: ChargeStore;
  logger: PluginLogger;
  lifecycle: ChargeLifecycle;
}

/** Builds the context from a full (request, job or workflow) container. */
export function settleContext(container: MedusaContainer): SettleContext {
  const store = new ChargeStore(container.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION));
  const logger = createPluginLogger(container.resolve(ContainerRegistrationKeys.LOGGER));
  const events = container.hasRegistration(Modules.EVENT_BUS)
    ? container.resolve<EventBusLike>(Modules.EVENT_BUS)
    : undefined;
  return { container, store, logger, lifecycle: new ChargeLifecycle(store, logger, events) };
}

/**
 * What every path that hears about a charge (webhook, reconciliation, refresh) does: ask the
 * API (fetch-back), record what it confirms through the charge lifecycle, then make Medusa
 * agree: capture a paid charge exactly once, cancel the order and session of an ended one.
 *
 * A webhook's claim is compared with the API's answer first, unless it only repeats a payment
 * already confirmed. A claim of a state the charge is not in (paid while the API says
 * otherwise, expired or failed while the API says pending) or of another amount is `forged`
 * and changes nothing.
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
  if (!claim) {
    // Nobody claims anything (reconciliation, a refresh): the light status read answers the
    // common case, a charge still pending, in one small call; the full read is for changes.
    const light = await client.charges.status(chargeId);
    if (light.status === "pending") {
      await store.touch(chargeId);
      return { outcome: "duplicate", status: "pending", detail: "still pending" };
    }
  }
  const charge = await client.charges.retrieve(chargeId);
  await store.touch(chargeId);

  if (claim) {
    const untrue =
      claim.status !== charge.status && (claim.status === "paid" || charge.status === "pending");
    const wrongAmount = claim.amountCents !== charge.amountCents;
    if (untrue || wrongAmount) {
      const detail = untrue
        ? `claimed ${claim.status}, the API says ${charge.status}`
        : `claimed ${claim.amountCents} cents, the API says ${charge.amountCents}`;
      await store.addEvent({ chargeId, kind: "forged_webhook", source, detail: { claim, detail } });
      logger.warn(
        `ignored a webhook for charge ${chargeId} that the API does not confirm: ${detail}`,
      );
      return { outcome: "forged", status: charge.status, detail };
    }
  }
  if (charge.amountCents !== row.amount_cents) {
    await store.flag(
      chargeId,
      describeFlag({
        code: "amount_mismatch",
        api_cents: charge.amountCents,
        recorded_cents: row.amount_cents,
      }),
    );
  }

  const moved = await ctx.lifecycle.confirmed(row, charge.status, source);
  switch (charge.status) {
    case "pending":
      return { outcome: "duplicate", status: "pending", detail: "still pending" };
    case "paid":
      return {
        ...(await afterPaid(ctx, moved?.row ?? row, source, moved !== undefined)),
        status: "paid",
      };
    case "expired":
    case "failed":
      if (!moved) {
        // Paid is final; an expired/failed already recorded needs nothing more.
        return {
          outcome: "duplicate",
          status: charge.status,
          detail: `charge is ${row.status}; ${charge.status} ignored`,
        };
      }
      await cancelOrderAndSession(ctx, moved.row, source);
      return { outcome: "processed", status: charge.status };
  }
}

/**
 * The payment is recorded (the shopper's stream already shows it); now Medusa captures it.
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
  if (source === "webhook" && workerModeOf(ctx.container) === "server") {
    // The row is fresh when this call recorded the payment or found it recorded; only a payment
    // another process recorded after this one read the row needs reading again.
    const current =
      row.status === "paid" ? row : ((await ctx.store.byChargeId(row.charge_id)) ?? row);
    if (current.captured_at) {
      return { outcome: recordedNow ? "processed" : "duplicate", detail: "already captured" };
    }
    await ctx.lifecycle.captureRequested(current, source);
    return {
      outcome: recordedNow ? "processed" : "duplicate",
      detail: "paid; the worker captures it",
    };
  }
  try {
    const captured = await captureOnce(
      ctx,
      (await ctx.store.byChargeId(row.charge_id)) ?? row,
      source,
    );
    return recordedNow && captured.outcome === "duplicate" ? { outcome: "processed" } : captured;
  } catch (error) {
    return {
      outcome: recordedNow ? "processed" : "duplicate",
      detail: `paid; the capture failed and reconciliation retries it: ${redact((error as Error)?.message ?? String(error))}`,
    };
  }
}

/**
 * This instance's Medusa `workerMode`: a `server` runs no subscribers and no scheduled jobs, a
 * `worker` serves no store or admin routes, and `shared` (the default) does both.
 */
function workerModeOf(container: MedusaContainer): "server" | "worker" | "shared" {
  const config = container.resolve(ContainerRegistrationKeys.CONFIG_MODULE);
  return config.projectConfig?.workerMode ?? "shared";
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
  source: LifecycleSource,
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
      // The session's own amount, not the charge's cents: the charge is that amount rounded
      // half-up to the cent (see toCents), and capturing the rounded cents of a total with a
      // fraction of a cent would leave the order a fraction short or over.
      await processPaymentWorkflow(ctx.container).run({
        input: {
          action: PaymentActions.SUCCESSFUL,
          data: {
            session_id: row.session_id,
            amount: await sessionAmount(ctx.container, row.session_id),
          },
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
    detail: { session_id: row.session_id, by: capturedBy, instance: workerModeOf(ctx.container) },
  });
  logger.info(`captured charge ${chargeId} (session ${row.session_id}, by ${capturedBy})`);
  await completeCartIfNeeded(ctx, row, source);
  await recordCapturesOnOrder(ctx, row).catch((error: unknown) =>
    // The capture stands; only the order's summary lags until the next pass records it.
    logger.warn(
      `recording the capture of charge ${chargeId} on its order failed: ${redact((error as Error).message)}`,
    ),
  );
  await ctx.lifecycle.captured((await store.byChargeId(chargeId)) ?? row, source);
  const order = await orderOfCollection(ctx.container, row.payment_collection_id);
  if (order?.status === "canceled") {
    // The money arrived; the merchant decides whether to ship or refund.
    await store.flag(
      chargeId,
      describeFlag({ code: "paid_after_order_canceled", order_id: order.id }),
    );
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
  source: LifecycleSource,
  error: unknown,
): Promise<void> {
  const { store, logger } = ctx;
  const message = redact((error as Error)?.message ?? String(error));
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
      describeFlag({ code: "capture_failed", attempts: failures, message }),
    );
    logger.error(
      `charge ${row.charge_id} is paid but could not be captured after ${failures} attempts; flagged for the merchant: ${message}`,
    );
  }
}

/** A payment session's amount as Medusa holds it: its raw decimal, fractions of a cent included. */
async function sessionAmount(container: MedusaContainer, sessionId: string): Promise<string> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY);
  const { data } = await query.graph({
    entity: "payment_session",
    fields: ["id", "amount", "raw_amount"],
    filters: { id: sessionId },
  });
  const session = data[0] as
    { amount?: number | string; raw_amount?: { value?: string } } | undefined;
  const amount = session?.raw_amount?.value ?? session?.amount;
  if (amount === undefined) throw new Error(`payment session ${sessionId} no longer exists`);
  return String(amount);
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

/**
 * Puts the session's captures on its order's transactions, so the order's summary (what the
 * merchant reads in the admin: paid total, outstanding amount) shows it paid. Medusa records
 * a capture on the order only when the order already exists and is linked at capture time;
 * a Pix paid before the cart became an order (pay-first), or captured by
 * `processPaymentWorkflow` for an order-first order, can leave the order showing the whole
 * total outstanding while its payment is captured. Idempotent: a capture already on the
 * order (by `reference_id`) is not added again.
 */
export async function recordCapturesOnOrder(ctx: SettleContext, row: ChargeRow): Promise<void> {
  const order = await orderOfCollection(ctx.container, row.payment_collection_id);
  if (!order) return;
  const query = ctx.container.resolve(ContainerRegistrationKeys.QUERY);
  const { data } = await query.graph({
    entity: "payment",
    fields: ["id", "currency_code", "captures.id", "captures.raw_amount"],
    filters: { payment_session_id: row.session_id },
  });
  const payment = data[0] as
    { currency_code: string; captures?: { id: string; raw_amount: unknown }[] } | undefined;
  const captures = payment?.captures ?? [];
  if (captures.length === 0) return;
  const orders = ctx.container.resolve<IOrderModuleService>(Modules.ORDER);
  const existing = await orders.listOrderTransactions(
    { order_id: order.id, reference: "capture", reference_id: captures.map((c) => c.id) },
    { select: ["reference_id"] },
  );
  const recorded = new Set(existing.map((t) => t.reference_id));
  const missing = captures.filter((c) => !recorded.has(c.id));
  if (missing.length === 0) return;
  await orders.addOrderTransactions(
    missing.map((capture) => ({
      order_id: order.id,
      amount: capture.raw_amount as BigNumberInput,
      currency_code: payment!.currency_code,
      reference: "capture",
      reference_id: capture.id,
    })),
  );
  await ctx.store.addEvent({
    chargeId: row.charge_id,
    kind: "order_transaction_recorded",
    source: "reconcile",
    detail: { order_id: order.id, captures: missing.map((c) => c.id) },
  });
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
  source: LifecycleSource,
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

/** What the plugin reads of an order. */
export interface OrderSummary {
  id: string;
  status: string;
  display_id: number | null;
  email: string | null;
}

/** The cart that owns this payment collection, if any. */
export async function cartOfCollection(
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
export async function orderOfCollection(
  container: MedusaContainer,
  paymentCollectionId: string | null,
): Promise<OrderSummary | undefined> {
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
    fields: ["id", "status", "display_id", "email"],
    filters: { id: orderId },
  });
  return orders[0] as OrderSummary | undefined;
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
