import { cancelOrderWorkflow } from "@medusajs/medusa/core-flows";
import { Modules } from "@medusajs/framework/utils";
import type { IPaymentModuleService } from "@medusajs/framework/types";
import { redact } from "@pix-checkout/client";
import type { ChargeRow } from "../records/charges";
import type { LifecycleSource } from "../records/charge-lifecycle";
import { underCartLock } from "../medusa/cart-lock";
import type { SettleContext } from "./context";
import type { Decision } from "./decide";
import { cartOfCollection } from "../medusa/collection-links";

/**
 * Medusa's side of a collection's decision, for the doors that can run Medusa's workflows
 * (collection.ts `settleCollection`): canceling the order an ended charge waits on, and setting
 * a session's status so its cart cannot complete on an ended code or on money due back. Run
 * under the collection's lease, so a payment landing meanwhile is decided after it.
 */
/** Medusa's side of a decision that must not interleave with another door's. */
export async function actInMedusaUnderLease(
  ctx: SettleContext,
  decision: Decision,
  row: ChargeRow,
  source: LifecycleSource,
): Promise<void> {
  switch (decision.kind) {
    case "end_order":
      await endOrder(ctx, row.payment_collection_id, decision.orderId, source, row.charge_id);
      await setSessionStatus(ctx, row.session_id, "canceled");
      return;
    case "keep_order":
    case "cancel_session":
      await setSessionStatus(ctx, row.session_id, "canceled");
      return;
    case "refund_due":
      // A captured payment's cart must not become an order on money due back.
      if (decision.closeSession) await setSessionStatus(ctx, decision.closeSession, "error");
      return;
    default:
      return;
  }
}

/**
 * Cancels the order that waits on an expired or failed charge, or on a create that failed
 * (releasing its stock). Under Medusa's own lock on the cart, as Medusa's
 * `processPaymentWorkflow` and cart completion take it, so a shopper's `cart.complete` in flight
 * and this cancel never interleave. `chargeId`: the charge whose timeline says so, if any.
 */
export async function endOrder(
  ctx: SettleContext,
  collectionId: string | null,
  orderId: string,
  source: LifecycleSource,
  chargeId: string | null,
): Promise<boolean> {
  const cancel = () => cancelOrderWorkflow(ctx.container).run({ input: { order_id: orderId } });
  try {
    const cartId = await cartIdOf(ctx, collectionId);
    if (cartId) await underCartLock(ctx.container, cartId, cancel);
    else await cancel();
    if (chargeId) {
      await ctx.records.events.add({
        chargeId,
        kind: "order_canceled",
        source,
        detail: { order_id: orderId },
      });
    }
    return true;
  } catch (error) {
    ctx.logger.warn(
      `could not cancel order ${orderId}${chargeId ? ` for charge ${chargeId}` : ""}: ${redact((error as Error).message)}`,
    );
    return false;
  }
}

async function cartIdOf(ctx: SettleContext, collectionId: string | null): Promise<string | null> {
  return (await cartOfCollection(ctx.container, collectionId)) ?? null;
}

/**
 * Sets a session's status in Medusa: `canceled` so the cart cannot complete with an ended code,
 * `error` so it cannot complete on money due back (Medusa's cart completion takes no session in
 * either status). The provider's `updatePayment` answers a session of the same amount with the
 * session's own money, so this never makes a charge. A session already gone needs nothing; any
 * other failure is logged.
 */
async function setSessionStatus(
  ctx: SettleContext,
  sessionId: string,
  status: "canceled" | "error",
): Promise<void> {
  const payment = ctx.container.resolve<IPaymentModuleService>(Modules.PAYMENT);
  let session;
  try {
    session = await payment.retrievePaymentSession(sessionId);
  } catch {
    return; // The session is gone (the cart moved on); the charge record keeps the history.
  }
  if (session.status === status) return;
  try {
    await payment.updatePaymentSession({
      id: session.id,
      amount: session.amount,
      currency_code: session.currency_code,
      data: session.data ?? {},
      status,
    } as Parameters<IPaymentModuleService["updatePaymentSession"]>[0]);
  } catch (error) {
    ctx.logger.warn(
      `could not set payment session ${sessionId} ${status}: ${redact((error as Error).message)}`,
    );
  }
}
