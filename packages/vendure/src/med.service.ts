import { Injectable } from "@nestjs/common";
import {
  Logger,
  OrderService,
  Payment,
  Refund,
  TransactionalConnection,
  type RequestContext,
} from "@vendure/core";
import { redact } from "@pix-checkout/client";
import { channelPayments } from "./channel-payments";
import {
  decideMedOutcome,
  decideMedRecord,
  MedRefused,
  medViewOf,
  openMedOf,
  type MedView,
} from "./med-case";
import { PixCheckoutMerchantRecords, type OrderCode } from "./merchant-records.service";
import { heldRecordOf, idsEqual, isOurs, medFactsOf, medOf } from "./payment-facts";
import { PixCheckoutService } from "./pix-checkout.service";
import { SessionNews } from "./session-news";

const LOG = "PixCheckoutPlugin";

/** An open MED case and the code it blocks, as the merchant's list of open cases shows it. */
export interface OpenMed {
  paymentId: string | number;
  orderId: string | number;
  orderCode: string;
  chargeId: string;
  med: MedView;
}

/**
 * MED 2.0 on a Pix of ours, in the active channel: a case recorded, its outcome recorded, and
 * the open cases listed. The rule is med-case.ts's; this keeps its decisions on the payment and
 * Vendure's refunds, each under the order's lock taken at the door (`PixCheckoutService`).
 */
@Injectable()
export class PixCheckoutMed {
  constructor(
    private readonly connection: TransactionalConnection,
    private readonly orderService: OrderService,
    private readonly pixCheckout: PixCheckoutService,
    private readonly records: PixCheckoutMerchantRecords,
    private readonly news: SessionNews,
  ) {}

  /**
   * The active channel's open MED cases, nearest deadline first: what the merchant must follow
   * up with the payment service until the institution decides.
   */
  async openMeds(ctx: RequestContext, now: Date = new Date()): Promise<OpenMed[]> {
    const payments = await channelPayments(this.connection, ctx)
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
        med: medViewOf(open, now, this.pixCheckout.calendar),
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
    const codes = await this.records.orderCodes(tx, payment.order.id, now);
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
    return this.pixCheckout.inChannelUnderLock(
      ctx,
      paymentId,
      ["order", "refunds"],
      (tx, payment) => {
        if (!payment) {
          throw new MedRefused(
            "not_found",
            "Pagamento Pix não encontrado neste canal: confira o pedido e o canal ativo.",
          );
        }
        return work(tx, payment);
      },
    );
  }
}
