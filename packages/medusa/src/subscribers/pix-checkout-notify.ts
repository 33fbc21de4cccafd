import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework";
import type { INotificationModuleService } from "@medusajs/framework/types";
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils";
import { CHARGE_EVENTS, type ChargeEventData } from "../internal/records/charge-lifecycle";
import { buildNotification } from "../internal/storefront/notification";
import { notifyOptions } from "../internal/storefront/notify-options";
import { settleContext } from "../internal/settlement/context";

/**
 * Sends the shopper their Pix code or boleto when a charge is created (a shopper who closes the
 * tab can still pay from the message), and a word when its order is paid or the charge expires. Off unless the
 * plugin's `notifications.enabled` is true; see the README's "Notifications" for the template
 * data.
 */
export default async function pixCheckoutNotify({
  event,
  container,
}: SubscriberArgs<ChargeEventData>): Promise<void> {
  const options = notifyOptions(container.resolve(ContainerRegistrationKeys.CONFIG_MODULE));
  if (!options.enabled) return;
  const ctx = settleContext(container);
  const notification = await buildNotification(ctx, event.name, event.data, options);
  if (!notification) return;
  const notifications = container.resolve<INotificationModuleService>(Modules.NOTIFICATION);
  await notifications.createNotifications(notification);
  ctx.logger.info(
    `sent ${notification.template} for charge ${event.data.charge_id} on ${notification.channel}`,
  );
}

export const config: SubscriberConfig = {
  event: [
    CHARGE_EVENTS.created,
    CHARGE_EVENTS.captured,
    CHARGE_EVENTS.expired,
    CHARGE_EVENTS.flagged,
  ],
};
