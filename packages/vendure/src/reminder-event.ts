import { VendureEvent, type Order, type Payment, type RequestContext } from "@vendure/core";
import type { ReminderStep } from "@pix-checkout/client/reminders";

/**
 * A reminder the plugin decided to send about an unpaid code (README "Reminders"), published on
 * Vendure's `EventBus` once the decision is committed, at most once per code and step. The
 * plugin sends nothing itself: the store's mailer (its `EmailPlugin`, or any subscriber)
 * writes to `emailAddress`. `reminderWords(step, …)` gives the Portuguese subject and line.
 *
 * `emailAddress` is the shopper's personal data: it is here for the mailer only, and neither the
 * plugin nor a subscriber should log it.
 */
export class PixCheckoutReminderEvent extends VendureEvent {
  constructor(
    /** A context of the order's channel (outside any transaction: the decision is committed). */
    public ctx: RequestContext,
    public order: Order,
    public payment: Payment,
    public step: ReminderStep,
    /** The id the shopper's page (`<pix-checkout session-id>`) follows the code by. */
    public sessionId: string,
    /** The order's customer e-mail: the message's recipient. */
    public emailAddress: string,
    /** What the code asks, in integer cents. */
    public amountCents: number,
    /** The code's expiry (ISO) as the service gave it: a Pix's last minute, a boleto's due date. */
    public expiresAt: string,
    /** A boleto's real due day (`YYYY-MM-DD`, on a bank business day); null for a Pix. */
    public dueDay: string | null,
  ) {
    super();
  }
}
