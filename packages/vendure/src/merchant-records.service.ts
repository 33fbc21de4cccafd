import { Injectable } from "@nestjs/common";
import {
  Logger,
  Payment,
  Refund,
  TransactionalConnection,
  type RequestContext,
} from "@vendure/core";
import { brl } from "@pix-checkout/client/books";
import type { BookMovement } from "./books";
import { channelPayments } from "./channel-payments";
import { devolucaoOf, devolucaoWords, type DevolucaoDeadline } from "./devolucao";
import { openMedOf, pendingShares } from "./med-case";
import { orderCodeStory, type OrderCodeStory } from "./order-codes";
import {
  askedOf,
  heldRecordOf,
  idsEqual,
  isOurs,
  isReplaced,
  medOf,
  methodOf,
  owedAtSettleOf,
  partsReturned,
  settledAtOf,
  uniqueById,
} from "./payment-facts";
import { PixCheckoutService } from "./pix-checkout.service";
import { SessionNews } from "./session-news";

const LOG = "PixCheckoutPlugin";

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

/** A devolução's id as the service's dashboard gives it: the merchant's text, of a sane size. */
const REFERENCE_MAX = 120;

/**
 * The merchant's views and records of the plugin's money in the active channel: paid codes held,
 * refunds owed, each code of an order and what became of it, the books' movements, and a held
 * code's return recorded (under its order's lock, taken at the door: `PixCheckoutService`).
 */
@Injectable()
export class PixCheckoutMerchantRecords {
  constructor(
    private readonly connection: TransactionalConnection,
    private readonly pixCheckout: PixCheckoutService,
    private readonly news: SessionNews,
  ) {}

  /**
   * The active channel's paid codes that settled nothing, newest first: what the merchant must
   * decide (return the money at the service, then cancel the payment).
   */
  async heldPayments(ctx: RequestContext, now: Date = new Date()): Promise<HeldPayment[]> {
    const payments = await channelPayments(this.connection, ctx)
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
    const payments = await channelPayments(this.connection, ctx)
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
          askedCents: askedOf(payment),
          receivedCents: payment.amount,
          owedAtSettle: owedAtSettleOf(payment),
          settledAt: settledAtOf(payment),
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
        this.pixCheckout.calendar,
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
    return this.pixCheckout.inChannelUnderLock(ctx, paymentId, ["order"], async (tx, payment) => {
      if (!payment) {
        throw new HeldReturnRefused(
          "not_found",
          "Pagamento Pix ou boleto não encontrado neste canal: confira o pedido e o canal ativo.",
        );
      }
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
        const devolucao = devolucaoOf(methodOf(payment), amount, settledAtOf(payment), now);
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
    const payments = await channelPayments(this.connection, ctx)
      .leftJoinAndSelect("payment.refunds", "refund")
      .where("payment.updatedAt >= :from", { from })
      .orWhere("refund.updatedAt >= :from", { from })
      .getMany();
    const movements: BookMovement[] = [];
    for (const payment of payments.filter(isOurs)) {
      const held = heldRecordOf(payment);
      const base = {
        orderCode: payment.order.code,
        method: methodOf(payment),
        chargeId: payment.transactionId,
        reference: null,
      };
      const settledAt = payment.state === "Settled" ? settledAtOf(payment) : null;
      if (settledAt) {
        const at = new Date(settledAt);
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
