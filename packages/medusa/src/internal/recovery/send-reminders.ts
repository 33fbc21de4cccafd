import type { CreateNotificationDTO, INotificationModuleService } from "@medusajs/framework/types";
import { Modules } from "@medusajs/framework/utils";
import { redact } from "@pix-checkout/client";
import type { ReminderReport } from "@pix-checkout/client/reminders";
import type { ChargeRow } from "../records/charges";
import type { ReminderRow } from "../records/reminders";
import { emailKey } from "../create-line/client-origin";
import { readMedusaSide } from "../medusa/collection-snapshot";
import { recordReminder } from "../platform/telemetry";
import { dueWords } from "../platform/business-days";
import { startOfSaoPauloDay, saoPauloDay } from "@pix-checkout/client/books";
import type { SettleContext } from "../settlement/context";
import { collectionPaidOf } from "../settlement/snapshot";
import { reminderVerdict, type ReminderFacts } from "../settlement/reminder-verdict";
import { settleCharge } from "../settlement/settle";
import { takeMailDaySlot } from "../storefront/mail-window";
import {
  buyerOf,
  codeMessageData,
  type Buyer,
  type NotificationData,
} from "../storefront/notification";
import { mayMailCode } from "../storefront/mailbox-proof";
import { notifyOptions, type NotifyOptions } from "../storefront/notify-options";
import {
  nextReminder,
  realDueDay,
  reminderPlan,
  stepValidUntil,
  type CadenceCharge,
  type PlannedReminder,
  type ReminderStep,
} from "../checkout/reminder-cadence";
import { recoveryLinks } from "./links";
import { recoveryOptions, type RecoveryOptions } from "../checkout/recovery-options";

/** Charges taken per pass; a pass with more due takes the rest on the next run. */
const BATCH = 50;
/** How far a claimed charge's next reminder moves while a pass works on it. */
const CLAIM_LEASE_MS = 2 * 60_000;
/** The pause before trying again when the money's state cannot be read. */
const RETRY_MS = 2 * 60_000;

/** What a reminders' pass did (`@pix-checkout/client/reminders`, as the Vendure plugin's). */
export type { ReminderReport };

/** What a reminder's template receives as `data` (docs/store-api.md, "Reminders"). */
export type ReminderData = Omit<NotificationData, "event"> & {
  event: "reminder";
  reminder: {
    step: ReminderStep;
    /** The page that gives the same cart a new code, after expiry or the grace period. */
    new_code_url: string | null;
    /** The page where the mailbox stops all reminders. */
    opt_out_url: string;
    /** `boleto_overdue`: the storefront's checkout, to pay with Pix instead (`checkoutUrl`). */
    checkout_url: string | null;
    /**
     * `boleto_due_tomorrow` and `boleto_due_today`: the real due date in words as the message
     * goes ("amanhã, terça-feira, 01/12", "na segunda-feira, 30/11", "hoje, terça-feira, 01/12").
     */
    due_when: string | null;
  };
};

/**
 * One pass of the reminders: takes the charges whose next reminder is due at `now` (an indexed
 * due time, so an idle pass costs one probe), decides each at this moment against the money's
 * records (settlement/reminder-verdict.ts), sends it through Medusa's Notification Module, and
 * schedules the charge's next step. `now` is a parameter so tests and the demo can move a clock.
 */
export async function remindOnce(
  ctx: SettleContext,
  now: Date = new Date(),
  signal?: AbortSignal,
): Promise<ReminderReport> {
  const report: ReminderReport = { due: 0, sent: 0, skipped: 0, deferred: 0, errors: 0 };
  const options = recoveryOptions(ctx.config);
  const notify = notifyOptions(ctx.config);
  const rows = await ctx.records.reminders.claimDueReminders(now, BATCH, CLAIM_LEASE_MS);
  for (const row of rows) {
    if (signal?.aborted) break; // The claims lapse, and the next pass takes them.
    report.due += 1;
    try {
      const outcome = await remindCharge(ctx, row, options, notify, now);
      report[outcome] += 1;
    } catch (error) {
      report.errors += 1;
      await ctx.records.reminders
        .scheduleReminder(row.charge_id, new Date(now.getTime() + RETRY_MS))
        .catch(() => undefined);
      ctx.logger.warn(
        `reminder for charge ${row.charge_id} failed: ${redact((error as Error)?.message ?? String(error))}`,
      );
    }
  }
  return report;
}

/** The cadence's view of a charge row. */
export function cadenceOf(row: ChargeRow): CadenceCharge {
  const boleto = (row.display as { boleto?: { due_date?: string | null } } | null)?.boleto;
  return {
    method: row.method,
    createdAt: new Date(row.created_at),
    expiresAt: row.expires_at ? new Date(row.expires_at) : null,
    dueDay: boleto?.due_date ?? null,
    graceEndsAt: row.order_hold_until ? new Date(row.order_hold_until) : null,
  };
}

async function remindCharge(
  ctx: SettleContext,
  claimed: ChargeRow,
  options: RecoveryOptions,
  notify: NotifyOptions,
  now: Date,
): Promise<"sent" | "skipped" | "deferred"> {
  const { records } = ctx;
  const plan = reminderPlan(cadenceOf(claimed), options);
  const handled = await records.reminders.handledSteps(claimed.charge_id);
  // Read once, when the first step is due: the money first (a code still pending is asked
  // about, one light read, so a payment whose webhook has not arrived is recorded rather than
  // reminded of), then who the messages would go to.
  let fresh: { row: ChargeRow; buyer: Buyer | undefined } | undefined;
  const readFresh = async () => {
    if (claimed.status === "pending") await settleCharge(ctx, claimed.charge_id, "reconcile");
    const row = (await records.charges.byChargeId(claimed.charge_id)) ?? claimed;
    return { row, buyer: await buyerOf(ctx, row.payment_collection_id) };
  };
  let outcome: "skipped" | "deferred" = "deferred";
  // A skipped step may leave the next one due already (a code that expired before its
  // "10 minutes left"): it is decided in the same pass. A sent one ends the pass for the charge.
  for (;;) {
    const due = nextReminder(plan, handled);
    if (!due || due.at > now) {
      await records.reminders.scheduleReminder(claimed.charge_id, due?.at ?? null);
      return outcome;
    }
    fresh ??= await readFresh();
    const { row, buyer } = fresh;
    const verdict = reminderVerdict(await factsOf(ctx, row, due, buyer, options, now));
    if (verdict.kind === "defer") {
      await records.reminders.scheduleReminder(row.charge_id, verdict.until);
      recordReminder(due.step, row.method, "deferred");
      return "deferred";
    }
    const template = options.templates[due.step];
    if (verdict.kind === "skip" || !template) {
      const reason = verdict.kind === "skip" ? verdict.reason : "no_template";
      await skip(ctx, row, due, reason, now);
      handled.add(due.step);
      outcome = "skipped";
      // A paid cart or a replaced code has nothing more to be reminded of.
      if (reason === "paid" || reason === "replaced") {
        await records.reminders.scheduleReminder(row.charge_id, null);
        return outcome;
      }
      continue;
    }
    const taken = await records.reminders.take(
      row.charge_id,
      row.payment_collection_id,
      due.step,
      now,
    );
    if (!taken) return "deferred"; // Another pass holds this step; the claim's lease brings it back.
    const email = buyer?.email as string; // The verdict sends only to a mailbox.
    if (!(await takeMailDaySlot(ctx.db, email, notify.codeMailsPerDay, now))) {
      await skip(ctx, row, due, "mailbox_limit", now);
      handled.add(due.step);
      outcome = "skipped";
      continue;
    }
    const notifications = ctx.container.resolve<INotificationModuleService>(Modules.NOTIFICATION);
    await notifications.createNotifications(
      await reminderNotification(row, buyer as Buyer, taken, template, notify, options, now),
    );
    await records.reminders.sent(taken.id, emailKey(email), now);
    await records.events.add({
      chargeId: row.charge_id,
      kind: "reminder_sent",
      source: "recovery",
      detail: { step: due.step },
    });
    recordReminder(due.step, row.method, "sent");
    ctx.logger.info(`sent reminder ${due.step} for charge ${row.charge_id}`);
    handled.add(due.step);
    await records.reminders.scheduleReminder(
      row.charge_id,
      nextReminder(plan, handled)?.at ?? null,
    );
    return "sent";
  }
}

/** The facts the verdict reads, from the plugin's records and Medusa's side of the collection. */
async function factsOf(
  ctx: SettleContext,
  row: ChargeRow,
  due: PlannedReminder,
  buyer: Buyer | undefined,
  options: RecoveryOptions,
  now: Date,
): Promise<ReminderFacts> {
  const { records } = ctx;
  let collectionPaid = false;
  let orderCanceled: ReminderFacts["orderCanceled"] = false;
  if (row.payment_collection_id) {
    const side = await readMedusaSide(ctx.db, row.payment_collection_id);
    collectionPaid =
      (await collectionPaidOf(records, ctx.config, row.payment_collection_id, side)) !== null;
    if (side.order?.status === "canceled" || side.order?.canceledAt) {
      // The plugin's own cancel of an order whose code went unpaid is on the code's timeline.
      orderCanceled =
        (await records.events.count(row.charge_id, "order_canceled")) > 0
          ? "unpaid"
          : "by_merchant";
    }
  }
  const email = buyer?.email ?? null;
  // The opt-out first: the mailbox's own word, and one probe of the plugin's table, before the
  // proof reads Medusa's orders.
  const mailbox: ReminderFacts["mailbox"] = !email
    ? "none"
    : (await records.reminders.optedOut(emailKey(email)))
      ? "opted_out"
      : !(await mayMailCode(ctx.db, row, buyer))
        ? "stranger"
        : "ok";
  return {
    step: due.step,
    now,
    charge: {
      status: row.status,
      superseded: Boolean(row.superseded_at),
      expiresAt: row.expires_at ? new Date(row.expires_at) : null,
    },
    validUntil: stepValidUntil(due.step, cadenceOf(row)),
    collectionPaid,
    orderCanceled,
    mailbox,
    sentToCartToday: await records.reminders.sentToCollectionSince(
      row.payment_collection_id,
      startOfSaoPauloDay(saoPauloDay(now)),
    ),
    options,
  };
}

async function skip(
  ctx: SettleContext,
  row: ChargeRow,
  due: PlannedReminder,
  reason: string,
  now: Date,
): Promise<void> {
  await ctx.records.reminders.skipped(
    row.charge_id,
    row.payment_collection_id,
    due.step,
    reason,
    now,
  );
  await ctx.records.events.add({
    chargeId: row.charge_id,
    kind: "reminder_skipped",
    source: "recovery",
    detail: { step: due.step, reason },
  });
  recordReminder(due.step, row.method, reason);
}

async function reminderNotification(
  row: ChargeRow,
  buyer: Buyer,
  reminder: ReminderRow,
  template: string,
  notify: NotifyOptions,
  options: RecoveryOptions,
  now: Date,
): Promise<CreateNotificationDTO> {
  const step = reminder.step;
  const dueDay = realDueDay(cadenceOf(row));
  const namesDueDay = step === "boleto_due_tomorrow" || step === "boleto_due_today";
  const base = await codeMessageData("reminder" as const, row, buyer, notify.paymentPageUrl);
  const links = recoveryLinks(options, reminder.token);
  const offersNewCode = step === "pix_expired" || step === "boleto_overdue";
  const data: ReminderData = {
    ...base,
    reminder: {
      step,
      new_code_url: offersNewCode ? links.newCode : null,
      opt_out_url: links.optOut,
      checkout_url: step === "boleto_overdue" ? (options.checkoutUrl ?? null) : null,
      due_when: namesDueDay && dueDay ? dueWords(dueDay, now) : null,
    },
  };
  // The day the shopper pays by, which a charge recorded before due dates moved off weekends
  // may still hold as a Saturday.
  if (data.boleto && dueDay) data.boleto.due_date = dueDay;
  // An expired Pix code or an overdue boleto is not offered again: the link makes a new one.
  if (offersNewCode) {
    delete data.pix;
    delete data.boleto;
  }
  return {
    to: buyer.email as string,
    channel: notify.channel,
    template,
    data: data as unknown as Record<string, unknown>,
    trigger_type: `pix_checkout.reminder.${step}`,
    resource_id: row.charge_id,
    resource_type: "pix_checkout_charge",
    // One message per step and code, whichever pass or instance sends it.
    idempotency_key: `reminder:${step}:${row.charge_id}`,
  };
}
