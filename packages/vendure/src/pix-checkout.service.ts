import { Inject, Injectable } from "@nestjs/common";
import {
  ActiveOrderService,
  Logger,
  Order,
  OrderService,
  Payment,
  PaymentService,
  Refund,
  RequestContextService,
  TransactionalConnection,
  type RequestContext,
} from "@vendure/core";
import { PixClient, parseWebhook, redact, type Charge } from "@pix-checkout/client";
import type { BankCalendar } from "@pix-checkout/client/bank-days";
import { graceRecheckAt, nextCheckAt } from "@pix-checkout/client/check-schedule";
import { AWAITING_PAYMENT, AWAITING_PIX } from "./awaiting-pix";
import type { BoletoPayer } from "./boleto-payer";
import { boletoOrderHeldUntil } from "./boleto-grace";
import { channelPayments } from "./channel-payments";
import {
  DEFAULT_BOLETO_GRACE_BUSINESS_DAYS,
  PIX_CHECKOUT_OPTIONS,
  bankCalendarOf,
  type PixCheckoutVendureOptions,
} from "./options";
import {
  dueOf,
  endedByUs,
  heldOf,
  isOurs,
  isReplaced,
  methodOf,
  settledBesides,
  REPLACED_GRACE_MS,
  stillPayable,
} from "./payment-facts";
import {
  owedWords,
  settlementVerdict,
  type OwedPart,
  type SettlementVerdict,
} from "./settlement-verdict";
import { sessionIdOf } from "./session-id";
import { SessionNews } from "./session-news";

const LOG = "PixCheckoutPlugin";

/** What a webhook delivery came to, as its answer says (never more: no payer data, no key). */
export type DeliveryOutcome =
  "settled" | "canceled" | "duplicate" | "not_paid" | "unknown_charge" | "held";

/**
 * What a shopper's request to replace her order's waiting Pix came to (`pixCheckoutReplaceCode`):
 * `replaced`, the code is cancelled and the order takes another (of either method); `already_paid`,
 * the code was paid first and now pays the order, so nothing is replaced; `nothing_waiting`, no
 * Pix of ours waits on her active order.
 */
export type ReplaceOutcome = "replaced" | "already_paid" | "nothing_waiting";

/** What one reconciliation pass did. */
export interface ReconcileReport {
  checked: number;
  settled: number;
  canceled: number;
  held: number;
  /** Boleto orders cancelled this pass: unpaid past their due date and grace. */
  overdueOrders: number;
  /** Codes the service could not be asked about this pass (asked again at the next). */
  unreachable: number;
}

/** Codes a pass asks about, the longest due first; the rest wait for the next pass. */
const RECONCILE_BATCH = 100;

/**
 * How long an older code waits between two checks (`@pix-checkout/client/check-schedule`, the
 * Medusa plugin's default `reconcileIntervalMinutes`); a boleto's checks decay to 12 hours.
 */
const RECONCILE_INTERVAL_MS = 5 * 60_000;

/** A payment's next check (`scheduleCheck`), '' when it was never asked about: due at once. */
const NEXT_CHECK = "COALESCE(payment.metadata::jsonb ->> 'nextCheckAt', '')";

/** The service's statuses after which a code can no longer be paid. */
const ENDED = new Set(["expired", "canceled", "failed"]);

/**
 * The plugin's one door into the money: a code made for an order, and a code heard of
 * (webhook, reconciliation) settled once when the service says it is paid and it pays exactly
 * the order it was made for, or cancelled once the service says it can no longer be paid; the
 * shopper's waiting Pix replaced. Its order lock (`lockOrder`) is the one every other service of
 * the plugin takes before it writes an order's money (merchant-records, med, difference-code).
 */
@Injectable()
export class PixCheckoutService {
  readonly client: PixClient;

  constructor(
    @Inject(PIX_CHECKOUT_OPTIONS) private readonly options: PixCheckoutVendureOptions,
    private readonly connection: TransactionalConnection,
    private readonly orderService: OrderService,
    private readonly paymentService: PaymentService,
    private readonly requestContexts: RequestContextService,
    private readonly activeOrders: ActiveOrderService,
    private readonly news: SessionNews,
  ) {
    this.client = new PixClient({
      apiKey: options.apiKey,
      baseUrl: options.baseUrl,
      variant: options.variant,
    });
  }

  /** Makes the order's Pix code, for `amount` (integer cents, as Vendure's amounts are). */
  createPix(_ctx: RequestContext, order: Order, amount: number): Promise<Charge> {
    return this.client.charges.create({
      method: "pix",
      amountCents: amount,
      // The order's code names the charge at the service, so the merchant finds it there.
      description: `Pedido ${order.code}`,
    });
  }

  /** The store's bank calendar: national holidays and the options' `calendar.extraHolidays`. */
  get calendar(): BankCalendar {
    return bankCalendarOf(this.options);
  }

  /** The id the shopper's page follows `chargeId` by (session-id.ts). */
  sessionIdFor(chargeId: string): string {
    return sessionIdOf(this.options.webhookSecret, chargeId);
  }

  /** Makes the order's boleto, for `amount` (integer cents), to the payer given. */
  createBoleto(order: Order, amount: number, payer: BoletoPayer): Promise<Charge> {
    return this.client.charges.create({
      method: "boleto",
      amountCents: amount,
      description: `Pedido ${order.code}`,
      customer: payer.customer,
      billingAddress: payer.billingAddress,
    });
  }

  /** Whether `payment` may be settled now, asked of the service (see settlement-verdict.ts). */
  async verdictOf(order: Order, payment: Payment): Promise<SettlementVerdict> {
    const charge = await this.client.charges.retrieve(payment.transactionId);
    const settledCents = settledBesides(order, payment);
    return settlementVerdict({
      order: { state: order.state, totalCents: order.totalWithTax, settledCents },
      payment: { state: payment.state, amountCents: payment.amount, replaced: isReplaced(payment) },
      charge: { status: charge.status, amountCents: charge.amountCents },
    });
  }

  /**
   * A webhook delivery: parsed, then asked of the service (a delivery is a hint, never proof):
   * a paid code's payment settled once, an ended one's cancelled. Throws `WebhookParseError`
   * for a body that is no event of the spec.
   */
  async hear(body: unknown): Promise<DeliveryOutcome> {
    const verified = await this.client.verifyWebhook(parseWebhook(body));
    if (!("chargeId" in verified)) return "not_paid";
    if (verified.paid) return this.settleCharge(verified.chargeId);
    if (ENDED.has(verified.status)) return this.endCharge(verified.chargeId);
    return "not_paid";
  }

  /**
   * The net under the webhooks (the `pix-checkout-reconcile` task, every minute): each code still
   * waiting whose check is due is asked about, and a paid one is settled, an ended one
   * cancelled, exactly as its webhook would have done. When each is asked again is the schedule
   * both plugins share (`@pix-checkout/client/check-schedule`, `metadata.nextCheckAt`): a young
   * Pix within minutes, an older one every 5 minutes, a boleto in hours, once a day in its grace
   * and at its end. The longest due is asked first, so a store's hundreds of open boletos never
   * keep a new Pix whose webhook was lost waiting.
   */
  async reconcile(now: Date = new Date()): Promise<ReconcileReport> {
    const report: ReconcileReport = {
      checked: 0,
      settled: 0,
      canceled: 0,
      held: 0,
      overdueOrders: 0,
      unreachable: 0,
    };
    const waiting = (
      await this.connection.rawConnection
        .getRepository(Payment)
        .createQueryBuilder("payment")
        // Codes still to be paid, and, for five days (`stillPayable`), replaced ones the bank
        // may still pay after their expiry and overdue boletos a bank may still confirm (their
        // money is held for the merchant, never lost with a webhook). Vendure keeps metadata
        // as JSON text: read as jsonb, as `isOurs`, `endedByUs` and `stillPayable` read it.
        .where(
          `(payment.state IN (:...states) OR (payment.state = 'Cancelled'
            AND (payment.metadata::jsonb -> 'held') IS NULL
            AND ((payment.metadata::jsonb -> 'replacedAt') IS NOT NULL
                 AND COALESCE((payment.metadata::jsonb -> 'public' ->> 'expiresAt')::timestamptz, 'infinity') > :since
              OR (payment.metadata::jsonb ->> 'overdueAt')::timestamptz > :since)))`,
          {
            states: [...AWAITING_PAYMENT],
            since: new Date(now.getTime() - REPLACED_GRACE_MS).toISOString(),
          },
        )
        // Ours only (another handler's authorized payments are not asked about).
        .andWhere("(payment.metadata::jsonb -> 'public' ->> 'sessionId') IS NOT NULL")
        // Due: never asked yet, or its next check has come (ISO times compare as text).
        .andWhere(`${NEXT_CHECK} <= :due`, { due: now.toISOString() })
        .orderBy(NEXT_CHECK, "ASC")
        .addOrderBy("payment.createdAt", "ASC")
        .take(RECONCILE_BATCH)
        .getMany()
    ).filter((payment) => isOurs(payment) && (!endedByUs(payment) || stillPayable(payment, now)));
    for (const payment of waiting) {
      report.checked += 1;
      let outcome: DeliveryOutcome;
      try {
        const status = await this.client.charges.status(payment.transactionId);
        outcome = status.paid
          ? await this.settleCharge(payment.transactionId)
          : !endedByUs(payment) && (ENDED.has(status.status) || this.pastGrace(payment, now))
            ? await this.endCharge(payment.transactionId, now)
            : "not_paid";
        if (outcome === "not_paid" || outcome === "canceled") {
          await this.scheduleCheck(payment, now);
        }
      } catch (error) {
        report.unreachable += 1;
        // Asked again on the schedule, not every minute while the service is down.
        await this.scheduleCheck(payment, now).catch(() => undefined);
        Logger.warn(
          `reconciliation could not decide charge ${payment.transactionId}: ${redact(String((error as Error)?.message ?? error))}`,
          LOG,
        );
        continue;
      }
      if (outcome === "settled") report.settled += 1;
      if (outcome === "canceled") report.canceled += 1;
      if (outcome === "canceled" && methodOf(payment) === "boleto") report.overdueOrders += 1;
      if (outcome === "held") report.held += 1;
    }
    return report;
  }

  /** Settles the payment of `chargeId` once, when it pays exactly the order that waits for it. */
  settleCharge(chargeId: string): Promise<DeliveryOutcome> {
    return this.underLock(chargeId, (tx, payment) => this.decidePaid(tx, payment));
  }

  /**
   * What a code the service may say is paid becomes, under its order's lock: settled, held, or
   * nothing. Decided once: a settled or held payment is not decided again. A cancelled one (its
   * code replaced, or ended) is still asked about: paid at the bank anyway, its money is held
   * and listed, never lost.
   */
  private async decidePaid(tx: RequestContext, payment: Payment): Promise<DeliveryOutcome> {
    if (payment.state === "Settled" || heldOf(payment)) return "duplicate";
    if (!AWAITING_PAYMENT.has(payment.state) && payment.state !== "Cancelled") return "duplicate";
    const order = await this.orderService.findOne(tx, payment.order.id, [
      "payments",
      "payments.refunds",
    ]);
    if (!order) return "unknown_charge";
    const verdict = await this.verdictOf(order, payment);
    if (verdict.kind === "not_paid") return "not_paid";
    if (verdict.kind === "hold") {
      await this.hold(tx, payment, verdict);
      // A cancelled payment's money held moves no state, so no Vendure event says it.
      if (payment.state === "Cancelled") await this.news.announceIn(tx, order.id);
      Logger.warn(`payment ${payment.id} of order ${order.code} held: ${verdict.why}`, LOG);
      return "held";
    }
    const askedCents = payment.amount;
    const payments = this.connection.getRepository(tx, Payment);
    // Vendure's payment is what the bank paid: more than the code asked is Vendure's money too,
    // until its refund below says it is owed back.
    if (verdict.receivedCents !== askedCents) {
      await payments.update(payment.id, { amount: verdict.receivedCents });
      payment.amount = verdict.receivedCents;
    }
    const settled = await this.orderService.settlePayment(tx, payment.id);
    if ("errorCode" in settled) {
      throw new Error(`settling payment ${payment.id} failed: ${redact(settled.message)}`);
    }
    // When, for the books (the payment's row changes again later: a refund, a note), and what
    // the code asked, when the bank paid another amount.
    await payments.update(payment.id, {
      metadata: {
        ...settled.metadata,
        settledAt: new Date().toISOString(),
        ...(verdict.receivedCents !== askedCents ? { askedCents } : {}),
      } as never,
    });
    Logger.info(
      `settled payment ${payment.id} of order ${order.code} (charge ${payment.transactionId})`,
      LOG,
    );
    await this.closeAdditionalPayment(tx, order, payment);
    for (const part of verdict.owed) await this.oweBack(tx, payment, part, askedCents);
    return "settled";
  }

  /**
   * A part of a settled payment owed back (`overpaid`, `amount_lowered`): a refund on Vendure's
   * order, `Pending` (the handlers have no createRefund: the service has no refund API), listed
   * for the merchant until she records the devolução; its reason kept for the shopper's page.
   */
  private async oweBack(
    tx: RequestContext,
    payment: Payment,
    part: OwedPart,
    askedCents: number,
  ): Promise<void> {
    const refund = await this.orderService.refundOrder(tx, {
      paymentId: payment.id,
      amount: part.cents,
      reason: owedWords(part, askedCents),
      // Deprecated in favour of `amount`, but their columns are still NOT NULL in 3.7.
      shipping: 0,
      adjustment: 0,
    });
    if (!(refund instanceof Refund)) {
      throw new Error(
        `owing ${part.cents} cents of payment ${payment.id} back failed: ${redact((refund as { message?: string }).message ?? String(refund))}`,
      );
    }
    await this.connection.getRepository(tx, Refund).update(refund.id, {
      metadata: { ...refund.metadata, owedReason: part.reason } as never,
    });
    Logger.warn(
      `payment ${payment.id} owes ${part.cents} cents back (${part.reason}): refund ${refund.id} pending`,
      LOG,
    );
  }

  /**
   * Vendure leaves an order in `ArrangingAdditionalPayment` for the admin to move on by hand,
   * even once its payments cover it; the difference code paid is what the merchant waited for,
   * so the order is moved to `PaymentSettled` when its settled payments now cover its total.
   */
  private async closeAdditionalPayment(
    tx: RequestContext,
    order: Order,
    settled: Payment,
  ): Promise<void> {
    if (order.state !== "ArrangingAdditionalPayment") return;
    if (settledBesides(order, settled) + settled.amount < order.totalWithTax) return;
    const moved = await this.orderService.transitionToState(tx, order.id, "PaymentSettled");
    // The payment stays settled either way (Vendure's own guard may count refunds we do not):
    // the order is then the admin's to move on, as Vendure leaves it.
    if ("errorCode" in moved) {
      Logger.warn(
        `order ${order.code} stays ArrangingAdditionalPayment: ${redact(moved.message)}`,
        LOG,
      );
    }
  }

  /**
   * The shopper's "another way to pay" on her active order: its Pix still waiting is asked of
   * the service under the order's lock; paid, it pays the order (nothing is replaced); else its
   * payment is cancelled and marked replaced, so the order takes a new code of either method,
   * and the old code, if the bank pays it after all, is held and listed (`paid_replaced`).
   * Throws when the service cannot be asked: nothing is replaced then.
   */
  async replaceCode(ctx: RequestContext): Promise<ReplaceOutcome> {
    const active = await this.activeOrders.getActiveOrder(ctx, undefined);
    if (!active) return "nothing_waiting";
    return this.connection.withTransaction(ctx, async (tx) => {
      await this.lockOrder(tx, active.id);
      const payments = this.connection.getRepository(tx, Payment);
      const waiting = (
        await payments.find({ where: { order: { id: active.id } }, relations: ["order"] })
      ).filter((p) => p.state === AWAITING_PIX && isOurs(p));
      if (waiting.length === 0) return "nothing_waiting";
      let paid = false;
      for (const payment of waiting) {
        const status = await this.client.charges.status(payment.transactionId);
        if (status.paid) {
          paid = true;
          await this.decidePaid(tx, payment);
          continue;
        }
        const canceled = await this.orderService.cancelPayment(tx, payment.id);
        if ("errorCode" in canceled) {
          throw new Error(`replacing payment ${payment.id} failed: ${redact(canceled.message)}`);
        }
        await payments.update(payment.id, {
          metadata: { ...canceled.metadata, replacedAt: new Date().toISOString() } as never,
        });
        Logger.info(`replaced payment ${payment.id} (charge ${payment.transactionId})`, LOG);
      }
      return paid ? "already_paid" : "replaced";
    });
  }

  /**
   * The paid code's money, settled nowhere: its payment is `Declined` for the order (so it
   * covers nothing of its total), with why, listed for the merchant; no door decides it again.
   */
  private async hold(
    tx: RequestContext,
    payment: Payment,
    { why, reason, receivedCents }: Extract<SettlementVerdict, { kind: "hold" }>,
  ): Promise<void> {
    // A code still awaiting is declined for the order; a cancelled one (replaced) stays so.
    const moved =
      payment.state === "Cancelled"
        ? payment
        : await this.paymentService.transitionToState(tx, payment.id, "Declined");
    if ("errorCode" in moved) {
      throw new Error(`holding payment ${payment.id} failed: ${redact(moved.message)}`);
    }
    await this.connection.getRepository(tx, Payment).update(payment.id, {
      errorMessage: `${methodOf(payment) === "boleto" ? "Boleto pago" : "Pix pago"} retido: ${why}`,
      // TypeORM's partial type cannot follow a JSON column's free shape.
      metadata: {
        ...moved.metadata,
        held: { why, reason, receivedCents, at: new Date().toISOString() },
      } as never,
    });
  }

  /**
   * A code the service says can no longer be paid (expired, canceled, failed): its payment is
   * cancelled, so the order, still in `ArrangingPayment`, takes a new code. Asked of the service
   * again under the lock: a code paid at its last second is settled by its own door instead.
   */
  endCharge(chargeId: string, now: Date = new Date()): Promise<DeliveryOutcome> {
    return this.underLock(chargeId, async (tx, payment) => {
      if (!AWAITING_PAYMENT.has(payment.state)) return "duplicate";
      const status = await this.client.charges.status(chargeId);
      if (status.paid) return "not_paid";
      // A boleto's order is placed: it waits out the grace after its due date, whatever the
      // service says meanwhile, then is cancelled with its payment.
      if (methodOf(payment) === "boleto") {
        if (!this.pastGrace(payment, now)) return "not_paid";
        const canceled = await this.cancelPaymentOf(
          tx,
          payment,
          `its boleto is unpaid past its grace (${status.status})`,
        );
        // Reconciliation keeps asking about it for a while (`stillPayable`): a bank's late
        // confirmation is money to hold and return, never lost with its webhook.
        await this.connection.getRepository(tx, Payment).update(payment.id, {
          metadata: { ...canceled.metadata, overdueAt: now.toISOString() } as never,
        });
        await this.cancelOverdueOrder(tx, payment);
        return "canceled";
      }
      if (!ENDED.has(status.status)) return "not_paid";
      const canceled = await this.cancelPaymentOf(tx, payment, `its code is ${status.status}`);
      // The service said it expired: the reminders' "take a new code" step reads it.
      if (status.status === "expired") {
        await this.connection.getRepository(tx, Payment).update(payment.id, {
          metadata: { ...canceled.metadata, expiredAt: now.toISOString() } as never,
        });
      }
      return "canceled";
    });
  }

  /**
   * When reconciliation asks about `payment` again (`@pix-checkout/client/check-schedule`): a
   * boleto past its payable day, inside its grace, once a day and at the grace's end; any other
   * code on its age and expiry. Written alone into its metadata in one statement (a JSON merge),
   * so it never overwrites what another door wrote meanwhile, and leaves the row's `updatedAt`.
   */
  private async scheduleCheck(payment: Payment, now: Date): Promise<void> {
    const due = dueOf(payment);
    const method = methodOf(payment);
    const grace = this.options.boletoGraceBusinessDays ?? DEFAULT_BOLETO_GRACE_BUSINESS_DAYS;
    const heldUntil =
      method === "boleto" && due ? boletoOrderHeldUntil(due, grace, this.calendar) : null;
    const inGrace =
      heldUntil !== null &&
      !endedByUs(payment) &&
      Date.parse(due!) < now.getTime() &&
      now < heldUntil;
    const next = inGrace
      ? graceRecheckAt(now, heldUntil)
      : nextCheckAt({
          createdAt: payment.createdAt,
          expiresAt: due ? new Date(due) : null,
          now,
          intervalMs: RECONCILE_INTERVAL_MS,
          method,
        });
    const table = this.connection.rawConnection.getMetadata(Payment).tablePath;
    await this.connection.rawConnection.query(
      `UPDATE ${table} SET "metadata" = ("metadata"::jsonb || jsonb_build_object('nextCheckAt', $1::text))::text WHERE "id" = $2`,
      [next.toISOString(), payment.id],
    );
  }

  /** A boleto of ours whose due date and grace (`boletoGraceBusinessDays`) are behind `now`. */
  private pastGrace(payment: Payment, now: Date): boolean {
    const due = dueOf(payment);
    if (methodOf(payment) !== "boleto" || due === null) return false;
    const grace = this.options.boletoGraceBusinessDays ?? DEFAULT_BOLETO_GRACE_BUSINESS_DAYS;
    return now.getTime() > boletoOrderHeldUntil(due, grace, this.calendar).getTime();
  }

  private async cancelPaymentOf(
    tx: RequestContext,
    payment: Payment,
    why: string,
  ): Promise<Payment> {
    const canceled = await this.orderService.cancelPayment(tx, payment.id);
    if ("errorCode" in canceled) {
      throw new Error(`canceling payment ${payment.id} failed: ${redact(canceled.message)}`);
    }
    Logger.info(`canceled payment ${payment.id}: ${why} (charge ${payment.transactionId})`, LOG);
    return canceled;
  }

  /**
   * The order of an unpaid boleto, cancelled with its shipping once nothing else paid it: its
   * lines' stock goes back (Vendure's cancellation). An order another payment settled, or that
   * moved on, is left as it is.
   */
  private async cancelOverdueOrder(tx: RequestContext, payment: Payment): Promise<void> {
    const order = await this.orderService.findOne(tx, payment.order.id, [
      "payments",
      "payments.refunds",
    ]);
    if (!order || order.state !== "PaymentAuthorized" || settledBesides(order, payment) > 0) return;
    const canceled = await this.orderService.cancelOrder(tx, {
      orderId: order.id,
      cancelShipping: true,
      reason: "Boleto não pago até o fim do prazo de compensação",
    });
    if ("errorCode" in canceled) {
      throw new Error(`canceling order ${order.code} failed: ${redact(canceled.message)}`);
    }
    Logger.info(`canceled order ${order.code}: its boleto is unpaid past its grace`, LOG);
  }

  /**
   * Runs `work` on the payment of `chargeId` in the channel its code was made in, inside one
   * transaction holding its order's lock (`lockOrder`).
   */
  private async underLock(
    chargeId: string,
    work: (tx: RequestContext, payment: Payment) => Promise<DeliveryOutcome>,
  ): Promise<DeliveryOutcome> {
    const found = await this.connection.rawConnection.getRepository(Payment).findOne({
      where: { transactionId: chargeId },
      relations: ["order"],
    });
    const channelToken = (found?.metadata as { channelToken?: unknown } | undefined)?.channelToken;
    if (!found?.order || typeof channelToken !== "string") return "unknown_charge";
    const ctx = await this.requestContexts.create({
      apiType: "admin",
      channelOrToken: channelToken,
    });
    return this.connection.withTransaction(ctx, async (tx) => {
      await this.lockOrder(tx, found.order.id);
      const payment = await this.connection
        .getRepository(tx, Payment)
        .findOne({ where: { id: found.id }, relations: ["order"] });
      if (!payment) return "unknown_charge";
      return work(tx, payment);
    });
  }

  /**
   * Runs `work` in one transaction of the admin's `ctx` on the payment `paymentId`: ours and of
   * the active channel, its order's lock held, and read again under it with `relations` (another
   * admin may have recorded something a moment before). `work` is given null for a payment of
   * another channel or handler, and refuses in its own words.
   */
  inChannelUnderLock<T>(
    ctx: RequestContext,
    paymentId: string | number,
    relations: string[],
    work: (tx: RequestContext, payment: Payment | null) => Promise<T>,
  ): Promise<T> {
    return this.connection.withTransaction(ctx, async (tx) => {
      const found = await channelPayments(this.connection, tx)
        .where("payment.id = :paymentId", { paymentId })
        .getOne();
      if (!found || !isOurs(found)) return work(tx, null);
      await this.lockOrder(tx, found.order.id);
      const payment = await this.connection
        .getRepository(tx, Payment)
        .findOneOrFail({ where: { id: found.id }, relations });
      return work(tx, payment);
    });
  }

  /**
   * The order's lock, held to the end of the transaction `tx`: every door into an order's money
   * (its codes' webhooks, reconciliation, the shopper's replacing a code, on any instance) decides
   * one at a time, so two codes of one order never both count as what it still owes. The
   * merchant's records (a held code's return, a MED, a difference code) take it too, and the
   * reminders (reminders.ts), so a step is decided once.
   */
  async lockOrder(tx: RequestContext, orderId: Order["id"]): Promise<void> {
    await this.connection
      .getRepository(tx, Payment)
      .query("SELECT pg_advisory_xact_lock(hashtext($1))", [`pix-checkout:order:${orderId}`]);
  }
}
