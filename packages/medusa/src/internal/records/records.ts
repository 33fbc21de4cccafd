import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { ChargeAttention } from "./attention";
import { CaptureClaims } from "./capture-claims";
import { ChargeChecks } from "./charge-checks";
import { ChargeCompaction } from "./charge-compaction";
import { ChargeEvents } from "./charge-events";
import { ChargeNotes } from "./charge-notes";
import { Charges } from "./charges";
import { CollectionMoney } from "./collection-money";
import { Ledger } from "./ledger";
import { LinkHits } from "./link-hits";
import { Outbox } from "./outbox";
import { RefreshWindows } from "./refresh-windows";
import { Reminders } from "./reminders";
import { WebhookDeliveries } from "./webhook-deliveries";

/**
 * The plugin's tables over one connection (or one transaction), one class per table or per
 * concern of the charge table.
 */
export interface Records {
  /** `pix_checkout_charge`: a charge's identity, lookups and status. */
  charges: Charges;
  /** The money: `pix_checkout_ledger_entry` and the charge's balances. */
  ledger: Ledger;
  /** A collection's charges as one decision reads them, with their ledger's captures. */
  collectionMoney: CollectionMoney;
  /** What the merchant must look at ("Needs attention"). */
  attention: ChargeAttention;
  /** When the payment service is next asked about a charge. */
  checks: ChargeChecks;
  /** The right to capture, and what waits for a capture or an order. */
  captures: CaptureClaims;
  /** A charge's note for the merchant. */
  notes: ChargeNotes;
  /** Which finished charges retention compacts. */
  compaction: ChargeCompaction;
  /** `pix_checkout_outbox`: what follows a capture. */
  outbox: Outbox;
  /** `pix_checkout_charge_event`, each charge's timeline. */
  events: ChargeEvents;
  /** `pix_checkout_webhook_delivery`. */
  deliveries: WebhookDeliveries;
  /** `pix_checkout_refresh_window`. */
  refreshWindows: RefreshWindows;
  /** `pix_checkout_reminder`, its opt-outs, and when a charge's next reminder falls due. */
  reminders: Reminders;
  /** `pix_checkout_link_hit`: how often a reminder page's buttons (POST) were pressed, per token and address. */
  linkHits: LinkHits;
}

/** The plugin's tables over `db`. */
export function recordsOf(db: Knex): Records {
  return {
    charges: new Charges(db),
    ledger: new Ledger(db),
    collectionMoney: new CollectionMoney(db),
    attention: new ChargeAttention(db),
    checks: new ChargeChecks(db),
    captures: new CaptureClaims(db),
    notes: new ChargeNotes(db),
    compaction: new ChargeCompaction(db),
    outbox: new Outbox(db),
    events: new ChargeEvents(db),
    deliveries: new WebhookDeliveries(db),
    refreshWindows: new RefreshWindows(db),
    reminders: new Reminders(db),
    linkHits: new LinkHits(db),
  };
}
