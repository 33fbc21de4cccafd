import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { emailKey } from "../create-line/client-origin";

/**
 * Takes the address's message window: true when no message of the kind this guards went to
 * the same mailbox (`emailKey`: case, `+tag` and Gmail dots folded) within `windowMinutes`,
 * and from now on none will until the window has passed. One statement, so two instances
 * sending at the same moment cannot both take it.
 */
export async function takeMailWindow(
  db: Knex,
  email: string,
  windowMinutes: number,
): Promise<boolean> {
  const result = (await db.raw(
    `insert into pix_checkout_mail_window (email_key, sent_at) values (?, now())
     on conflict (email_key) do update set sent_at = now()
       where pix_checkout_mail_window.sent_at <= now() - (? * interval '1 minute')
     returning email_key`,
    [emailKey(email), windowMinutes],
  )) as { rows: unknown[] };
  return result.rows.length > 0;
}
