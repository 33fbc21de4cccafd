import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { ChargeEvents } from "./charge-events";
import { Charges } from "./charges";
import { RefreshWindows } from "./refresh-windows";
import { Reminders } from "./reminders";
import { WebhookDeliveries } from "./webhook-deliveries";

/** The plugin's tables, one class each, over one connection (or one transaction). */
export interface Records {
  /** `pix_checkout_charge`. */
  charges: Charges;
  /** `pix_checkout_charge_event`, each charge's timeline. */
  events: ChargeEvents;
  /** `pix_checkout_webhook_delivery`. */
  deliveries: WebhookDeliveries;
  /** `pix_checkout_refresh_window`. */
  refreshWindows: RefreshWindows;
  /** `pix_checkout_reminder` and its opt-outs. */
  reminders: Reminders;
}

/** The plugin's tables over `db`. */
export function recordsOf(db: Knex): Records {
  return {
    charges: new Charges(db),
    events: new ChargeEvents(db),
    deliveries: new WebhookDeliveries(db),
    refreshWindows: new RefreshWindows(db),
    reminders: new Reminders(db),
  };
}
