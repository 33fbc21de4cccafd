import { Modules } from "@medusajs/framework/utils";
import type { BigNumberInput, IOrderModuleService } from "@medusajs/framework/types";
import { redact } from "@pix-checkout/client";
import type { ChargeRow } from "../records/charges";
import type { LifecycleSource } from "../records/charge-lifecycle";
import type { FollowUpKind, FollowUpRow } from "../records/outbox";
import { cartOfCollection, orderOfCollection } from "../medusa/collection-links";
import { captureSessionOf } from "./capture";
import { underCartLock } from "../medusa/cart-lock";
import type { SettleContext } from "./context";
import { capturesOfSession } from "../medusa/payments";

/** A collection's one decision, as collection.ts makes it (passed in: it calls this file). */
export type Settle = (
  ctx: SettleContext,
  chargeId: string,
  source: LifecycleSource,
) => Promise<{ decision: { kind: string } }>;

/** Follow-ups taken per reconciliation pass. */
const BATCH = 100;

/** How long a follow-up that cannot be delivered yet waits before the next try. */
const RETRY_MS = 30_000;

/** The order the follow-ups of one charge are delivered in: a canceled order first. */
const ORDER: readonly FollowUpKind[] = [
  "order_canceled_check",
  "order_transactions",
  "announce_captured",
];

/** What delivering one follow-up did: `done` with its outcome, or `later` (not yet possible). */
type Delivered = { done: string } | { later: string };

/**
 * What follows a capture, right after it, by the door that captured: its cart becomes an order
 * (the collection decides again: decide.ts 7), then the outbox's follow-ups of this charge are
 * delivered. Whatever fails here stays in the outbox, and the next reconciliation pass delivers
 * it (`deliverDueFollowUps`): nothing that follows a capture is lost to a crash or a failure.
 */
export async function followCapture(
  ctx: SettleContext,
  chargeId: string,
  source: LifecycleSource,
  settle: Settle,
): Promise<void> {
  await settle(ctx, chargeId, source).catch((error: unknown) =>
    ctx.logger.warn(
      `charge ${chargeId} is captured; completing its cart failed, and reconciliation retries it: ${redact((error as Error).message)}`,
    ),
  );
  const due = await ctx.records.outbox.take(null, ORDER.length, chargeId);
  await deliver(ctx, due, settle);
}

/** Reconciliation's step: every follow-up due, delivered once more (at least once, idempotent). */
export async function deliverDueFollowUps(
  ctx: SettleContext,
  now: Date,
  settle: Settle,
): Promise<{ delivered: number; errors: number }> {
  return deliver(ctx, await ctx.records.outbox.take(now, BATCH), settle);
}

async function deliver(
  ctx: SettleContext,
  due: readonly FollowUpRow[],
  settle: Settle,
): Promise<{ delivered: number; errors: number }> {
  let delivered = 0;
  let errors = 0;
  const ordered = [...due].sort((a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind));
  for (const followUp of ordered) {
    try {
      const result = await deliverOne(ctx, followUp, settle);
      if ("done" in result) {
        await ctx.records.outbox.done(followUp.id, result.done);
        delivered += 1;
      } else {
        await ctx.records.outbox.later(followUp.id, new Date(Date.now() + RETRY_MS), result.later);
      }
    } catch (error) {
      errors += 1;
      const message = redact((error as Error)?.message ?? String(error));
      await ctx.records.outbox
        .later(followUp.id, new Date(Date.now() + RETRY_MS), message)
        .catch(() => undefined);
      ctx.logger.warn(
        `the ${followUp.kind} of charge ${followUp.charge_id} failed; reconciliation retries it: ${message}`,
      );
    }
  }
  return { delivered, errors };
}

async function deliverOne(
  ctx: SettleContext,
  followUp: FollowUpRow,
  settle: Settle,
): Promise<Delivered> {
  const row = await ctx.records.charges.byChargeId(followUp.charge_id);
  if (!row) return { done: "charge gone" };
  switch (followUp.kind) {
    case "order_canceled_check": {
      // Once there is an order, the collection decides again: an order canceled while its
      // payment was being captured makes that money owed back (decide.ts 5).
      if (row.awaiting_order_since) return { later: "its cart is no order yet" };
      const { decision } = await settle(ctx, row.charge_id, "reconcile");
      return { done: decision.kind === "refund_due" ? "owed back" : "order stands" };
    }
    case "order_transactions":
      return recordCapturesOnOrder(ctx, row);
    case "announce_captured":
      return announce(ctx, row);
  }
}

/**
 * `pix_checkout.charge.captured`, and with it the shopper's "paid" message (which names the
 * order), once the cart is an order. Money no longer the order's (owed back meanwhile) is not
 * announced as paid. Emitted at least once; the message's idempotency key sends it once.
 */
async function announce(ctx: SettleContext, row: ChargeRow): Promise<Delivered> {
  if (Number(row.captured_cents) === 0) return { done: "not the order's money any more" };
  if (row.awaiting_order_since) return { later: "its cart is no order yet" };
  await ctx.lifecycle.captured(row, "reconcile");
  return { done: "announced" };
}

/**
 * Puts the session's captures on its order's transactions, so the order's summary (what the
 * merchant reads in the admin: paid total, outstanding amount) shows it paid. Medusa records a
 * capture on the order only when the order already exists and is linked at capture time; a Pix
 * paid before the cart became an order (pay-first), or captured by `processPaymentWorkflow` for
 * an order-first order, can leave the order showing the whole total outstanding while its
 * payment is captured. Idempotent: a capture already on the order (by `reference_id`) is not
 * added again.
 */
async function recordCapturesOnOrder(ctx: SettleContext, row: ChargeRow): Promise<Delivered> {
  const order = await orderOfCollection(ctx.container, row.payment_collection_id);
  if (!order) {
    return row.awaiting_order_since ? { later: "no order yet" } : { done: "no order" };
  }
  // Cart completion adds its own transaction for a capture it made, in a later step than the
  // one that links the order; between the two, this read would find the capture unrecorded
  // and the order would count it twice. Medusa's lock on the cart, which completion holds to
  // its end, puts the read after that step (chaos saw the doubled summary without it).
  const cartId = await cartOfCollection(ctx.container, row.payment_collection_id);
  const record = () => addMissingCaptureTransactions(ctx, row, order.id);
  const added = cartId ? await underCartLock(ctx.container, cartId, record) : await record();
  return { done: added > 0 ? `recorded ${added}` : "already on the order" };
}

async function addMissingCaptureTransactions(
  ctx: SettleContext,
  row: ChargeRow,
  orderId: string,
): Promise<number> {
  const payment = await capturesOfSession(ctx.container, captureSessionOf(row));
  const captures = payment?.captures ?? [];
  if (!payment || captures.length === 0) return 0;
  const orders = ctx.container.resolve<IOrderModuleService>(Modules.ORDER);
  const existing = await orders.listOrderTransactions(
    { order_id: orderId, reference: "capture", reference_id: captures.map((c) => c.id) },
    { select: ["reference_id"] },
  );
  const recorded = new Set(existing.map((t) => t.reference_id));
  const missing = captures.filter((c) => !recorded.has(c.id));
  if (missing.length === 0) return 0;
  await orders.addOrderTransactions(
    missing.map((capture) => ({
      order_id: orderId,
      amount: capture.rawAmount as BigNumberInput,
      currency_code: payment.currencyCode,
      reference: "capture",
      reference_id: capture.id,
    })),
  );
  await ctx.records.events.add({
    chargeId: row.charge_id,
    kind: "order_transaction_recorded",
    source: "reconcile",
    detail: { order_id: orderId, captures: missing.map((c) => c.id) },
  });
  return missing.length;
}
