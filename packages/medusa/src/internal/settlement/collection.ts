import { cancelOrderWorkflow } from "@medusajs/medusa/core-flows";
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils";
import type { IPaymentModuleService } from "@medusajs/framework/types";
import { redact } from "@pix-checkout/client";
import type { ChargeRow } from "../records/charges";
import type { LifecycleSource } from "../records/charge-lifecycle";
import { withCollectionLock } from "../records/collection-locks";
import { captureOnce, claimCapture, type CaptureResult } from "./capture";
import { decide, type Decision } from "./decide";
import { markRefundDue } from "./refund-due";
import { readSnapshot } from "./snapshot";
import { providerOfRow, type SettleContext } from "./context";

/** What settling a collection decided for one charge, and what acting on it did. */
export interface CollectionOutcome {
  decision: Decision;
  /** The capture's result, when the decision was to capture. */
  capture?: CaptureResult;
}

/**
 * The one way any door gives a charge its fate: under the collection's lock, read one snapshot
 * of the collection, `decide` (pure, decide.ts), and act. A capture is committed under the lock
 * (the charge's capture claim, which the next decision sees) and Medusa's workflow runs after
 * it is released: that workflow completes the cart, and cart completion calls this provider's
 * `authorizePayment`, a door that takes the same lock. Webhooks, repeated deliveries,
 * reconciliation, the admin's re-check and accept, the capture subscriber and the boleto grace
 * recheck come here; the provider's `authorizePayment` takes the same lock and asks the same
 * `decide`.
 *
 * A capture that fails throws (the failure is on the timeline and reconciliation retries it).
 */
export async function settleCollection(
  ctx: SettleContext,
  chargeId: string,
  source: LifecycleSource,
): Promise<CollectionOutcome> {
  const first = await ctx.records.charges.byChargeId(chargeId);
  if (!first) return { decision: { kind: "nothing", why: "unknown charge" } };
  const collectionId = first.payment_collection_id;
  if (!collectionId) {
    // Recorded before the plugin knew collections (or without one): only its own session.
    return { decision: { kind: "nothing", why: "the charge has no payment collection" } };
  }
  const options = providerOfRow(ctx, first).options;
  const acted = await withCollectionLock(ctx.db, collectionId, async () => {
    const { snapshot, rows } = await readSnapshot(
      ctx.db,
      ctx.records.charges,
      collectionId,
      options.cancelOrderOnExpiry,
    );
    const row = rows.find((r) => r.charge_id === chargeId) ?? first;
    const decision = decide(snapshot, chargeId);
    return act(ctx, decision, row, rows, source);
  });
  if (!acted.capture) return { decision: acted.decision };
  return { decision: acted.decision, capture: await acted.capture() };
}

/** What acting decided under the lock; a capture is run once the lock is released. */
interface Acted {
  decision: Decision;
  capture?: () => Promise<CaptureResult>;
}

/** Carries out a decision. Each step is idempotent, so a repeated door changes nothing. */
async function act(
  ctx: SettleContext,
  decision: Decision,
  row: ChargeRow,
  rows: readonly ChargeRow[],
  source: LifecycleSource,
): Promise<Acted> {
  switch (decision.kind) {
    case "capture": {
      let paying = row;
      if (decision.adopted) paying = await adopt(ctx, row, rows, decision.sessionId, source);
      else if (row.settlement === null) {
        paying =
          (await ctx.records.charges.settle(row.charge_id, [null], "capturable", null)) ?? row;
      }
      const claim = await claimCapture(ctx, paying);
      if (!claim) {
        return {
          decision,
          capture: async () => ({
            outcome: "duplicate",
            detail: "another process is capturing it",
          }),
        };
      }
      return {
        decision,
        capture: () => captureOnce(ctx, paying, source, decision.amountCents, claim),
      };
    }
    case "hold":
      await hold(ctx, row, decision.reason, source);
      return { decision };
    case "refund_due":
      await markRefundDue(ctx, row, decision.reason, source);
      return { decision };
    case "recheck":
      await ctx.records.charges.scheduleCheck(row.charge_id, decision.at);
      return { decision };
    case "end_order":
      await endOrder(ctx, row, decision.orderId, source);
      await cancelSession(ctx, row.session_id);
      return { decision };
    case "keep_order":
      await ctx.records.events.add({
        chargeId: row.charge_id,
        kind: "order_kept",
        source,
        detail: { order_id: decision.orderId, reason: "cancelOrderOnExpiry is off" },
      });
      await cancelSession(ctx, row.session_id);
      return { decision };
    case "cancel_session":
      await cancelSession(ctx, row.session_id);
      return { decision };
    case "nothing":
      return { decision };
  }
}

/**
 * A replaced code the shopper paid becomes the payment of the cart's live session of the same
 * amount; that session's own code is then no longer needed (the cart is paid).
 */
async function adopt(
  ctx: SettleContext,
  row: ChargeRow,
  rows: readonly ChargeRow[],
  sessionId: string,
  source: LifecycleSource,
): Promise<ChargeRow> {
  const adopted = (await ctx.records.charges.adopt(row.charge_id, sessionId)) ?? row;
  await ctx.records.events.add({
    chargeId: row.charge_id,
    kind: "adopted",
    source,
    detail: { session_id: sessionId },
  });
  for (const other of rows) {
    if (other.session_id === sessionId && other.charge_id !== row.charge_id) {
      await ctx.lifecycle.superseded(other.charge_id, source);
    }
  }
  return adopted;
}

/**
 * Less money arrived than the code asked for: the charge is held for the merchant (Accept
 * received amount, or a refund). The flag `amount_mismatch` is the merchant's note of it.
 */
async function hold(
  ctx: SettleContext,
  row: ChargeRow,
  reason: string,
  source: LifecycleSource,
): Promise<void> {
  const moved = await ctx.records.charges.settle(
    row.charge_id,
    [null, "capturable"],
    "held",
    reason,
  );
  if (!moved) return;
  await ctx.records.events.add({
    chargeId: row.charge_id,
    kind: "held",
    source,
    detail: {
      reason,
      amount_cents: Number(row.amount_cents),
      api_amount_cents: row.api_amount_cents,
    },
  });
}

/**
 * Cancels the order that waits on an expired or failed charge (releasing its stock). Under
 * Medusa's own lock on the cart, as Medusa's `processPaymentWorkflow` and cart completion take
 * it, so a shopper's `cart.complete` in flight and this cancel never interleave.
 */
async function endOrder(
  ctx: SettleContext,
  row: ChargeRow,
  orderId: string,
  source: LifecycleSource,
): Promise<void> {
  const cancel = () => cancelOrderWorkflow(ctx.container).run({ input: { order_id: orderId } });
  try {
    const cartId = await cartIdOf(ctx, row.payment_collection_id);
    if (cartId && ctx.container.hasRegistration(Modules.LOCKING)) {
      const locking = ctx.container.resolve(Modules.LOCKING);
      await locking.execute(cartId, cancel, { timeout: 5 });
    } else {
      await cancel();
    }
    await ctx.records.events.add({
      chargeId: row.charge_id,
      kind: "order_canceled",
      source,
      detail: { order_id: orderId },
    });
  } catch (error) {
    ctx.logger.warn(
      `could not cancel order ${orderId} for charge ${row.charge_id}: ${redact((error as Error).message)}`,
    );
  }
}

async function cartIdOf(ctx: SettleContext, collectionId: string | null): Promise<string | null> {
  if (!collectionId) return null;
  const query = ctx.container.resolve(ContainerRegistrationKeys.QUERY);
  const { data } = await query.graph({
    entity: "cart_payment_collection",
    fields: ["cart_id"],
    filters: { payment_collection_id: collectionId },
  });
  return (data[0] as { cart_id?: string } | undefined)?.cart_id ?? null;
}

/**
 * Marks the session canceled in Medusa, so the cart cannot complete with an ended code. The
 * provider's `updatePayment` answers a `canceled` session without creating anything, so this
 * never makes a charge. A session already gone needs nothing; any other failure is logged.
 */
async function cancelSession(ctx: SettleContext, sessionId: string): Promise<void> {
  const payment = ctx.container.resolve<IPaymentModuleService>(Modules.PAYMENT);
  let session;
  try {
    session = await payment.retrievePaymentSession(sessionId);
  } catch {
    return; // The session is gone (the cart moved on); the charge record keeps the history.
  }
  if (session.status === "canceled") return;
  try {
    await payment.updatePaymentSession({
      id: session.id,
      amount: session.amount,
      currency_code: session.currency_code,
      data: { ...(session.data ?? {}), status: "canceled" },
      status: "canceled",
    } as Parameters<IPaymentModuleService["updatePaymentSession"]>[0]);
  } catch (error) {
    ctx.logger.warn(
      `could not cancel payment session ${sessionId}: ${redact((error as Error).message)}`,
    );
  }
}

/**
 * An order was canceled. Medusa's cancel asks the provider to refund its captured payments,
 * which this provider refuses (no money moves from here), so each captured charge of the order
 * waits for the merchant as a refund due instead of reading "refunded".
 */
export async function refundsDueOnCanceledOrder(
  ctx: SettleContext,
  orderId: string,
): Promise<number> {
  const query = ctx.container.resolve(ContainerRegistrationKeys.QUERY);
  const { data } = await query.graph({
    entity: "order",
    fields: ["id", "payment_collections.id"],
    filters: { id: orderId },
  });
  const collections = (
    (data[0] as { payment_collections?: { id: string }[] } | undefined)?.payment_collections ?? []
  ).map((collection) => collection.id);
  let marked = 0;
  for (const collectionId of collections) {
    await withCollectionLock(ctx.db, collectionId, async () => {
      for (const row of await ctx.records.charges.ofCollection(collectionId)) {
        if (!row.captured_at || row.settlement === "refund_due") continue;
        const refunded = await ctx.records.events.sum(row.charge_id, "refund_declared");
        if (refunded >= Number(row.api_amount_cents ?? row.amount_cents)) continue;
        await markRefundDue(ctx, row, "order_canceled", "admin");
        marked += 1;
      }
    });
  }
  return marked;
}
