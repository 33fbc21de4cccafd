import { dueWords, type BankCalendar } from "@pix-checkout/client/bank-days";
import { brl, saoPauloDateTime } from "@pix-checkout/client/books";
import {
  nextReminder,
  quietEndsAt,
  reminderPlan,
  stepValidUntil,
  type CadenceCharge,
  type ReminderCadenceOptions,
  type ReminderStep,
} from "@pix-checkout/client/reminders";

/**
 * Why a due reminder was not sent, as recorded on the payment (`metadata.reminders`):
 * - `paid`: the code, or the order by any payment, is paid;
 * - `replaced`: the shopper let the code go, or (an expired Pix) took a newer code;
 * - `order_canceled`: the order was cancelled;
 * - `code_gone`: the code can no longer be paid (cancelled, declined), or it expired before
 *   the step that would recall it;
 * - `too_late`: the step's moment passed (the task did not run, or quiet hours outlasted it);
 * - `no_mailbox`: the order has no customer e-mail.
 */
export type ReminderSkipReason =
  "paid" | "replaced" | "order_canceled" | "code_gone" | "too_late" | "no_mailbox";

/** One step handled, as `metadata.reminders` keeps it. */
export interface HandledReminder {
  step: ReminderStep;
  /** When it was decided (ISO). */
  at: string;
  outcome: "sent" | ReminderSkipReason;
}

/** What the decision reads of a code and its order, from Vendure's records. */
export interface ReminderFacts {
  now: Date;
  /** The code's dates, as the cadence reads them (a Vendure boleto has no overdue step). */
  charge: CadenceCharge;
  /** Steps already sent or skipped (`metadata.reminders`). */
  handled: ReadonlySet<ReminderStep>;
  /**
   * The code's own state: `waiting` (a Pix `AwaitingPix`, a boleto `Authorized`), `expired` (a
   * Pix the service said expired, its payment cancelled by the plugin), `paid` (`Settled`) or
   * `gone` (anything else: declined, cancelled otherwise).
   */
  code: "waiting" | "expired" | "paid" | "gone";
  /** The shopper let this code go, or (an expired Pix) the order took a newer code since. */
  replaced: boolean;
  /**
   * The order: `arranging` (`ArrangingPayment`: it takes a new code), `waiting` (another state
   * that waits for this code: a boleto's `PaymentAuthorized`, a difference code's
   * `ArrangingAdditionalPayment`), `paid`, `canceled`, or `moved` (anything else: the shopper
   * went back to her cart; nothing is decided until it waits again).
   */
  order: "arranging" | "waiting" | "paid" | "canceled" | "moved";
  /** The order has a customer e-mail to write to. */
  hasEmail: boolean;
  options: ReminderCadenceOptions;
  /** The store's bank calendar (options.ts `bankCalendarOf`): a boleto's steps fall on its days. */
  calendar: BankCalendar;
}

/** What to do about a code's reminders now. */
export type ReminderDecision =
  /** Nothing is due: no step yet, the cadence is over, or the code's state is not settled. */
  | { kind: "none" }
  /** A step is due in quiet hours: nothing recorded, asked again after `until`. */
  | { kind: "defer"; step: ReminderStep; until: Date }
  | { kind: "send"; step: ReminderStep }
  | { kind: "skip"; step: ReminderStep; reason: ReminderSkipReason };

/**
 * Whether the code's next step goes now. The money is read first: a paid code or order gets
 * nothing, whatever else holds. A skip is recorded as handled and the next step decided in the
 * same pass (`decideReminders`); a send or a deferral ends the pass for the code.
 */
export function reminderDecision(facts: ReminderFacts): ReminderDecision {
  const due = nextReminder(
    reminderPlan(facts.charge, facts.options, facts.calendar),
    facts.handled,
  );
  if (!due || due.at > facts.now) return { kind: "none" };
  const { step } = due;
  const skip = (reason: ReminderSkipReason): ReminderDecision => ({ kind: "skip", step, reason });
  if (facts.code === "paid" || facts.order === "paid") return skip("paid");
  if (facts.replaced) return skip("replaced");
  if (facts.order === "canceled") return skip("order_canceled");
  if (step === "pix_expired") {
    // Until the service says it expired (reconciliation asks every minute), nothing is said.
    if (facts.code === "waiting") return { kind: "none" };
    if (facts.code !== "expired") return skip("code_gone");
    // "Take a new code" only to an order that takes one.
    if (facts.order !== "arranging") return { kind: "none" };
  } else {
    if (facts.code !== "waiting") return skip("code_gone");
    if (facts.order === "moved") return { kind: "none" };
  }
  const validUntil = stepValidUntil(step, facts.charge);
  if (validUntil && facts.now >= validUntil) return skip("too_late");
  if (!facts.hasEmail) return skip("no_mailbox");
  const quietEnd = quietEndsAt(facts.now, facts.options);
  if (quietEnd) {
    return validUntil && quietEnd >= validUntil
      ? skip("too_late")
      : { kind: "defer", step, until: quietEnd };
  }
  return { kind: "send", step };
}

/**
 * The code's decisions now, in order: the skips to record, then at most one send or deferral
 * (or nothing). Each skipped step counts as handled for the next.
 */
export function decideReminders(facts: ReminderFacts): {
  skipped: { step: ReminderStep; reason: ReminderSkipReason }[];
  then: Exclude<ReminderDecision, { kind: "skip" }>;
} {
  const handled = new Set(facts.handled);
  const skipped: { step: ReminderStep; reason: ReminderSkipReason }[] = [];
  for (;;) {
    const decision = reminderDecision({ ...facts, handled });
    if (decision.kind !== "skip") return { skipped, then: decision };
    skipped.push({ step: decision.step, reason: decision.reason });
    handled.add(decision.step);
  }
}

/** What a reminder's words read: the code's amount, expiry or due day, and the order. */
export interface ReminderWordsFacts {
  orderCode: string;
  amountCents: number;
  /** The code's expiry (a Pix's), as an instant. */
  expiresAt: Date | string | null;
  /** A boleto's real due day (`YYYY-MM-DD`, on a bank business day). */
  dueDay: string | null;
  /** When the message goes (São Paulo's today, for "hoje" and "amanhã"). */
  now: Date;
}

/**
 * The subject and one-line body of a step's e-mail, in Portuguese, so the merchant's mailer says
 * what the plugin decided: the amount in reais (`brl`), a Pix's time in São Paulo, a boleto's
 * due day in words (`dueWords`: "amanhã, terça-feira, 01/12").
 */
export function reminderWords(
  step: ReminderStep,
  facts: ReminderWordsFacts,
): { subject: string; body: string } {
  const amount = brl(facts.amountCents);
  const order = `do pedido ${facts.orderCode}`;
  switch (step) {
    case "pix_expiring": {
      const time = facts.expiresAt ? timeOf(new Date(facts.expiresAt)) : null;
      return {
        subject: `Seu Pix de ${amount} vence ${time ? `às ${time}` : "em breve"}`,
        body: `O código Pix ${order} vale até ${time ? `as ${time}` : "daqui a pouco"}: pague antes que ele expire.`,
      };
    }
    case "pix_expired":
      return {
        subject: "Seu código Pix expirou: gere um novo",
        body: `O código Pix de ${amount} ${order} expirou sem pagamento. Volte ao pedido para gerar um novo código.`,
      };
    case "boleto_due_tomorrow":
    case "boleto_due_today": {
      const when = facts.dueDay ? dueWords(facts.dueDay, facts.now) : "em breve";
      return {
        subject: `Seu boleto de ${amount} vence ${when.split(",")[0]}`,
        body: `O boleto ${order} vence ${when}: pague pelo app do seu banco com a linha digitável.`,
      };
    }
    case "boleto_overdue":
      return {
        subject: `Seu boleto de ${amount} venceu`,
        body: `O boleto ${order} venceu sem pagamento. Para comprar, faça um novo pedido.`,
      };
  }
}

/** `hh:mm` in São Paulo. */
const timeOf = (at: Date) => saoPauloDateTime(at).slice(-5);
