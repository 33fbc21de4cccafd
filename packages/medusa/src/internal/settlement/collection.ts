import { cancelOrderWorkflow } from "@medusajs/medusa/core-flows";
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils";
import type { IPaymentModuleService, MedusaContainer } from "@medusajs/framework/types";
import type { ChargeRow } from "../records/charge-store";
import type { RefundReason } from "../records/flag-reasons";
import type { LifecycleSource } from "../records/charge-lifecycle";
import { toCents } from "../platform/money";
import { graceRecheckAt } from "../checkout/check-schedule";
import { providerOfRow, type SettleContext } from "./context";

/**
 * What a payment collection's charges mean for its cart and order.
 *
 * A cart rarely has one charge: the shopper adds an item after seeing a code, switches Pix and
 * boleto, lets a code expire and takes a new one. Each leaves an older charge on the same
 * collection, and the API cannot cancel a charge, so every old code stays payable until it
 * expires. The rules, in one place:
 *
 * - A charge whose session Medusa deleted is superseded: its code is no longer offered
 *   (the provider's `deletePayment` marks it).
 * - Only the charge an order waits on can end that order, and a boleto only once its grace
 *   period after the due date has passed; never while the collection holds a paid
 *   charge, and never when the merchant turned `cancelOrderOnExpiry` off.
 * - The first paid charge of a collection becomes its payment. A superseded one does too when
 *   its amount is the cart's current amount: it is captured on the cart's current session.
 *   Any other paid charge is a refund due, with the reason in the merchant's words.
 */

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

/** A Medusa payment session of a collection that is not deleted. */
interface LiveSession {
  id: string;
  provider_id: string;
  amount: string;
}

/** The collection's sessions Medusa still holds (a deleted session is superseded). */
export async function liveSessionsOf(
  container: MedusaContainer,
  paymentCollectionId: string,
): Promise<LiveSession[]> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY);
  const { data } = await query.graph({
    entity: "payment_session",
    fields: ["id", "provider_id", "amount", "raw_amount"],
    filters: { payment_collection_id: paymentCollectionId },
  });
  return (
    data as { id: string; provider_id: string; amount: unknown; raw_amount?: { value?: string } }[]
  ).map((session) => ({
    id: session.id,
    provider_id: session.provider_id,
    amount: String(session.raw_amount?.value ?? session.amount),
  }));
}

/** A paid charge that is the collection's payment (not a refund due). */
const countsAsPayment = (row: ChargeRow): boolean =>
  row.status === "paid" && row.flag_code !== "refund_due";

/** The paid charge that came first; the one that becomes the collection's payment. */
function firstPaid(rows: readonly ChargeRow[]): ChargeRow | undefined {
  return rows.filter(countsAsPayment).sort(
    (a, b) =>
      // A captured one has already become the payment, whatever the clocks say.
      Number(Boolean(b.captured_at)) - Number(Boolean(a.captured_at)) ||
      new Date(a.paid_at ?? 0).getTime() - new Date(b.paid_at ?? 0).getTime() ||
      a.charge_id.localeCompare(b.charge_id),
  )[0];
}

/** What a paid charge becomes. */
type PaidFate =
  /** Captured on `sessionId`: its own session, or the cart's current one (`adopted`). */
  | { kind: "capture"; sessionId: string; adopted: boolean }
  /** No order can come of it: the money goes back to the shopper. */
  | { kind: "refund_due"; reason: RefundReason };

/** Decides what a paid charge becomes (see the rules at the top of this module). */
async function fateOfPaid(ctx: SettleContext, row: ChargeRow): Promise<PaidFate> {
  if (row.flag_code === "refund_due") {
    return {
      kind: "refund_due",
      reason: (row.flag_detail?.reason as RefundReason) ?? "paid_twice",
    };
  }
  const ownSession = {
    kind: "capture",
    sessionId: row.capture_session_id ?? row.session_id,
    adopted: false,
  } as const;
  if (!row.payment_collection_id) return ownSession;
  const rows = await ctx.store.ofCollection(row.payment_collection_id);
  const first = firstPaid(rows.map((r) => (r.charge_id === row.charge_id ? row : r)));
  if (first && first.charge_id !== row.charge_id)
    return { kind: "refund_due", reason: "paid_twice" };
  if (!row.superseded_at || row.capture_session_id) return ownSession;
  // A replaced code was paid: it pays for the cart only if the cart still costs what it did.
  const live = (await liveSessionsOf(ctx.container, row.payment_collection_id)).find(
    (session) => toCents(session.amount) === Number(row.amount_cents),
  );
  if (!live) return { kind: "refund_due", reason: "paid_old_amount" };
  return { kind: "capture", sessionId: live.id, adopted: true };
}

/**
 * Gives a paid charge its fate: the row to capture (its own, or adopted by the cart's current
 * session, whose own code is then superseded), or undefined when it is a refund due (marked).
 */
export async function payableCharge(
  ctx: SettleContext,
  row: ChargeRow,
  source: LifecycleSource,
): Promise<ChargeRow | undefined> {
  const fate = await fateOfPaid(ctx, row);
  if (fate.kind === "refund_due") {
    await markRefundDue(ctx, row, fate.reason, source);
    return undefined;
  }
  if (!fate.adopted) return row;
  const adopted = (await ctx.store.adopt(row.charge_id, fate.sessionId)) ?? row;
  await ctx.store.addEvent({
    chargeId: row.charge_id,
    kind: "adopted",
    source,
    detail: { session_id: fate.sessionId },
  });
  // The current session's own code is no longer needed: the cart is paid.
  for (const other of await ctx.store.ofCollection(row.payment_collection_id!)) {
    if (other.session_id === fate.sessionId && other.charge_id !== row.charge_id) {
      await ctx.lifecycle.superseded(other.charge_id, source);
    }
  }
  return adopted;
}

/**
 * A paid charge no order can come of: it waits for the merchant as a refund due, and the
 * shopper's page says so. Idempotent: a charge already due a refund is left as it is.
 */
export async function markRefundDue(
  ctx: SettleContext,
  row: ChargeRow,
  reason: RefundReason,
  source: LifecycleSource,
): Promise<ChargeRow> {
  if (row.flag_code === "refund_due") return row;
  const order = await orderOfCollection(ctx.container, row.payment_collection_id);
  return (
    (await ctx.lifecycle.flag(
      row.charge_id,
      {
        code: "refund_due",
        reason,
        amount_cents: Number(row.amount_cents),
        order_id: order?.id ?? null,
      },
      source,
    )) ?? row
  );
}

/**
 * After the API confirmed a charge `expired` or `failed`: cancels the order that waits on it
 * (releasing its stock) and its session, if this charge may end it and its hold has passed.
 * Returns when to look again: a boleto inside its grace period is checked until it ends (the
 * bank may still confirm it), then its order is canceled.
 */
export async function endOrderIfDue(
  ctx: SettleContext,
  row: ChargeRow,
  source: LifecycleSource,
  now = new Date(),
): Promise<{ recheckAt: Date | null }> {
  const options = providerOfRow(ctx, row).options;
  if (row.superseded_at) return { recheckAt: null };
  if (row.payment_collection_id) {
    const rows = await ctx.store.ofCollection(row.payment_collection_id);
    if (rows.some(countsAsPayment)) return { recheckAt: null };
  }
  const hold = row.order_hold_until ? new Date(row.order_hold_until) : null;
  if (row.status === "expired" && hold && now < hold) {
    return { recheckAt: graceRecheckAt(now, hold) };
  }
  const order = await orderOfCollection(ctx.container, row.payment_collection_id);
  if (order && order.status !== "canceled") {
    if (!options.cancelOrderOnExpiry) {
      await ctx.store.addEvent({
        chargeId: row.charge_id,
        kind: "order_kept",
        source,
        detail: { order_id: order.id, reason: "cancelOrderOnExpiry is off" },
      });
    } else if (await orderWaitsOn(ctx.container, row)) {
      try {
        await cancelOrderWorkflow(ctx.container).run({ input: { order_id: order.id } });
        await ctx.store.addEvent({
          chargeId: row.charge_id,
          kind: "order_canceled",
          source,
          detail: { order_id: order.id },
        });
      } catch (error) {
        ctx.logger.warn(
          `could not cancel order ${order.id} for charge ${row.charge_id}: ${(error as Error).message}`,
        );
      }
    }
  }
  await cancelSession(ctx.container, row.session_id);
  return { recheckAt: null };
}

/**
 * Whether the order's payment is this charge's session: Medusa made the order's payment from
 * the session it authorized, so a charge of any other session (an older code, the other
 * method) is not what the order waits on.
 */
async function orderWaitsOn(container: MedusaContainer, row: ChargeRow): Promise<boolean> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY);
  const { data } = await query.graph({
    entity: "payment",
    fields: ["id", "payment_session_id", "captured_at"],
    filters: { payment_collection_id: row.payment_collection_id! },
  });
  const payments = data as { payment_session_id: string; captured_at: unknown }[];
  if (payments.some((payment) => payment.captured_at)) return false;
  // An order-first order waiting on `pending_authorization` may hold no payment yet; then the
  // charge's own session, not superseded, is what it waits on.
  if (payments.length === 0) return true;
  return payments.some((payment) => payment.payment_session_id === row.session_id);
}

/** Marks the session canceled in Medusa; a session already gone needs nothing. */
async function cancelSession(container: MedusaContainer, sessionId: string): Promise<void> {
  const payment = container.resolve<IPaymentModuleService>(Modules.PAYMENT);
  try {
    const session = await payment.retrievePaymentSession(sessionId);
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

/**
 * An order was canceled. Medusa's cancel asks the provider to refund its captured payments,
 * which this provider refuses (no money moves from here), so each paid charge of the order
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
    for (const row of await ctx.store.ofCollection(collectionId)) {
      if (!row.captured_at || row.flag_code === "refund_due") continue;
      const refunded = await ctx.store.sumEvents(row.charge_id, "refund_declared");
      if (refunded >= Number(row.amount_cents)) continue;
      await markRefundDue(ctx, row, "order_canceled", "admin");
      marked += 1;
    }
  }
  return marked;
}
