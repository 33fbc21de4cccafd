import { Inject, Injectable } from "@nestjs/common";
import { Order, Payment, TransactionalConnection } from "@vendure/core";
import { AWAITING_PAYMENT } from "./awaiting-pix";
import { PIX_CHECKOUT_OPTIONS, type PixCheckoutVendureOptions } from "./options";
import {
  askedOf,
  isOurs,
  isReplaced,
  owedAtSettleOf,
  settledAtOf,
  stringOrNull,
} from "./payment-facts";
import type { HoldReason } from "./settlement-verdict";
import { sessionIdOf } from "./session-id";
import { shopperSession, type ShopperSession } from "./shopper-session";

/**
 * The shopper's page (`<pix-checkout session-id>`): what it reads of a code. Apart from the door
 * (`PixCheckoutService`) because it only reads: it asks no one and takes no lock.
 */
@Injectable()
export class PixCheckoutShopperSessions {
  constructor(
    @Inject(PIX_CHECKOUT_OPTIONS) private readonly options: PixCheckoutVendureOptions,
    private readonly connection: TransactionalConnection,
  ) {}

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
      relations: ["order", "refunds"],
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
        amountCents: askedOf(payment),
        settledAt: settledAtOf(payment),
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
        owedAtSettle: owedAtSettleOf(payment),
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
    return current ? sessionIdOf(this.options.webhookSecret, current.transactionId) : null;
  }
}
