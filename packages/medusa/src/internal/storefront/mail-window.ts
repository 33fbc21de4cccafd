import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { emailKey } from "../create-line/client-origin";

const WINDOWS = "pix_checkout_mail_window";

/**
 * Takes the mailbox's message window: true when no message of the kind this guards went to the
 * same mailbox (`emailKey`: case, `+tag` and Gmail dots folded) within `windowMinutes`, and
 * fewer than `perDay` went this São Paulo day; from now on none will until the window has
 * passed. One statement, so two instances sending at the same moment cannot both take it.
 */
export async function takeMailWindow(
  db: Knex,
  email: string,
  windowMinutes: number,
  perDay: number,
): Promise<boolean> {
  const result = (await db.raw(
    `insert into ${WINDOWS} (email_key, sent_at, sent_day, day_count)
     values (?, now(), (now() at time zone 'America/Sao_Paulo')::date, 1)
     on conflict (email_key) do update set
       sent_at = now(),
       day_count = case when ${WINDOWS}.sent_day = excluded.sent_day
                        then ${WINDOWS}.day_count + 1 else 1 end,
       sent_day = excluded.sent_day
     where ${WINDOWS}.sent_at <= now() - (? * interval '1 minute')
       and (${WINDOWS}.sent_day is distinct from excluded.sent_day or ${WINDOWS}.day_count < ?)
     returning email_key`,
    [emailKey(email), windowMinutes, perDay],
  )) as { rows: unknown[] };
  return result.rows.length > 0;
}

/**
 * Forgets mailboxes whose window and São Paulo day are both over (retention): their next
 * message starts a new count, as it would have anyway. Returns how many were pruned.
 */
export async function pruneMailWindows(db: Knex, windowMinutes: number): Promise<number> {
  const pruned = await db(WINDOWS)
    .where("sent_at", "<", db.raw("now() - (? * interval '1 minute')", [windowMinutes]))
    .where("sent_day", "<", db.raw("(now() at time zone 'America/Sao_Paulo')::date"))
    .delete();
  return Number(pruned);
}

/**
 * Takes one of the mailbox's `perDay` messages of the São Paulo day of `at`, without the
 * window between two code messages: a reminder follows its code by design, but counts toward
 * the same day's limit. One statement, as `takeMailWindow`. A mailbox new today gets a row
 * whose window is long over (`-infinity`), so its next code message is not held back.
 */
export async function takeMailDaySlot(
  db: Knex,
  email: string,
  perDay: number,
  at: Date,
): Promise<boolean> {
  const result = (await db.raw(
    `insert into ${WINDOWS} (email_key, sent_at, sent_day, day_count)
     values (?, '-infinity', (?::timestamptz at time zone 'America/Sao_Paulo')::date, 1)
     on conflict (email_key) do update set
       day_count = case when ${WINDOWS}.sent_day = excluded.sent_day
                        then ${WINDOWS}.day_count + 1 else 1 end,
       sent_day = excluded.sent_day
     where ${WINDOWS}.sent_day is distinct from excluded.sent_day or ${WINDOWS}.day_count < ?
     returning email_key`,
    [emailKey(email), at.toISOString(), perDay],
  )) as { rows: unknown[] };
  return result.rows.length > 0;
}
