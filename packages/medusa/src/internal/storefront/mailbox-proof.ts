import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { mailboxHasPaidOrder } from "../medusa/buyers";

/** What the rule reads of a code: whether a shopper's page showed it. */
export interface CodeShown {
  shown_at?: Date | string | null;
}

/** What the rule reads of who would be written to. */
export interface CodeRecipient {
  email: string | null;
  order?: unknown;
}

/**
 * Whether the store may write to a code's mailbox about the unpaid code: the code e-mail, its
 * expiry, and every reminder. The one rule; the notification subscriber and the reminders' pass
 * both ask it (docs/store-api.md, "Quem recebe o código e os lembretes").
 *
 * A cart's e-mail is whatever its client typed, and so are a customer account's (Medusa's
 * `POST /store/customers` checks no mailbox) and an order-first order's (it is made from the
 * cart, unpaid). What a client cannot make up is money: the mailbox proves itself with an
 * order paid here (`mailboxHasPaidOrder`: Medusa or the plugin's ledger holds a capture for an
 * order of that address). And then only once the shopper is there: their page showed the code,
 * or their order-first order exists. A first-time shopper's code is not mailed; the page shows
 * it, and the payment page brings it back. Whatever passes, `codeMailsPerDay` caps a mailbox's
 * day (mail-window.ts).
 */
export async function mayMailCode(
  db: Knex,
  code: CodeShown,
  recipient: CodeRecipient | undefined,
): Promise<boolean> {
  if (!shopperIsThere(code, recipient)) return false;
  return mailboxHasPaidOrder(db, recipient.email);
}

/**
 * The part of {@link mayMailCode} that reads nothing: there is a mailbox to write to, and the
 * shopper is there (their page showed the code, or their order-first order exists).
 */
export function shopperIsThere(
  code: CodeShown,
  recipient: CodeRecipient | undefined,
): recipient is CodeRecipient & { email: string } {
  if (!recipient?.email) return false;
  return Boolean(recipient.order) || Boolean(code.shown_at);
}
