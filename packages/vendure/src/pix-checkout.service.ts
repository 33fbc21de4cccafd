import { Inject, Injectable } from "@nestjs/common";
import {
  ActiveOrderService,
  Logger,
  Order,
  OrderService,
  Payment,
  PaymentMethodService,
  PaymentService,
  Refund,
  RequestContextService,
  TransactionalConnection,
  type RequestContext,
} from "@vendure/core";
import { PixClient, parseWebhook, redact, type Charge } from "@pix-checkout/client";
import { AWAITING_PAYMENT, AWAITING_PIX } from "./awaiting-pix";
import { PIX_HANDLER_CODE } from "./handler-codes";
import { brl } from "@pix-checkout/client/books";
import { devolucaoOf, devolucaoWords, type DevolucaoDeadline } from "./devolucao";
import type { BoletoPayer } from "./boleto-payer";
import { boletoOrderHeldUntil } from "./boleto-grace";
import {
  DEFAULT_BOLETO_GRACE_BUSINESS_DAYS,
  PIX_CHECKOUT_OPTIONS,
  type PixCheckoutVendureOptions,
} from "./options";
import { settlementVerdict, type HoldReason, type SettlementVerdict } from "./settlement-verdict";
import type { BookMovement } from "./books";
import {
  decideMedOutcome,
  decideMedRecord,
  medCaseOf,
  MedRefused,
  medViewOf,
  openMedOf,
  pendingShares,
  type MedCase,
  type MedPaymentFacts,
  type MedView,
} from "./med-case";
import { orderCodeStory, type OrderCodeFacts, type OrderCodeStory } from "./order-codes";
import { sessionIdOf } from "./session-id";
import { SessionNews } from "./session-news";
import { shopperSession, type ShopperSession } from "./shopper-session";

const LOG = "PixCheckoutPlugin";

/** What a webhook delivery came to, as its answer says (never more: no payer data, no key). */
export type DeliveryOutcome =
  "settled" | "canceled" | "duplicate" | "not_paid" | "unknown_charge" | "held";

/** A paid code that settled nothing, as the merchant's list shows it. */
export interface HeldPayment {
  paymentId: string | number;
  orderId: string | number;
  orderCode: string;
  /**
   * Integer cents to give back: what the bank paid, less parts already returned (by a MED) and
   * owed money an open MED blocked (the case's until it decides).
   */
  amount: number;
  chargeId: string;
  /** In Portuguese, as the merchant reads it. */
  why: string;
  heldAt: string;
  /** The 90-day Pix devolução clock of this money; null for a boleto (it has none). */
  devolucao: DevolucaoDeadline | null;
}

/**
 * What a shopper's request to replace her order's waiting Pix came to (`pixCheckoutReplaceCode`):
 * `replaced`, the code is cancelled and the order takes another (of either method); `already_paid`,
 * the code was paid first and now pays the order, so nothing is replaced; `nothing_waiting`, no
 * Pix of ours waits on her active order.
 */
export type ReplaceOutcome = "replaced" | "already_paid" | "nothing_waiting";

/** Money the merchant owes back for a modification or refund: a `Pending` refund of ours. */
export interface RefundDue {
  refundId: string | number;
  orderCode: string;
  /** Integer cents. */
  amount: number;
  chargeId: string;
  reason: string | null;
  /** What to do, in Portuguese (the refund's own instructions). */
  instructions: string;
  createdAt: string;
  /** The 90-day Pix devolução clock of the payment it returns; null for a boleto. */
  devolucao: DevolucaoDeadline | null;
}

/** A Pix made for what an order modified after payment costs more. */
export interface DifferenceCode {
  orderCode: string;
  /** Integer cents: the order's outstanding amount. */
  amount: number;
  /** What `<pix-checkout session-id>` follows. */
  sessionId: string;
  copyPaste: string | null;
  expiresAt: string | null;
  /** False when a code for it was already waiting: that one is given again. */
  created: boolean;
}

/** Why a difference code cannot be made; `message` is the merchant's, in Portuguese. */
export class DifferenceRefused extends Error {
  constructor(
    readonly code: "order_not_found" | "nothing_owed" | "no_pix_method" | "pix_refused",
    message: string,
  ) {
    super(message);
  }
}

/** One code of ours on an order, and what became of it (order-codes.ts). */
export interface OrderCode extends OrderCodeStory {
  paymentId: string | number;
  method: "pix" | "boleto";
  chargeId: string;
  createdAt: Date;
}

/** Why a held code's return cannot be recorded; `message` is the merchant's, in Portuguese. */
export class HeldReturnRefused extends Error {
  constructor(
    readonly code:
      | "not_found"
      | "not_held"
      | "already_returned"
      | "reference_required"
      // All it still owes is blocked by an open MED: the case decides where it goes.
      | "med_open",
    message: string,
  ) {
    super(message);
  }
}

/** An open MED case and the code it blocks, as the merchant's list of open cases shows it. */
export interface OpenMed {
  paymentId: string | number;
  orderId: string | number;
  orderCode: string;
  chargeId: string;
  med: MedView;
}

export { MedRefused } from "./med-case";

/** A devolução's id as the service's dashboard gives it: the merchant's text, of a sane size. */
const REFERENCE_MAX = 120;

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

/** Codes a pass asks about, oldest first; the rest wait for the next pass. */
const RECONCILE_BATCH = 100;

/** The service's statuses after which a code can no longer be paid. */
const ENDED = new Set(["expired", "canceled", "failed"]);

/**
 * The plugin's one door into the money: a code made for an order, and a code heard of
 * (webhook, reconciliation) settled once when the service says it is paid and it pays exactly
 * the order it was made for, or cancelled once the service says it can no longer be paid.
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
    private readonly paymentMethods: PaymentMethodService,
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

  /** The id the shopper's page follows `chargeId` by (session-id.ts). */
  sessionIdFor(chargeId: string): string {
    return sessionIdOf(this.options.webhookSecret, chargeId);
  }

  /**
   * What the shopper's page is told about the code of `chargeId` (shopper-session.ts), from the
   * store's records alone: a GET asks no one and changes nothing. Undefined for no such code;
   * with it, the order whose news changes it (session-news.ts).
   */
  async sessionOf(
    sessionId: string,
    chargeId: string,
  ): Promise<{ session: ShopperSession; orderId: Order["id"] } | undefined> {
    const payment = await this.connection.rawConnection.getRepository(Payment).findOne({
      where: { transactionId: chargeId },
      relations: ["order"],
    });
    if (!payment?.order) return undefined;
    const metadata = (payment.metadata ?? {}) as {
      public?: {
        method?: unknown;
        copyPaste?: unknown;
        expiresAt?: unknown;
        digitableLine?: unknown;
        barcode?: unknown;
        url?: unknown;
      };
      held?: { reason?: HoldReason; receivedCents?: number; returned?: unknown };
    };
    const held = metadata.held;
    const replacedBy = isReplaced(payment)
      ? await this.currentSessionOf(payment.order.id)
      : undefined;
    const session = shopperSession({
      sessionId,
      now: new Date(),
      payment: {
        state: payment.state,
        amountCents: payment.amount,
        updatedAt: payment.updatedAt,
        method: metadata.public?.method === "boleto" ? "boleto" : "pix",
        copyPaste: stringOrNull(metadata.public?.copyPaste),
        boleto:
          typeof metadata.public?.digitableLine === "string"
            ? {
                digitableLine: metadata.public.digitableLine,
                barcode: stringOrNull(metadata.public.barcode),
                url: stringOrNull(metadata.public.url),
              }
            : null,
        expiresAt: stringOrNull(metadata.public?.expiresAt),
        held:
          held?.reason && typeof held.receivedCents === "number"
            ? { reason: held.reason, receivedCents: held.receivedCents, returned: !!held.returned }
            : null,
        replacedBy,
      },
      order: { state: payment.order.state },
    });
    return { session, orderId: payment.order.id };
  }

  /** The session id of the order's code still waiting to be paid, if it has one. */
  private async currentSessionOf(orderId: Order["id"]): Promise<string | null> {
    const waiting = await this.connection.rawConnection.getRepository(Payment).find({
      where: { order: { id: orderId } },
      order: { createdAt: "DESC" },
    });
    const current = waiting.find((p) => AWAITING_PAYMENT.has(p.state) && isOurs(p));
    return current ? this.sessionIdFor(current.transactionId) : null;
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
   * The net under the webhooks (the `pix-checkout-reconcile` task): every code still awaiting
   * its Pix is asked about, and a paid one is settled, an ended one cancelled, exactly as its
   * webhook would have done.
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
        // Codes still to be paid, and replaced ones the bank may still pay until they expire,
        // and overdue boletos a bank may still confirm (their money is held for the merchant,
        // never lost with a webhook).
        .where(
          "(payment.state IN (:...states) OR (payment.state = 'Cancelled' AND (payment.metadata LIKE :replaced OR payment.metadata LIKE :overdue) AND payment.metadata NOT LIKE :held))",
          {
            states: [...AWAITING_PAYMENT],
            replaced: '%"replacedAt":%',
            overdue: '%"overdueAt":%',
            held: '%"held":%',
          },
        )
        // Ours only (another handler's authorized payments are not asked about): the exact
        // check is `isOurs`; this keeps the others out of the batch.
        .andWhere("payment.metadata LIKE :marker", { marker: '%"sessionId":%' })
        .orderBy("payment.createdAt", "ASC")
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
      } catch (error) {
        report.unreachable += 1;
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
    const order = await this.orderService.findOne(tx, payment.order.id, ["payments"]);
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
    const settled = await this.orderService.settlePayment(tx, payment.id);
    if ("errorCode" in settled) {
      throw new Error(`settling payment ${payment.id} failed: ${redact(settled.message)}`);
    }
    // When, for the books: the payment's row changes again later (a refund, a note).
    await this.connection.getRepository(tx, Payment).update(payment.id, {
      metadata: { ...settled.metadata, settledAt: new Date().toISOString() } as never,
    });
    Logger.info(
      `settled payment ${payment.id} of order ${order.code} (charge ${payment.transactionId})`,
      LOG,
    );
    await this.closeAdditionalPayment(tx, order, payment);
    return "settled";
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

  /** Payments of the active channel's orders, with their order: never another channel's. */
  private channelPayments(ctx: RequestContext) {
    return this.connection
      .getRepository(ctx, Payment)
      .createQueryBuilder("payment")
      .innerJoinAndSelect("payment.order", "order")
      .innerJoin("order.channels", "channel", "channel.id = :channelId", {
        channelId: ctx.channelId,
      });
  }

  /**
   * The active channel's paid codes that settled nothing, newest first: what the merchant must
   * decide (return the money at the service, then cancel the payment).
   */
  async heldPayments(ctx: RequestContext, now: Date = new Date()): Promise<HeldPayment[]> {
    const payments = await this.channelPayments(ctx)
      .where("payment.state IN (:...states)", { states: ["Declined", "Cancelled"] })
      .orderBy("payment.updatedAt", "DESC")
      .getMany();
    // Once its return is recorded, nothing is left for the merchant to do; while an open MED
    // blocks all it owes, nothing is hers to do yet.
    return payments
      .filter((payment) => heldRecordOf(payment)?.returned === null)
      .map((payment) => heldPaymentOf(payment, now))
      .filter((held) => held.amount > 0);
  }

  /**
   * Each code of ours on an order of the active channel, oldest first, and what became of it
   * (order-codes.ts decides). Another channel's order is none of this channel's: `[]`.
   */
  async orderCodes(
    ctx: RequestContext,
    orderId: string | number,
    now: Date = new Date(),
  ): Promise<OrderCode[]> {
    const payments = await this.channelPayments(ctx)
      .leftJoinAndSelect("payment.refunds", "refund")
      .where("order.id = :orderId", { orderId })
      .orderBy("payment.createdAt", "ASC")
      .addOrderBy("payment.id", "ASC")
      .getMany();
    return payments.filter(isOurs).map((payment) => {
      const story = orderCodeStory(
        {
          method: methodOf(payment),
          state: payment.state,
          askedCents: payment.amount,
          settledAt: stringOrNull((payment.metadata as { settledAt?: unknown }).settledAt),
          held: heldRecordOf(payment),
          replaced: isReplaced(payment),
          overdue: typeof (payment.metadata as { overdueAt?: unknown }).overdueAt === "string",
          refunds: (payment.refunds ?? []).map((refund) => ({
            state: refund.state,
            cents: refund.total,
          })),
          med: medOf(payment),
        },
        now,
      );
      return {
        paymentId: payment.id,
        method: methodOf(payment),
        chargeId: payment.transactionId,
        createdAt: payment.createdAt,
        ...story,
      };
    });
  }

  /**
   * The merchant returned a held code's money at the service's dashboard, and records it with
   * the devolução's id (`reference`), under the order's lock: the payment leaves the held list,
   * the books show the return. Recorded once; refused (`HeldReturnRefused`) for a payment of
   * another channel, another handler's, one not held, or one already recorded.
   */
  async recordHeldReturn(
    ctx: RequestContext,
    paymentId: string | number,
    reference: string,
    now: Date = new Date(),
  ): Promise<HeldPayment> {
    const given = reference.trim();
    if (given === "") {
      throw new HeldReturnRefused(
        "reference_required",
        "Informe o identificador da devolução, como o painel do serviço de pagamento o mostra.",
      );
    }
    if (given.length > REFERENCE_MAX) {
      throw new HeldReturnRefused(
        "reference_required",
        `O identificador da devolução tem mais de ${REFERENCE_MAX} caracteres: copie só o identificador que o painel do serviço de pagamento mostra.`,
      );
    }
    return this.connection.withTransaction(ctx, async (tx) => {
      const found = await this.channelPayments(tx)
        .where("payment.id = :paymentId", { paymentId })
        .getOne();
      if (!found || !isOurs(found)) {
        throw new HeldReturnRefused(
          "not_found",
          "Pagamento Pix ou boleto não encontrado neste canal: confira o pedido e o canal ativo.",
        );
      }
      await this.lockOrder(tx, found.order.id);
      // Read again under the lock: another admin may have recorded it a moment ago.
      const payment = await this.connection
        .getRepository(tx, Payment)
        .findOneOrFail({ where: { id: found.id }, relations: ["order"] });
      const held = heldRecordOf(payment);
      if (!held) {
        throw new HeldReturnRefused(
          "not_held",
          `O pagamento ${payment.id} do pedido ${payment.order.code} não está retido: só o dinheiro de um código retido se registra aqui; um reembolso do pedido se registra no próprio reembolso.`,
        );
      }
      if (held.returned) {
        throw new HeldReturnRefused(
          "already_returned",
          `A devolução deste pagamento já foi registrada (identificador ${held.returned.reference}): não há nada mais a fazer.`,
        );
      }
      // What the list asked her to return: owed money an open MED blocked is the case's.
      const toReturn = heldPaymentOf(payment, now).amount;
      const open = openMedOf(medOf(payment));
      if (toReturn <= 0) {
        throw new HeldReturnRefused(
          "med_open",
          `Um MED aberto (protocolo ${open?.protocol ?? "?"}) bloqueia todo o dinheiro deste pagamento: registre a decisão do MED; nada é devolvido por aqui enquanto ele não decide.`,
        );
      }
      const metadata = payment.metadata as { held: Record<string, unknown> };
      const stamp = { reference: given, at: now.toISOString() };
      // With part of it blocked, what she returned is a part; else it is the rest, and closes it.
      const blocked = held.receivedCents - partsReturned(held) - toReturn;
      const recorded = {
        ...payment.metadata,
        held:
          blocked > 0
            ? {
                ...metadata.held,
                returnedParts: [...held.returnedParts, { ...stamp, cents: toReturn }],
              }
            : { ...metadata.held, returned: stamp },
      };
      await this.connection
        .getRepository(tx, Payment)
        .update(payment.id, { metadata: recorded as never });
      // The shopper's open page learns the store's decision (returned) at once.
      await this.news.announceIn(tx, payment.order.id);
      Logger.info(
        `held payment ${payment.id} of order ${payment.order.code} recorded returned (${given})`,
        LOG,
      );
      return {
        ...heldPaymentOf(Object.assign(payment, { metadata: recorded }), now),
        amount: toReturn,
      };
    });
  }

  /**
   * The active channel's open MED cases, nearest deadline first: what the merchant must follow
   * up with the payment service until the institution decides.
   */
  async openMeds(ctx: RequestContext, now: Date = new Date()): Promise<OpenMed[]> {
    const payments = await this.channelPayments(ctx)
      .where("payment.metadata LIKE :med", { med: '%"med":%' })
      .getMany();
    return payments
      .filter(isOurs)
      .flatMap((payment) => {
        const open = openMedOf(medOf(payment));
        return open ? [{ payment, open }] : [];
      })
      .sort(
        (a, b) =>
          a.open.deadline.localeCompare(b.open.deadline) ||
          a.open.openedAt.localeCompare(b.open.openedAt),
      )
      .map(({ payment, open }) => ({
        paymentId: payment.id,
        orderId: payment.order.id,
        orderCode: payment.order.code,
        chargeId: payment.transactionId,
        med: medViewOf(open, now),
      }));
  }

  /**
   * "Registrar MED": the payer's institution blocked `amountCents` of a Pix of ours until
   * `deadline` (protocol `protocol`). Under the order's lock, the case is kept on the payment
   * (med-case.ts decides): its owed money leaves the merchant's lists, its captured money is
   * out of the order's captured. Refused (`MedRefused`) as the rule says, or `not_found` for a
   * payment of another channel or handler.
   */
  async recordMed(
    ctx: RequestContext,
    paymentId: string | number,
    input: { protocol: string; deadline: string; amountCents: number },
    now: Date = new Date(),
  ): Promise<OrderCode> {
    return this.underPaymentLock(ctx, paymentId, async (tx, payment) => {
      const med = decideMedRecord(medFactsOf(payment), input, now);
      const metadata = payment.metadata as { med?: unknown; medEarlier?: unknown[] };
      // One case at a time; a decided one is kept, after the latest.
      const earlier = medOf(payment)
        ? [...(metadata.medEarlier ?? []), metadata.med]
        : metadata.medEarlier;
      await this.connection.getRepository(tx, Payment).update(payment.id, {
        metadata: {
          ...payment.metadata,
          med,
          ...(earlier ? { medEarlier: earlier } : {}),
        } as never,
      });
      Logger.info(
        `MED ${med.protocol} recorded on payment ${payment.id} of order ${payment.order.code}: ${med.blockedCents} cents blocked (${med.blockedOwedCents} owed, ${med.contestedCents} contested)`,
        LOG,
      );
      return this.orderCodeIn(tx, payment, now);
    });
  }

  /**
   * The institution's decision on the payment's open case, under the order's lock, in one
   * transaction: `kept` gives the contested money back to the order and the owed money back to
   * the lists; `returned` (`amountCents`, the whole block when null) settles the blocked owed
   * money the MED returned (a held code's return recorded, a Settled payment's Pending refunds
   * settled) and refunds the contested money it returned on Vendure's order, Settled at once,
   * each with the transaction id "MED <protocolo>". The rest goes back as it was.
   */
  async recordMedOutcome(
    ctx: RequestContext,
    paymentId: string | number,
    input: { outcome: string; amountCents: number | null },
    now: Date = new Date(),
  ): Promise<OrderCode> {
    return this.underPaymentLock(ctx, paymentId, async (tx, payment) => {
      const decided = decideMedOutcome(medFactsOf(payment), input, now);
      const { med } = decided;
      const reference = `MED ${med.protocol}`;
      const reason = `Devolvido pelo MED (protocolo ${med.protocol})`;
      for (const share of decided.settleRefunds) {
        if (share.cents === share.total) {
          await this.settleRefundIn(tx, share.refundId, reference);
          continue;
        }
        // Vendure settles a refund whole: the part the MED returned becomes its own refund,
        // settled, and the rest stays owed in the refund it came from.
        await this.connection
          .getRepository(tx, Refund)
          .update(share.refundId, { total: share.total - share.cents });
        await this.refundOnOrder(tx, payment, share.cents, reason, reference);
      }
      if (decided.refundOnOrderCents > 0) {
        await this.refundOnOrder(tx, payment, decided.refundOnOrderCents, reason, reference);
      }
      const metadata = payment.metadata as { held?: Record<string, unknown> };
      const held = heldRecordOf(payment);
      const stamp = { reference, at: now.toISOString() };
      const heldAfter =
        decided.heldReturn && held && metadata.held
          ? decided.heldReturn.closes
            ? { ...metadata.held, returned: stamp }
            : {
                ...metadata.held,
                returnedParts: [
                  ...held.returnedParts,
                  { ...stamp, cents: decided.heldReturn.cents },
                ],
              }
          : metadata.held;
      await this.connection.getRepository(tx, Payment).update(payment.id, {
        metadata: { ...payment.metadata, med, ...(heldAfter ? { held: heldAfter } : {}) } as never,
      });
      // A held code returned by the MED tells the shopper's open page at once.
      await this.news.announceIn(tx, payment.order.id);
      Logger.info(
        `MED ${med.protocol} on payment ${payment.id} of order ${payment.order.code} decided ${med.state}: ${med.returnedCents ?? 0} cents returned`,
        LOG,
      );
      return this.orderCodeIn(tx, payment, now);
    });
  }

  /** A refund on Vendure's order of `cents` of `payment`, settled at once with `reference`. */
  private async refundOnOrder(
    tx: RequestContext,
    payment: Payment,
    cents: number,
    reason: string,
    reference: string,
  ): Promise<void> {
    // The handlers have no createRefund (the service has no refund API), so Vendure makes it
    // Pending; the MED already returned the money, so it is settled in the same transaction.
    const refund = await this.orderService.refundOrder(tx, {
      paymentId: payment.id,
      amount: cents,
      reason,
      // Deprecated in favour of `amount`, but their columns are still NOT NULL in 3.7.
      shipping: 0,
      adjustment: 0,
    });
    if (!(refund instanceof Refund)) {
      throw new Error(
        `refunding ${cents} cents of payment ${payment.id} for a MED failed: ${redact((refund as { message?: string }).message ?? String(refund))}`,
      );
    }
    await this.settleRefundIn(tx, refund.id, reference);
  }

  private async settleRefundIn(
    tx: RequestContext,
    refundId: string | number,
    transactionId: string,
  ): Promise<void> {
    const settled = await this.orderService.settleRefund(tx, { id: refundId, transactionId });
    if (!(settled instanceof Refund)) {
      throw new Error(
        `settling refund ${refundId} for a MED failed: ${redact((settled as { message?: string }).message ?? String(settled))}`,
      );
    }
  }

  /** One code of ours as `orderCodes` tells it, read in `tx`. */
  private async orderCodeIn(tx: RequestContext, payment: Payment, now: Date): Promise<OrderCode> {
    const codes = await this.orderCodes(tx, payment.order.id, now);
    const code = codes.find((c) => idsEqual(c.paymentId, payment.id));
    if (!code) throw new Error(`payment ${payment.id} is not among its order's codes`);
    return code;
  }

  /**
   * Runs `work` on a payment of ours in the active channel (with its order and refunds), in one
   * transaction holding its order's lock, the payment read again under it. `not_found` for a
   * payment of another channel or handler.
   */
  private underPaymentLock<T>(
    ctx: RequestContext,
    paymentId: string | number,
    work: (tx: RequestContext, payment: Payment) => Promise<T>,
  ): Promise<T> {
    return this.connection.withTransaction(ctx, async (tx) => {
      const found = await this.channelPayments(tx)
        .where("payment.id = :paymentId", { paymentId })
        .getOne();
      if (!found || !isOurs(found)) {
        throw new MedRefused(
          "not_found",
          "Pagamento Pix não encontrado neste canal: confira o pedido e o canal ativo.",
        );
      }
      await this.lockOrder(tx, found.order.id);
      // Read again under the lock: another admin may have recorded something a moment ago.
      const payment = await this.connection
        .getRepository(tx, Payment)
        .findOneOrFail({ where: { id: found.id }, relations: ["order", "refunds"] });
      return work(tx, payment);
    });
  }

  /**
   * The active channel's refunds of ours still owed (`Pending`), oldest first: each is money the
   * merchant must return at the service's dashboard and then record with `settleRefund`. The
   * handlers have no `createRefund` on purpose: the service has no refund API, and Vendure then
   * keeps a refund `Pending`, owed, until the merchant says it happened; nothing here marks it
   * done.
   */
  async refundsDue(ctx: RequestContext, now: Date = new Date()): Promise<RefundDue[]> {
    const refunds = await this.connection
      .getRepository(ctx, Refund)
      .createQueryBuilder("refund")
      .innerJoinAndSelect("refund.payment", "payment")
      .innerJoinAndSelect("payment.order", "order")
      .innerJoin("order.channels", "channel", "channel.id = :channelId", {
        channelId: ctx.channelId,
      })
      .where("refund.state = :state", { state: "Pending" })
      .orderBy("refund.createdAt", "ASC")
      .addOrderBy("refund.id", "ASC")
      .getMany();
    const ours = refunds.filter((refund) => isOurs(refund.payment));
    // An open MED's blocked owed money is the case's: its payment's Pending refunds, oldest
    // first, up to that amount, leave the list (one may stay for its unblocked part).
    const blocked = new Map<string, number>();
    for (const payment of uniqueById(ours.map((refund) => refund.payment))) {
      const open = openMedOf(medOf(payment));
      if (!open) continue;
      const pending = ours
        .filter((refund) => idsEqual(refund.payment.id, payment.id))
        .map((refund) => ({ id: refund.id, state: refund.state, cents: refund.total }));
      for (const share of pendingShares(pending, open.blockedOwedCents)) {
        blocked.set(String(share.refundId), share.cents);
      }
    }
    return ours
      .map((refund) => ({ refund, amount: refund.total - (blocked.get(String(refund.id)) ?? 0) }))
      .filter(({ amount }) => amount > 0)
      .map(({ refund, amount }) => {
        const { payment } = refund;
        const paidAt = (payment.metadata as { settledAt?: string }).settledAt;
        const devolucao = devolucaoOf(methodOf(payment), amount, paidAt ?? null, now);
        const part =
          amount < refund.total
            ? ` (dos ${brl(refund.total)} deste reembolso, ${brl(refund.total - amount)} estão bloqueados por um MED aberto)`
            : "";
        return {
          refundId: refund.id,
          orderCode: payment.order.code,
          amount,
          chargeId: payment.transactionId,
          reason: refund.reason ?? null,
          instructions: `Devolva ${brl(amount)} do pedido ${payment.order.code} ao pagador pelo painel do serviço de pagamento (cobrança ${payment.transactionId})${part} e registre aqui a devolução com o identificador dela.${devolucaoWords(devolucao)}`,
          createdAt: refund.createdAt.toISOString(),
          devolucao,
        };
      });
  }

  /**
   * The active channel's movements of the plugin's money between `from` and `to` (the books):
   * payments settled or held, refunds owed and made. Read from Vendure's records alone.
   */
  async bookMovements(ctx: RequestContext, from: Date, to: Date): Promise<BookMovement[]> {
    const within = (at: Date) => at >= from && at < to;
    const payments = await this.channelPayments(ctx)
      .leftJoinAndSelect("payment.refunds", "refund")
      .where("payment.updatedAt >= :from", { from })
      .orWhere("refund.updatedAt >= :from", { from })
      .getMany();
    const movements: BookMovement[] = [];
    for (const payment of payments.filter(isOurs)) {
      const metadata = (payment.metadata ?? {}) as { settledAt?: string };
      const held = heldRecordOf(payment);
      const base = {
        orderCode: payment.order.code,
        method: methodOf(payment),
        chargeId: payment.transactionId,
        reference: null,
      };
      if (payment.state === "Settled") {
        const at = new Date(metadata.settledAt ?? payment.updatedAt);
        if (within(at)) {
          movements.push({ ...base, at, kind: "settled", cents: payment.amount, why: null });
        }
      }
      if (held) {
        const at = new Date(held.at);
        if (within(at)) {
          movements.push({ ...base, at, kind: "held", cents: held.receivedCents, why: held.why });
        }
        // Its returns, as recorded with the devolução's id ("MED <protocolo>" for a MED's):
        // parts first, then the rest.
        const returns = [
          ...held.returnedParts,
          ...(held.returned
            ? [{ ...held.returned, cents: held.receivedCents - partsReturned(held) }]
            : []),
        ];
        for (const returned of returns) {
          const returnedAt = new Date(returned.at);
          if (!within(returnedAt)) continue;
          movements.push({
            ...base,
            at: returnedAt,
            kind: "refunded",
            cents: returned.cents,
            why: held.why,
            reference: returned.reference,
          });
        }
      }
      for (const refund of payment.refunds ?? []) {
        if (refund.state === "Pending" && within(refund.createdAt)) {
          movements.push({
            ...base,
            at: refund.createdAt,
            kind: "refund_due",
            cents: refund.total,
            why: refund.reason ?? null,
          });
        }
        if (refund.state === "Settled" && within(refund.updatedAt)) {
          movements.push({
            ...base,
            at: refund.updatedAt,
            kind: "refunded",
            cents: refund.total,
            why: refund.reason ?? null,
            reference: refund.transactionId || null,
          });
        }
      }
    }
    return movements;
  }

  /**
   * A Pix for what an order modified after payment costs more (`ArrangingAdditionalPayment`),
   * made by the admin in the order's channel under the order's lock: the plugin's Pix method of
   * that channel asks for the order's outstanding amount, exactly as the shopper's first code
   * did, and is settled by the same rule when paid. A code already waiting for it is given again.
   */
  async collectDifference(ctx: RequestContext, orderId: string | number): Promise<DifferenceCode> {
    return this.connection.withTransaction(ctx, async (tx) => {
      const order = await this.orderService.findOne(tx, orderId, ["payments"]);
      if (!order) {
        throw new DifferenceRefused("order_not_found", "Pedido não encontrado neste canal.");
      }
      await this.lockOrder(tx, order.id);
      const codeOf = (payment: Payment, created: boolean): DifferenceCode => {
        const published = (payment.metadata as { public?: Record<string, unknown> }).public ?? {};
        return {
          orderCode: order.code,
          amount: payment.amount,
          sessionId: String(published.sessionId),
          copyPaste: stringOrNull(published.copyPaste),
          expiresAt: stringOrNull(published.expiresAt),
          created,
        };
      };
      const waiting = (order.payments ?? []).find(
        (payment) => payment.state === AWAITING_PIX && isOurs(payment),
      );
      if (waiting) return codeOf(waiting, false);
      if (order.state !== "ArrangingAdditionalPayment") {
        throw new DifferenceRefused(
          "nothing_owed",
          `O pedido ${order.code} está "${order.state}": só um pedido alterado que aguarda pagamento adicional recebe um Pix da diferença.`,
        );
      }
      const methods = await this.paymentMethods.findAll(tx, { take: 100 });
      const pix = methods.items.find(
        (method) => method.enabled && method.handler.code === PIX_HANDLER_CODE,
      );
      if (!pix) {
        throw new DifferenceRefused(
          "no_pix_method",
          "Este canal não tem uma forma de pagamento Pix ativa (handler pix-checkout-pix).",
        );
      }
      const added = await this.orderService.addPaymentToOrder(tx, order.id, {
        method: pix.code,
        metadata: {},
      });
      if ("errorCode" in added) {
        const declined = (added as { paymentErrorMessage?: string }).paymentErrorMessage;
        throw new DifferenceRefused("pix_refused", declined ?? redact(added.message));
      }
      // The order Vendure answers may not carry its payments: they are read back.
      const payments = await this.connection.getRepository(tx, Payment).find({
        where: { order: { id: order.id } },
        order: { createdAt: "DESC" },
      });
      const made = payments.find((payment) => payment.state === AWAITING_PIX && isOurs(payment));
      if (!made) {
        const refused = payments[0]?.errorMessage;
        throw new DifferenceRefused("pix_refused", refused ?? "O Pix da diferença não foi criado.");
      }
      Logger.info(`difference code for order ${order.code}: payment ${made.id}`, LOG);
      return codeOf(made, true);
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

  /** A boleto of ours whose due date and grace (`boletoGraceBusinessDays`) are behind `now`. */
  private pastGrace(payment: Payment, now: Date): boolean {
    const due = dueOf(payment);
    if (methodOf(payment) !== "boleto" || due === null) return false;
    const grace = this.options.boletoGraceBusinessDays ?? DEFAULT_BOLETO_GRACE_BUSINESS_DAYS;
    return now.getTime() > boletoOrderHeldUntil(due, grace).getTime();
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
    const order = await this.orderService.findOne(tx, payment.order.id, ["payments"]);
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
   * The order's lock, held to the end of the transaction `tx`: every door into an order's money
   * (its codes' webhooks, reconciliation, the shopper's replacing a code, on any instance) decides
   * one at a time, so two codes of one order never both count as what it still owes. The
   * reminders (reminders.ts) take it too, so a step is decided once.
   */
  async lockOrder(tx: RequestContext, orderId: Order["id"]): Promise<void> {
    await this.connection
      .getRepository(tx, Payment)
      .query("SELECT pg_advisory_xact_lock(hashtext($1))", [`pix-checkout:order:${orderId}`]);
  }
}

/** A payment this plugin made (its code's session id is in its metadata), not another handler's. */
function isOurs(payment: Payment): boolean {
  const published = (payment.metadata as { public?: { sessionId?: unknown } } | null)?.public;
  return typeof published?.sessionId === "string";
}

/** What the order's payments other than `payment` settled, in integer cents. */
function settledBesides(order: Order, payment: Payment): number {
  return (order.payments ?? [])
    .filter((other) => other.state === "Settled" && other.id !== payment.id)
    .reduce((sum, other) => sum + other.amount, 0);
}

/** Which of the plugin's methods made this payment. */
function methodOf(payment: Payment): "pix" | "boleto" {
  const published = (payment.metadata as { public?: { method?: unknown } } | null)?.public;
  return published?.method === "boleto" ? "boleto" : "pix";
}

/** A code's due date (a boleto's) or expiry (a Pix's), as the service gave it. */
function dueOf(payment: Payment): string | null {
  return stringOrNull(
    (payment.metadata as { public?: { expiresAt?: unknown } } | null)?.public?.expiresAt,
  );
}

/** The shopper replaced this code before it was paid (`replaceCode`). */
function isReplaced(payment: Payment): boolean {
  return typeof (payment.metadata as { replacedAt?: unknown } | null)?.replacedAt === "string";
}

/** Its money settled nothing and is listed for the merchant (`hold`). */
function heldOf(payment: Payment): boolean {
  return !!(payment.metadata as { held?: unknown } | null)?.held;
}

/**
 * A held payment's record (`metadata.held`), its gaps filled as the lists always filled them:
 * what the bank paid (else the code's amount), when (else the payment's last change), and the
 * return the merchant recorded, or null. Null for a payment not held.
 */
function heldRecordOf(payment: Payment): HeldRecord | null {
  const held = (payment.metadata as { held?: unknown } | null)?.held as
    | {
        why?: string;
        receivedCents?: number;
        at?: string;
        returned?: { reference?: string; at?: string };
        returnedParts?: { reference?: string; at?: string; cents?: number }[];
      }
    | undefined;
  if (!held) return null;
  const at = held.at ?? payment.updatedAt.toISOString();
  return {
    why: held.why ?? "",
    receivedCents: held.receivedCents ?? payment.amount,
    at,
    returned: held.returned
      ? { reference: held.returned.reference ?? "", at: held.returned.at ?? at }
      : null,
    returnedParts: (Array.isArray(held.returnedParts) ? held.returnedParts : []).map((part) => ({
      reference: part.reference ?? "",
      at: part.at ?? at,
      cents: typeof part.cents === "number" ? part.cents : 0,
    })),
  };
}

type HeldRecord = NonNullable<OrderCodeFacts["held"]> & {
  returnedParts: { reference: string; at: string; cents: number }[];
};

/** What a held code's parts returned before the rest came to (a MED's, in part). */
function partsReturned(held: HeldRecord): number {
  return held.returnedParts.reduce((sum, part) => sum + part.cents, 0);
}

/** What was recorded returned of a held code: all it received once closed, else its parts. */
function heldReturnedCents(held: HeldRecord): number {
  return held.returned ? held.receivedCents : partsReturned(held);
}

/**
 * A held payment as the merchant's list shows it: what the bank paid goes back, less parts
 * already returned and owed money an open MED blocked; once recorded returned, what that was.
 */
function heldPaymentOf(payment: Payment, now: Date): HeldPayment {
  const held = heldRecordOf(payment)!;
  const owed = held.receivedCents - partsReturned(held);
  const blocked = Math.min(openMedOf(medOf(payment))?.blockedOwedCents ?? 0, owed);
  const amount = owed - blocked;
  return {
    paymentId: payment.id,
    orderId: payment.order.id,
    orderCode: payment.order.code,
    amount,
    chargeId: payment.transactionId,
    why: held.why,
    heldAt: held.at,
    devolucao: devolucaoOf(methodOf(payment), held.returned ? 0 : amount, held.at, now),
  };
}

/** The payment's latest MED case (`metadata.med`), or null. */
function medOf(payment: Payment): MedCase | null {
  return medCaseOf((payment.metadata as { med?: unknown } | null)?.med);
}

/** What the MED rule reads of a payment: its money, its refunds oldest first, its case. */
function medFactsOf(payment: Payment): MedPaymentFacts {
  const held = heldRecordOf(payment);
  return {
    method: methodOf(payment),
    state: payment.state,
    amountCents: payment.amount,
    held: held && { receivedCents: held.receivedCents, returnedCents: heldReturnedCents(held) },
    refunds: refundsOldestFirst(payment).map((refund) => ({
      id: refund.id,
      state: refund.state,
      cents: refund.total,
    })),
    med: medOf(payment),
  };
}

function refundsOldestFirst(payment: Payment): Refund[] {
  return [...(payment.refunds ?? [])].sort(
    (a, b) =>
      a.createdAt.getTime() - b.createdAt.getTime() || String(a.id).localeCompare(String(b.id)),
  );
}

const idsEqual = (a: string | number, b: string | number) => String(a) === String(b);

function uniqueById<T extends { id: string | number }>(items: readonly T[]): T[] {
  const seen = new Map<string, T>();
  for (const item of items) if (!seen.has(String(item.id))) seen.set(String(item.id), item);
  return [...seen.values()];
}

/**
 * How long after a replaced code's expiry, or an overdue boleto's cancellation, the bank may
 * still pay or confirm it: a boleto paid on its due day is confirmed up to three business days
 * later; a Pix, at once.
 */
const REPLACED_GRACE_MS = 5 * 24 * 60 * 60 * 1000;

/**
 * A code the plugin cancelled that the bank may still pay or confirm: reconciliation keeps
 * asking about it. A replaced code until five days after its expiry; an overdue boleto for
 * five days after its order was cancelled.
 */
function stillPayable(payment: Payment, now: Date): boolean {
  const metadata = payment.metadata as {
    public?: { expiresAt?: unknown };
    overdueAt?: unknown;
  } | null;
  const from = isReplaced(payment) ? metadata?.public?.expiresAt : metadata?.overdueAt;
  return typeof from !== "string" || Date.parse(from) + REPLACED_GRACE_MS > now.getTime();
}

/** Cancelled by the plugin, its money still possible: replaced, or an overdue boleto. */
function endedByUs(payment: Payment): boolean {
  return (
    isReplaced(payment) ||
    typeof (payment.metadata as { overdueAt?: unknown } | null)?.overdueAt === "string"
  );
}

const stringOrNull = (value: unknown): string | null => (typeof value === "string" ? value : null);
