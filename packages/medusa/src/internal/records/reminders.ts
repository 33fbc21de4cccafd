import { randomBytes } from "node:crypto";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { generateEntityId } from "@medusajs/framework/utils";
import type { ReminderStep } from "@pix-checkout/client/reminders";
import { CHARGES, liveCharge, type ChargeRow } from "./charges";

/**
 * The steps of the cadence, in order (`@pix-checkout/client/reminders`, shared with the Vendure
 * plugin). Here `pix_expired` carries a link that gives the same cart a new code, and
 * `boleto_overdue` one that offers a new boleto or a Pix.
 */
export { REMINDER_STEPS, type ReminderStep } from "@pix-checkout/client/reminders";

const REMINDERS = "pix_checkout_reminder";
const OPT_OUTS = "pix_checkout_reminder_opt_out";

/**
 * The one rule of "this payment followed a reminder" (a "recuperado"), as SQL on a charge
 * table reference `charge`: a reminder was sent for the same cart (payment collection) before
 * the charge was paid. The new code a reminder's link led to counts, since it is the cart's.
 * The admin's figures and the books both use it.
 */
export function followedReminderSql(charge: string): string {
  return `exists (select 1 from ${REMINDERS} r where r.payment_collection_id = ${charge}.payment_collection_id
    and r.state = 'sent' and r.sent_at <= ${charge}.paid_at)`;
}

/** How long a send may take before another pass takes it over (its message is idempotent). */
export const REMINDER_SEND_LEASE_MS = 2 * 60_000;

/** A row of `pix_checkout_reminder`: one step of one charge's cadence. */
export interface ReminderRow {
  id: string;
  charge_id: string;
  payment_collection_id: string | null;
  step: ReminderStep;
  /** `sending` while a pass holds it (until `claimed_until`), then `sent` or `skipped`. */
  state: "sending" | "sent" | "skipped";
  /** Why a step was skipped (settlement/reminder-verdict.ts `ReminderSkipReason`). */
  reason: string | null;
  /** The unguessable token of the message's links (new code, opt-out). */
  token: string;
  /** The mailbox it went to (`emailKey`), so its opt-out link knows whom to spare. */
  email_key: string | null;
  claimed_until: Date | null;
  sent_at: Date | null;
  created_at: Date;
}

/**
 * The SQL of `pix_checkout_reminder` and `pix_checkout_reminder_opt_out`, and of when a charge's
 * next reminder falls due (`pix_checkout_charge.next_reminder_at`). The unique
 * (charge, step) row is what makes a step happen at most once across instances and restarts:
 * a pass takes it as `sending` for a lease, and finishes it `sent` or `skipped`.
 */
export class Reminders {
  constructor(private readonly db: Knex) {}

  /** The steps of a charge that are over (sent or skipped); one being sent is not. */
  async handledSteps(chargeId: string): Promise<Set<ReminderStep>> {
    const rows = (await this.db(REMINDERS)
      .where({ charge_id: chargeId })
      .whereIn("state", ["sent", "skipped"])
      .select("step")) as { step: ReminderStep }[];
    return new Set(rows.map((row) => row.step));
  }

  /**
   * Takes a step to send it: a new row, or one a pass left `sending` past its lease (it died
   * mid-send; the message's idempotency key keeps a second copy from going out). Returns the
   * row, or undefined when another pass holds it or it is over.
   */
  async take(
    chargeId: string,
    paymentCollectionId: string | null,
    step: ReminderStep,
    now: Date,
  ): Promise<ReminderRow | undefined> {
    const result = await this.db.raw(
      `insert into ${REMINDERS} (id, charge_id, payment_collection_id, step, state, token, claimed_until, created_at)
       values (?, ?, ?, ?, 'sending', ?, ?, ?)
       on conflict (charge_id, step) do update set claimed_until = excluded.claimed_until
       where ${REMINDERS}.state = 'sending' and ${REMINDERS}.claimed_until <= ?
       returning *`,
      [
        generateEntityId(undefined, "pxrm"),
        chargeId,
        paymentCollectionId,
        step,
        randomBytes(24).toString("base64url"),
        new Date(now.getTime() + REMINDER_SEND_LEASE_MS),
        now,
        now,
      ],
    );
    return (result.rows as ReminderRow[])[0];
  }

  /** Records a step as sent to `emailKey`. */
  async sent(id: string, emailKey: string, at: Date): Promise<void> {
    await this.db(REMINDERS)
      .where({ id })
      .update({ state: "sent", email_key: emailKey, sent_at: at, claimed_until: null });
  }

  /**
   * Records a step as skipped and why: a row taken to send, or a new one. A step already
   * over is left as it is.
   */
  async skipped(
    chargeId: string,
    paymentCollectionId: string | null,
    step: ReminderStep,
    reason: string,
    now: Date,
  ): Promise<void> {
    await this.db.raw(
      `insert into ${REMINDERS} (id, charge_id, payment_collection_id, step, state, reason, token, created_at)
       values (?, ?, ?, ?, 'skipped', ?, ?, ?)
       on conflict (charge_id, step) do update set state = 'skipped', reason = excluded.reason, claimed_until = null
       where ${REMINDERS}.state = 'sending'`,
      [
        generateEntityId(undefined, "pxrm"),
        chargeId,
        paymentCollectionId,
        step,
        reason,
        randomBytes(24).toString("base64url"),
        now,
      ],
    );
  }

  /** Reminders sent for a payment collection (a cart) since `since`. */
  async sentToCollectionSince(paymentCollectionId: string | null, since: Date): Promise<number> {
    if (!paymentCollectionId) return 0;
    const [row] = (await this.db(REMINDERS)
      .where({ payment_collection_id: paymentCollectionId, state: "sent" })
      .where("sent_at", ">=", since)
      .count({ n: "*" })) as { n: string | number }[];
    return Number(row?.n ?? 0);
  }

  /** The sent reminder a message's link carries, by its token. */
  async byToken(token: string): Promise<ReminderRow | undefined> {
    if (!/^[A-Za-z0-9_-]{32}$/.test(token)) return undefined;
    return (await this.db(REMINDERS).where({ token, state: "sent" }).first()) as
      ReminderRow | undefined;
  }

  /** Records that a mailbox wants no reminders (idempotent). */
  async optOut(emailKey: string): Promise<void> {
    await this.db(OPT_OUTS).insert({ email_key: emailKey }).onConflict("email_key").ignore();
  }

  /** Whether a mailbox asked for no reminders. */
  async optedOut(emailKey: string): Promise<boolean> {
    return Boolean(await this.db(OPT_OUTS).where({ email_key: emailKey }).first());
  }

  /**
   * Claims up to `limit` charges whose next reminder is due at `now`, by moving it a lease
   * ahead in the same statement (`skip locked`), as `claimDueChecks` does for checks: two
   * instances take different charges, and a claimer that dies lets the lease run out. The
   * partial index on `next_reminder_at` makes an idle pass cost one index probe, whatever the
   * history.
   */
  async claimDueReminders(now: Date, limit: number, leaseMs: number): Promise<ChargeRow[]> {
    const result = await this.db.raw(
      `update ${CHARGES} c set next_reminder_at = ? from (
         select id from ${CHARGES}
         where deleted_at is null and next_reminder_at <= ?
         order by next_reminder_at asc limit ? for update skip locked
       ) due where c.id = due.id returning c.*`,
      [new Date(now.getTime() + leaseMs), now, limit],
    );
    return result.rows as ChargeRow[];
  }

  /** Sets when the charge's next reminder falls due (null: its cadence is over). */
  async scheduleReminder(chargeId: string, at: Date | null): Promise<void> {
    await liveCharge(this.db, chargeId).update({ next_reminder_at: at });
  }
}
