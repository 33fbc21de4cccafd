import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework";
import type { INotificationModuleService } from "@medusajs/framework/types";
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils";
import { CHARGE_EVENTS, type ChargeEventData } from "../internal/records/charge-lifecycle";
import {
  buildNotification,
  buildOrderReceived,
  isCodeMessage,
} from "../internal/storefront/notification";
import { takeMailWindow } from "../internal/storefront/mail-window";
import { chargeEventData } from "../internal/records/charge-lifecycle";
import { notifyOptions, type NotifyOptions } from "../internal/storefront/notify-options";
import { settleContext, type SettleContext } from "../internal/settlement/context";
import { collectionsOfOrder } from "../internal/medusa/collection-links";
import { openRefundNotes } from "../internal/storefront/refund-notice-order";

const ORDER_PLACED = "order.placed";

/**
 * Sends the shopper their Pix code or boleto once their page has shown it, or once their
 * order-first order exists (a shopper who closes the tab can still pay from the message), and
 * a word when its order is paid or the charge expires, when money is owed back and when the
 * merchant returned it; at most one message about an unpaid code per mailbox in
 * `codeMailWindowMinutes` (messages about money that arrived are not code messages: one per
 * event, by its idempotency key). Off unless the plugin's `notifications.enabled`
 * is true; see the README's "Notifications" for the template data.
 */
export default async function pixCheckoutNotify({
  event,
  container,
}: SubscriberArgs<ChargeEventData | { id: string }>): Promise<void> {
  const options = notifyOptions(container.resolve(ContainerRegistrationKeys.CONFIG_MODULE));
  if (!options.enabled) return;
  const ctx = settleContext(container);
  if (event.name === ORDER_PLACED) {
    const orderId = (event.data as { id: string }).id;
    // Every order of the store comes here: one statement tells one of no Pix or boleto, before
    // Query's reads of its collections (as the order-placed subscriber does).
    if (!(await ctx.records.charges.anyOfOrder(orderId))) return;
    const collections = await collectionsOfOrder(ctx.container, orderId);
    // "Recebemos seu pedido", when the merchant named its template.
    const received = await buildOrderReceived(ctx, orderId, collections, options);
    if (received) {
      await ctx.container
        .resolve<INotificationModuleService>(Modules.NOTIFICATION)
        .createNotifications(received);
      ctx.logger.info(`sent ${received.template} for order ${orderId} on ${received.channel}`);
    }
    // Refund notices held while the cart was becoming this order go after its message, and
    // name it (refund-notice-order.ts).
    await sendOpenRefundNotes(ctx, options, collections, "order_placed");
    // Order-first: the code was made before the order; now a real order stands behind it.
    for (const data of await openCodesOfOrder(ctx, collections)) {
      await send(ctx, options, CHARGE_EVENTS.created, data);
    }
    return;
  }
  const data = event.data as ChargeEventData;
  await send(ctx, options, event.name, data);
  // A cart whose paying money is owed back in turn (out of stock, never completed) becomes no
  // order: the notices held for that order go now, saying there is none. Where they were sent
  // already (or still wait), this sends nothing again.
  if (data.flag?.code === "refund_due" && data.payment_collection_id) {
    await sendOpenRefundNotes(
      ctx,
      options,
      [data.payment_collection_id],
      data.source,
      data.charge_id,
    );
  }
}

/**
 * The refund notices of `collections` whose money is still owed back, each under the key of
 * the flag event that announced it, so a notice sent once is not sent again.
 */
async function sendOpenRefundNotes(
  ctx: SettleContext,
  options: NotifyOptions,
  collections: readonly string[],
  source: ChargeEventData["source"],
  except?: string,
): Promise<void> {
  for (const id of collections) {
    const notes = openRefundNotes(await ctx.records.charges.ofCollection(id), source);
    for (const data of notes.filter((note) => note.charge_id !== except)) {
      await send(ctx, options, CHARGE_EVENTS.flagged, data);
    }
  }
}

async function send(
  ctx: SettleContext,
  options: NotifyOptions,
  eventName: string,
  data: ChargeEventData,
): Promise<void> {
  const notification = await buildNotification(ctx, eventName, data, options);
  if (!notification) return;
  // Whatever the number of carts, a mailbox gets one message about an unpaid code a window,
  // and `codeMailsPerDay` a day.
  if (
    isCodeMessage(notification) &&
    !(await takeMailWindow(
      ctx.db,
      notification.to,
      options.codeMailWindowMinutes,
      options.codeMailsPerDay,
    ))
  ) {
    ctx.logger.debug(`charge ${data.charge_id}: its address had a message this window`);
    return;
  }
  const notifications = ctx.container.resolve<INotificationModuleService>(Modules.NOTIFICATION);
  await notifications.createNotifications(notification);
  ctx.logger.info(
    `sent ${notification.template} for charge ${data.charge_id} on ${notification.channel}`,
  );
}

/** The codes still to pay (pending, not replaced) of an order's collections. */
async function openCodesOfOrder(
  ctx: SettleContext,
  collections: readonly string[],
): Promise<ChargeEventData[]> {
  const open: ChargeEventData[] = [];
  for (const id of collections) {
    for (const row of await ctx.records.charges.ofCollection(id)) {
      if (row.status === "pending" && !row.superseded_at)
        open.push(chargeEventData(row, "provider"));
    }
  }
  return open;
}

export const config: SubscriberConfig = {
  event: [
    CHARGE_EVENTS.created,
    CHARGE_EVENTS.shown,
    CHARGE_EVENTS.captured,
    CHARGE_EVENTS.expired,
    CHARGE_EVENTS.flagged,
    CHARGE_EVENTS.refunded,
    ORDER_PLACED,
  ],
};
