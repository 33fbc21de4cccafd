import { Inject, Injectable } from "@nestjs/common";
import {
  EventBus,
  Logger,
  Payment,
  RequestContextService,
  ScheduledTask,
  TransactionalConnection,
  type Order,
  type RequestContext,
} from "@vendure/core";
import { redact } from "@pix-checkout/client";
import type { BankCalendar } from "@pix-checkout/client/bank-days";
import { realDueDay, type ReminderReport, type ReminderStep } from "@pix-checkout/client/reminders";
import { AWAITING_PAYMENT } from "./awaiting-pix";
import {
  PIX_CHECKOUT_OPTIONS,
  bankCalendarOf,
  reminderOptionsOf,
  type PixCheckoutVendureOptions,
} from "./options";
import { paysOfOrder } from "./payment-facts";
import { PixCheckoutService } from "./pix-checkout.service";
import {
  decideReminders,
  type HandledReminder,
  type ReminderDecision,
  type ReminderFacts,
} from "./reminder-decision";
import { PixCheckoutReminderEvent } from "./reminder-event";
import { PAID_ORDER } from "./order-states";

const LOG = "PixCheckoutPlugin";

/** How long after it was made an expired Pix is still looked at for its "new code" step. */
const EXPIRED_LOOKBACK_MS = 2 * 24 * 60 * 60 * 1000;

/** What one reminders' pass did (`@pix-checkout/client/reminders`, as the Medusa plugin's). */
export type { ReminderReport };

/**
 * The reminders about unpaid codes (README "Reminders"). Every pass looks at the plugin's codes
 * still waiting (a Pix `AwaitingPix`, a boleto `Authorized`) and its Pix codes expired lately;
 * a code with a step due (the shared cadence, `@pix-checkout/client/reminders`) is decided under
 * its order's lock, against its order as it is then (paid, cancelled, replaced: skipped, with
 * why), and the step recorded once on the payment (`metadata.reminders`). A step to send is
 * published as `PixCheckoutReminderEvent` once the record is committed: at most once per code
 * and step, even with two passes at once (the lock) or a crash between the two (never twice).
 */
@Injectable()
export class PixCheckoutReminders {
  constructor(
    @Inject(PIX_CHECKOUT_OPTIONS) private readonly options: PixCheckoutVendureOptions,
    private readonly connection: TransactionalConnection,
    private readonly requestContexts: RequestContextService,
    private readonly eventBus: EventBus,
    private readonly pixCheckout: PixCheckoutService,
  ) {}

  /** One pass at `now` (the `pix-checkout-reminders` task's work; tests move the clock). */
  async sendReminders(now: Date = new Date()): Promise<ReminderReport> {
    const report: ReminderReport = { due: 0, sent: 0, skipped: 0, deferred: 0, errors: 0 };
    const options = reminderOptionsOf(this.options);
    if (!options.enabled) return report;
    const candidates = await this.connection.rawConnection
      .getRepository(Payment)
      .createQueryBuilder("payment")
      .innerJoinAndSelect("payment.order", "order")
      .leftJoinAndSelect("order.customer", "customer")
      .leftJoinAndSelect("order.payments", "sibling")
      // What the order's other payments settled nets their refunds (payment-facts `paysOfOrder`).
      .leftJoinAndSelect("sibling.refunds", "siblingRefund")
      // Codes waiting, and Pix codes the service said expired lately (their "take a new code"
      // step). Vendure keeps metadata as JSON text: read as jsonb.
      .where(
        "(payment.state IN (:...waiting) OR (payment.state = 'Cancelled' AND (payment.metadata::jsonb -> 'expiredAt') IS NOT NULL AND payment.createdAt > :since))",
        {
          waiting: [...AWAITING_PAYMENT],
          since: new Date(now.getTime() - EXPIRED_LOOKBACK_MS),
        },
      )
      // Ours only: a code of this plugin's has a session id.
      .andWhere("(payment.metadata::jsonb -> 'public' ->> 'sessionId') IS NOT NULL")
      .orderBy("payment.createdAt", "ASC")
      .getMany();
    for (const candidate of candidates) {
      // Read without the lock to find what is due: nothing, or a step that waits for the quiet
      // hours, takes no lock and records nothing. Anything else is decided again under it.
      const seen = decideReminders(
        reminderFactsOf(candidate, candidate.order, now, options, bankCalendarOf(this.options)),
      );
      if (seen.skipped.length === 0 && seen.then.kind !== "send") {
        if (seen.then.kind === "defer") report.deferred += 1;
        continue;
      }
      report.due += 1;
      try {
        // A code about to be reminded of is asked about first (one status read): paid with its
        // webhook lost, it is settled by its own door, and the step below is skipped as paid.
        if (seen.then.kind === "send" && AWAITING_PAYMENT.has(candidate.state)) {
          await this.pixCheckout.settleCharge(candidate.transactionId);
        }
        const outcome = await this.decide(candidate, now, options);
        report.skipped += outcome.skipped;
        if (outcome.then.kind === "defer") report.deferred += 1;
        if (outcome.then.kind === "send") report.sent += 1;
      } catch (error) {
        report.errors += 1;
        Logger.warn(
          `reminder for payment ${candidate.id} could not be decided: ${redact(String((error as Error)?.message ?? error))}`,
          LOG,
        );
      }
    }
    return report;
  }

  /** The code's due steps decided and recorded under its order's lock; a send published after. */
  private async decide(
    candidate: Payment,
    now: Date,
    options: ReminderFacts["options"],
  ): Promise<{ skipped: number; then: Exclude<ReminderDecision, { kind: "skip" }> }> {
    const channelToken = (candidate.metadata as { channelToken?: unknown }).channelToken;
    if (typeof channelToken !== "string") return { skipped: 0, then: { kind: "none" } };
    const ctx = await this.requestContexts.create({
      apiType: "admin",
      channelOrToken: channelToken,
    });
    const decided = await this.connection.withTransaction(ctx, async (tx) => {
      await this.pixCheckout.lockOrder(tx, candidate.order.id);
      const payment = await this.connection.getRepository(tx, Payment).findOne({
        where: { id: candidate.id },
        relations: ["order", "order.customer", "order.payments", "order.payments.refunds"],
      });
      if (!payment) return null;
      const { skipped, then } = decideReminders(
        reminderFactsOf(payment, payment.order, now, options, bankCalendarOf(this.options)),
      );
      const records: HandledReminder[] = skipped.map(({ step, reason }) => ({
        step,
        at: now.toISOString(),
        outcome: reason,
      }));
      if (then.kind === "send")
        records.push({ step: then.step, at: now.toISOString(), outcome: "sent" });
      if (records.length > 0) {
        await this.connection.getRepository(tx, Payment).update(payment.id, {
          metadata: {
            ...payment.metadata,
            reminders: [...handledOf(payment), ...records],
          } as never,
        });
      }
      for (const { step, reason } of skipped) {
        Logger.verbose(`reminder ${step} of payment ${payment.id} not sent: ${reason}`, LOG);
      }
      return { payment, skipped: skipped.length, then };
    });
    if (!decided) return { skipped: 0, then: { kind: "none" } };
    const { payment, then } = decided;
    if (then.kind === "send") await this.publish(ctx, payment, then.step);
    return { skipped: decided.skipped, then };
  }

  private async publish(ctx: RequestContext, payment: Payment, step: ReminderStep): Promise<void> {
    const published = publicOf(payment);
    const order: Order = payment.order;
    await this.eventBus.publish(
      new PixCheckoutReminderEvent(
        ctx,
        order,
        payment,
        step,
        String(published.sessionId),
        // The decision sends only to an order with one.
        order.customer!.emailAddress,
        typeof published.amountCents === "number" ? published.amountCents : payment.amount,
        String(published.expiresAt),
        published.method === "boleto"
          ? realDueDay(
              { dueDay: null, expiresAt: expiresAtOf(payment) },
              bankCalendarOf(this.options),
            )
          : null,
      ),
    );
    Logger.info(`reminder ${step} published for payment ${payment.id} of order ${order.code}`, LOG);
  }
}

/**
 * The reminders every five minutes (`PixCheckoutReminders.sendReminders`). Vendure runs it only
 * with a scheduler plugin (its `DefaultSchedulerPlugin`, which also keeps two instances from
 * running it at once); the order's lock keeps two passes from deciding one step twice anyway.
 */
export const remindersTask = new ScheduledTask({
  id: "pix-checkout-reminders",
  description:
    "Pix Checkout: reminds shoppers of unpaid Pix codes and boletos (an event per reminder)",
  schedule: (cron) => cron.every(5).minutes(),
  preventOverlap: true,
  execute: ({ injector }) => injector.get(PixCheckoutReminders).sendReminders(),
});

type PublicMetadata = {
  method?: unknown;
  sessionId?: unknown;
  expiresAt?: unknown;
  amountCents?: unknown;
};

const publicOf = (payment: Payment): PublicMetadata =>
  ((payment.metadata as { public?: PublicMetadata } | null)?.public ?? {}) as PublicMetadata;

function expiresAtOf(payment: Payment): Date | null {
  const { expiresAt } = publicOf(payment);
  return typeof expiresAt === "string" ? new Date(expiresAt) : null;
}

/** The steps recorded on the payment (`metadata.reminders`). */
function handledOf(payment: Payment): HandledReminder[] {
  const recorded = (payment.metadata as { reminders?: unknown } | null)?.reminders;
  return Array.isArray(recorded) ? (recorded as HandledReminder[]) : [];
}

/** What the decision reads of a payment of ours and its order (with its customer and payments). */
export function reminderFactsOf(
  payment: Payment,
  order: Order,
  now: Date,
  options: ReminderFacts["options"],
  calendar: BankCalendar,
): ReminderFacts {
  const metadata = (payment.metadata ?? {}) as { replacedAt?: unknown; expiredAt?: unknown };
  const method = publicOf(payment).method === "boleto" ? "boleto" : "pix";
  const code: ReminderFacts["code"] = AWAITING_PAYMENT.has(payment.state)
    ? "waiting"
    : payment.state === "Settled"
      ? "paid"
      : payment.state === "Cancelled" &&
          typeof metadata.expiredAt === "string" &&
          typeof metadata.replacedAt !== "string"
        ? "expired"
        : "gone";
  // An expired Pix's "take a new code" is moot once the order took one.
  const newerCode = (order.payments ?? []).some(
    (other) =>
      String(other.id) !== String(payment.id) &&
      other.createdAt > payment.createdAt &&
      other.state !== "Declined" &&
      other.state !== "Error",
  );
  const settled = (order.payments ?? [])
    .filter((other) => other.state === "Settled")
    .reduce((sum, other) => sum + paysOfOrder(other), 0);
  const orderState: ReminderFacts["order"] =
    order.state === "Cancelled"
      ? "canceled"
      : PAID_ORDER.has(order.state) || (order.totalWithTax > 0 && settled >= order.totalWithTax)
        ? "paid"
        : order.state === "ArrangingPayment"
          ? "arranging"
          : order.state === "PaymentAuthorized" || order.state === "ArrangingAdditionalPayment"
            ? "waiting"
            : "moved";
  return {
    now,
    charge: {
      method,
      createdAt: payment.createdAt,
      expiresAt: expiresAtOf(payment),
      dueDay: null,
      // The order of an unpaid boleto is cancelled with its grace: no "overdue" step here.
      graceEndsAt: null,
    },
    handled: new Set(handledOf(payment).map((record) => record.step)),
    code,
    replaced: typeof metadata.replacedAt === "string" || (code === "expired" && newerCode),
    order: orderState,
    hasEmail: Boolean(order.customer?.emailAddress),
    options,
    calendar,
  };
}
