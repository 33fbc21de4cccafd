import { Modules } from "@medusajs/framework/utils";
import type { BigNumberInput, IOrderModuleService } from "@medusajs/framework/types";
import { redact } from "@pix-checkout/client";
import type { ChargeRow } from "../records/charges";
import type { LifecycleSource } from "../records/charge-lifecycle";
import type { FollowUpKind, FollowUpRow } from "../records/outbox";
import { cartOfCollection, orderOfCollection } from "../medusa/collection-links";
import { captureSessionOf } from "./session-answer";
import { settleCollection, type CollectionOutcome } from "./collection";
import { underCartLock } from "../medusa/cart-lock";
import type { SettleContext } from "./context";
import { capturesOfSession } from "../medusa/payments";
import { announceOrderNews } from "../records/charge-channel";

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
 * A charge's fate (collection.ts `settleCollection`) and, when it was captured just now, what
 * follows the capture, right after it: the doors that answer someone who waits (a webhook, the
 * worker's capture, reconciliation, the admin's re-check) use this.
 */
export async function settleAndFollow(
  ctx: SettleContext,
  chargeId: string,
  source: LifecycleSource,
): Promise<CollectionOutcome> {
  const outcome = await settleCollection(ctx, chargeId, source);
  if (outcome.capture?.outcome === "processed") await followCapture(ctx, chargeId, source);
  // A capture made earlier whose order this door saw first (the storefront's own
  // `cart.complete` made it): its "paid" message goes now, not at the next retry.
  else if (outcome.orderSeen) await deliverFollowUpsOf(ctx, chargeId);
  return outcome;
}

/**
 * What follows a capture, right after it, by the door that captured: its cart becomes an order
 * (the collection decides again: decide.ts 7), then the outbox's follow-ups of this charge are
 * delivered. Whatever fails here stays in the outbox, and the next reconciliation pass delivers
 * it (`deliverDueFollowUps`): nothing that follows a capture is lost to a crash or a failure.
 */
async function followCapture(
  ctx: SettleContext,
  chargeId: string,
  source: LifecycleSource,
): Promise<void> {
  await settleCollection(ctx, chargeId, source).catch((error: unknown) =>
    ctx.logger.warn(
      `charge ${chargeId} is captured; completing its cart failed, and reconciliation retries it: ${redact((error as Error).message)}`,
    ),
  );
  await deliverFollowUpsOf(ctx, chargeId);
}

/** This charge's follow-ups due now (one of each kind at most), delivered by this door. */
async function deliverFollowUpsOf(ctx: SettleContext, chargeId: string): Promise<void> {
  await deliver(ctx, await ctx.records.outbox.take(null, ORDER.length, chargeId));
}

/** Reconciliation's step: every follow-up due, delivered once more (at least once, idempotent). */
export async function deliverDueFollowUps(
  ctx: SettleContext,
  now: Date,
): Promise<{ delivered: number; errors: number }> {
  return deliver(ctx, await ctx.records.outbox.take(now, BATCH));
}

async function deliver(
  ctx: SettleContext,
  due: readonly FollowUpRow[],
): Promise<{ delivered: number; errors: number }> {
  let delivered = 0;
  let errors = 0;
  const ordered = [...due].sort((a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind));
  // Charges whose order may read otherwise now (paid, canceled): their pages re-read it.
  const orderNews: string[] = [];
  for (const followUp of ordered) {
    try {
      const result = await deliverOne(ctx, followUp);
      if (followUp.kind !== "announce_captured") orderNews.push(followUp.charge_id);
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
  await announceOrderNews(ctx.db, orderNews);
  return { delivered, errors };
}

async function deliverOne(ctx: SettleContext, followUp: FollowUpRow): Promise<Delivered> {
  const row = await ctx.records.charges.byChargeId(followUp.charge_id);
  if (!row) return { done: "charge gone" };
  switch (followUp.kind) {
    case "order_canceled_check": {
      // Once there is an order, the collection decides again: an order canceled while its
      // payment was being captured makes that money owed back (decide.ts 5).
      if (row.awaiting_order_since) return { later: "its cart is no order yet" };
      const { decision } = await settleCollection(ctx, row.charge_id, "reconcile");
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
  if (Number(row.captured_cents) + Number(row.contested_cents ?? 0) === 0)
    return { done: "not the order's money any more" };
  if (row.awaiting_order_since) return { later: "its cart is no order yet" };
  await ctx.lifecycle.captured(row, "reconcile");
  return { done: "announced" };
}

/**
 * Puts the session's captures on its order's transactions, each exactly once, so the order's
 * summary (what the merchant reads in the admin: paid total, outstanding amount) shows it paid,
 * and paid once. Medusa records a capture on the order only when the order already exists and is
 * linked at capture time; a Pix paid before the cart became an order (pay-first), or captured by
 * `processPaymentWorkflow` for an order-first order, can leave the order showing the whole total
 * outstanding while its payment is captured. Idempotent: a capture already on the order (by
 * `reference_id`) is not added again, and one on it twice loses its later copy.
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
  const record = () => captureOnceOnOrder(ctx, row, order.id);
  const { added, removed } = cartId
    ? await underCartLock(ctx.container, cartId, record)
    : await record();
  // That lock lives in Medusa's locking module, and a Redis failover can lose it (replication is
  // asynchronous): completion may then add its copy after this read. A capture this delivery
  // added is looked at once more, a retry later, and a copy found then is taken off.
  if (added > 0)
    return { later: `recorded ${added}; looks once more for a capture recorded twice` };
  if (removed > 0) return { done: `took off ${removed} capture recorded twice` };
  return { done: "already on the order" };
}

async function captureOnceOnOrder(
  ctx: SettleContext,
  row: ChargeRow,
  orderId: string,
): Promise<{ added: number; removed: number }> {
  const payment = await capturesOfSession(ctx.container, captureSessionOf(row));
  const captures = payment?.captures ?? [];
  if (!payment || captures.length === 0) return { added: 0, removed: 0 };
  const orders = ctx.container.resolve<IOrderModuleService>(Modules.ORDER);
  const existing = await orders.listOrderTransactions(
    { order_id: orderId, reference: "capture", reference_id: captures.map((c) => c.id) },
    { select: ["id", "reference_id", "created_at"], order: { created_at: "ASC" } },
  );
  // The oldest transaction of each capture stands; any later one counts the money again.
  const kept = new Set<string>();
  const doubled = existing.filter((t) => {
    if (!kept.has(t.reference_id as string)) {
      kept.add(t.reference_id as string);
      return false;
    }
    return true;
  });
  const missing = captures.filter((c) => !kept.has(c.id));
  if (doubled.length > 0) {
    // Medusa's soft delete takes the amount off the order's paid total as well.
    await orders.softDeleteOrderTransactions(doubled.map((t) => t.id));
    ctx.logger.warn(
      `order ${orderId} held capture ${doubled.map((t) => t.reference_id).join(", ")} of charge ${row.charge_id} twice on its transactions; the later copy is taken off`,
    );
  }
  if (missing.length > 0) {
    await orders.addOrderTransactions(
      missing.map((capture) => ({
        order_id: orderId,
        amount: capture.rawAmount as BigNumberInput,
        currency_code: payment.currencyCode,
        reference: "capture",
        reference_id: capture.id,
      })),
    );
  }
  if (missing.length > 0 || doubled.length > 0) {
    await ctx.records.events.add({
      chargeId: row.charge_id,
      kind: "order_transaction_recorded",
      source: "reconcile",
      detail: {
        order_id: orderId,
        captures: missing.map((c) => c.id),
        ...(doubled.length > 0 ? { doubled_taken_off: doubled.map((t) => t.reference_id) } : {}),
      },
    });
  }
  return { added: missing.length, removed: doubled.length };
}
