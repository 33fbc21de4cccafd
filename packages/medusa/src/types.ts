// The plugin's public types, for `medusa-config.ts`: the input types of the same zod schemas
// that check the options at start-up, so the types and the checks cannot drift apart.
// options-docs.test.ts keeps them and the documentation's options tables equal.
import type { z } from "zod";
import type { optionsSchema } from "./internal/platform/options";
import type { PLUGIN_OPTION_SECTIONS } from "./modules/pix-checkout/loaders/check-plugin-options";

/**
 * Options of the payment providers `@pix-checkout/medusa/providers/pix-checkout` and
 * `.../providers/pix-only`, as written under the payment module in `medusa-config.ts`.
 * Validated at start-up; see docs/options.md for ranges and defaults.
 */
export type PixCheckoutOptions = z.input<typeof optionsSchema>;

type Sections = typeof PLUGIN_OPTION_SECTIONS;

/**
 * Options of the plugin entry (`plugins: [{ resolve: "@pix-checkout/medusa", options }]`):
 * `fairness` (the create line's share per client), `notifications` (messages to the shopper),
 * `stream` (live status), `alerts` (health alerts to the merchant), `recovery` (reminders
 * about unpaid codes) and `calendar` (extra bank holidays). Every section is optional and
 * validated at start-up.
 */
export type PixCheckoutPluginOptions = {
  [Section in keyof Sections]?: z.input<Sections[Section]> | undefined;
};

/**
 * The `data` every notification of the plugin hands your notification provider's template
 * (docs/store-api.md, "Notifications"): the charge, its code while it can be paid, and, once
 * there is an order, `order` with what was ordered (`order.lines`: items, delivery address and
 * option, Pix discount, other discounts, taxes) and its `total`, in cents and as `R$ 1.234,56`,
 * the lines adding up to the total to the cent.
 */
export type { NotificationData as PixCheckoutNotificationData } from "./internal/storefront/notification-data";
export type {
  NotificationOrderLines as PixCheckoutNotificationOrderLines,
  NotificationOrderItem as PixCheckoutNotificationOrderItem,
  NotificationShippingLine as PixCheckoutNotificationShippingLine,
  NotificationMoney as PixCheckoutNotificationMoney,
} from "./internal/storefront/order-lines-data";
export type { DeliveryAddress as PixCheckoutDeliveryAddress } from "./internal/medusa/order-details";
