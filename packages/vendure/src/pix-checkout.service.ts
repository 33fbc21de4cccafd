import { Inject, Injectable } from "@nestjs/common";
import {
  Logger,
  Order,
  OrderService,
  Payment,
  PaymentService,
  RequestContextService,
  TransactionalConnection,
  type RequestContext,
} from "@vendure/core";
import { PixClient, parseWebhook, redact, type Charge } from "@pix-checkout/client";
import { AWAITING_PAYMENT } from "./awaiting-pix";
import type { BoletoPayer } from "./boleto-payer";
import { PIX_CHECKOUT_OPTIONS, type PixCheckoutVendureOptions } from "./options";
import { settlementVerdict, type HoldReason, type SettlementVerdict } from "./settlement-verdict";
import { sessionIdOf } from "./session-id";
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
  /** Integer cents. */
  amount: number;
  chargeId: string;
  /** In Portuguese, as the merchant reads it. */
  why: string;
  heldAt: string;
}

/** What one reconciliation pass did. */
export interface ReconcileReport {
  checked: number;
  settled: number;
  canceled: number;
  held: number;
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
   * store's records alone: a GET asks no one and changes nothing. Undefined for no such code.
   */
  async sessionOf(sessionId: string, chargeId: string): Promise<ShopperSession | undefined> {
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
      held?: { reason?: HoldReason; receivedCents?: number };
    };
    const held = metadata.held;
    return shopperSession({
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
            ? { reason: held.reason, receivedCents: held.receivedCents }
            : null,
      },
      order: { state: payment.order.state },
    });
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
    const settledCents = (order.payments ?? [])
      .filter((other) => other.state === "Settled" && other.id !== payment.id)
      .reduce((sum, other) => sum + other.amount, 0);
    return settlementVerdict({
      order: { state: order.state, totalCents: order.totalWithTax, settledCents },
      payment: { state: payment.state, amountCents: payment.amount },
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
  async reconcile(): Promise<ReconcileReport> {
    const report: ReconcileReport = {
      checked: 0,
      settled: 0,
      canceled: 0,
      held: 0,
      unreachable: 0,
    };
    const waiting = (
      await this.connection.rawConnection
        .getRepository(Payment)
        .createQueryBuilder("payment")
        .where("payment.state IN (:...states)", { states: [...AWAITING_PAYMENT] })
        // Ours only (another handler's authorized payments are not asked about): the exact
        // check is `isOurs`; this keeps the others out of the batch.
        .andWhere("payment.metadata LIKE :marker", { marker: '%"sessionId":%' })
        .orderBy("payment.createdAt", "ASC")
        .take(RECONCILE_BATCH)
        .getMany()
    ).filter(isOurs);
    for (const payment of waiting) {
      report.checked += 1;
      let outcome: DeliveryOutcome;
      try {
        const status = await this.client.charges.status(payment.transactionId);
        outcome = status.paid
          ? await this.settleCharge(payment.transactionId)
          : ENDED.has(status.status)
            ? await this.endCharge(payment.transactionId)
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
      if (outcome === "held") report.held += 1;
    }
    return report;
  }

  /** Settles the payment of `chargeId` once, when it pays exactly the order that waits for it. */
  settleCharge(chargeId: string): Promise<DeliveryOutcome> {
    return this.underLock(chargeId, async (tx, payment) => {
      if (!AWAITING_PAYMENT.has(payment.state)) return "duplicate";
      const order = await this.orderService.findOne(tx, payment.order.id, ["payments"]);
      if (!order) return "unknown_charge";
      const verdict = await this.verdictOf(order, payment);
      if (verdict.kind === "not_paid") return "not_paid";
      if (verdict.kind === "hold") {
        await this.hold(tx, payment, verdict);
        Logger.warn(`payment ${payment.id} of order ${order.code} held: ${verdict.why}`, LOG);
        return "held";
      }
      const settled = await this.orderService.settlePayment(tx, payment.id);
      if ("errorCode" in settled) {
        throw new Error(`settling payment ${payment.id} failed: ${redact(settled.message)}`);
      }
      Logger.info(`settled payment ${payment.id} of order ${order.code} (charge ${chargeId})`, LOG);
      return "settled";
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
    const moved = await this.paymentService.transitionToState(tx, payment.id, "Declined");
    if ("errorCode" in moved) {
      throw new Error(`holding payment ${payment.id} failed: ${redact(moved.message)}`);
    }
    await this.connection.getRepository(tx, Payment).update(payment.id, {
      errorMessage: `Pix pago retido: ${why}`,
      // TypeORM's partial type cannot follow a JSON column's free shape.
      metadata: {
        ...moved.metadata,
        held: { why, reason, receivedCents, at: new Date().toISOString() },
      } as never,
    });
  }

  /**
   * The active channel's paid codes that settled nothing, newest first: what the merchant must
   * decide (return the money at the service, then cancel the payment).
   */
  async heldPayments(ctx: RequestContext): Promise<HeldPayment[]> {
    const payments = await this.connection
      .getRepository(ctx, Payment)
      .createQueryBuilder("payment")
      .innerJoinAndSelect("payment.order", "order")
      .innerJoin("order.channels", "channel", "channel.id = :channelId", {
        channelId: ctx.channelId,
      })
      .where("payment.state = :state", { state: "Declined" })
      .orderBy("payment.updatedAt", "DESC")
      .getMany();
    return payments
      .filter((payment) => (payment.metadata as { held?: unknown } | null)?.held)
      .map((payment) => {
        const held = (payment.metadata as { held?: { why?: string; at?: string } }).held ?? {};
        return {
          paymentId: payment.id,
          orderId: payment.order.id,
          orderCode: payment.order.code,
          amount: payment.amount,
          chargeId: payment.transactionId,
          why: held.why ?? "",
          heldAt: held.at ?? payment.updatedAt.toISOString(),
        };
      });
  }

  /**
   * A code the service says can no longer be paid (expired, canceled, failed): its payment is
   * cancelled, so the order, still in `ArrangingPayment`, takes a new code. Asked of the service
   * again under the lock: a code paid at its last second is settled by its own door instead.
   */
  endCharge(chargeId: string): Promise<DeliveryOutcome> {
    return this.underLock(chargeId, async (tx, payment) => {
      if (!AWAITING_PAYMENT.has(payment.state)) return "duplicate";
      const status = await this.client.charges.status(chargeId);
      if (status.paid || !ENDED.has(status.status)) return "not_paid";
      const canceled = await this.orderService.cancelPayment(tx, payment.id);
      if ("errorCode" in canceled) {
        throw new Error(`canceling payment ${payment.id} failed: ${redact(canceled.message)}`);
      }
      Logger.info(
        `canceled payment ${payment.id}: its code is ${status.status} (charge ${chargeId})`,
        LOG,
      );
      return "canceled";
    });
  }

  /**
   * Runs `work` on the payment of `chargeId` in the channel its code was made in, inside one
   * transaction holding a lock of that charge's own: every door into a code's money (webhook,
   * reconciliation, on any instance) decides one at a time.
   */
  private async underLock(
    chargeId: string,
    work: (tx: RequestContext, payment: Payment) => Promise<DeliveryOutcome>,
  ): Promise<DeliveryOutcome> {
    const found = await this.connection.rawConnection.getRepository(Payment).findOne({
      where: { transactionId: chargeId },
    });
    const channelToken = (found?.metadata as { channelToken?: unknown } | undefined)?.channelToken;
    if (!found || typeof channelToken !== "string") return "unknown_charge";
    const ctx = await this.requestContexts.create({
      apiType: "admin",
      channelOrToken: channelToken,
    });
    return this.connection.withTransaction(ctx, async (tx) => {
      const payments = this.connection.getRepository(tx, Payment);
      await payments.query("SELECT pg_advisory_xact_lock(hashtext($1))", [
        `pix-checkout:${chargeId}`,
      ]);
      const payment = await payments.findOne({ where: { id: found.id }, relations: ["order"] });
      if (!payment) return "unknown_charge";
      return work(tx, payment);
    });
  }
}

/** A payment this plugin made (its code's session id is in its metadata), not another handler's. */
function isOurs(payment: Payment): boolean {
  const published = (payment.metadata as { public?: { sessionId?: unknown } } | null)?.public;
  return typeof published?.sessionId === "string";
}

const stringOrNull = (value: unknown): string | null => (typeof value === "string" ? value : null);
