import { Injectable } from "@nestjs/common";
import {
  Logger,
  OrderService,
  Payment,
  PaymentMethodService,
  TransactionalConnection,
  type RequestContext,
} from "@vendure/core";
import { redact } from "@pix-checkout/client";
import { AWAITING_PIX } from "./awaiting-pix";
import { PIX_HANDLER_CODE } from "./handler-codes";
import { isOurs, stringOrNull } from "./payment-facts";
import { PixCheckoutService } from "./pix-checkout.service";

const LOG = "PixCheckoutPlugin";

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

/**
 * The admin's Pix for the difference of an order modified after payment: a code added to the
 * order by the plugin's Pix method, under the order's lock taken at the door
 * (`PixCheckoutService`), and settled by the door like any other code once paid.
 */
@Injectable()
export class PixCheckoutDifferenceCodes {
  constructor(
    private readonly connection: TransactionalConnection,
    private readonly orderService: OrderService,
    private readonly paymentMethods: PaymentMethodService,
    private readonly pixCheckout: PixCheckoutService,
  ) {}

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
      await this.pixCheckout.lockOrder(tx, order.id);
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
}
