import { Inject, Injectable } from "@nestjs/common";
import {
  Logger,
  Order,
  OrderService,
  Payment,
  RequestContextService,
  TransactionalConnection,
  type RequestContext,
} from "@vendure/core";
import { PixClient, parseWebhook, redact, type Charge } from "@pix-checkout/client";
import { PIX_CHECKOUT_OPTIONS, type PixCheckoutVendureOptions } from "./options";
import { settlementVerdict, type SettlementVerdict } from "./settlement-verdict";

const LOG = "PixCheckoutPlugin";

/** What a webhook delivery came to, as its answer says (never more: no payer data, no key). */
export type DeliveryOutcome = "settled" | "duplicate" | "not_paid" | "unknown_charge" | "held";

/**
 * The plugin's one door into the money: a code made for an order, and a payment heard of
 * (webhook, reconciliation) settled once, when the service says it is paid and it pays exactly
 * the order it was made for.
 */
@Injectable()
export class PixCheckoutService {
  readonly client: PixClient;

  constructor(
    @Inject(PIX_CHECKOUT_OPTIONS) options: PixCheckoutVendureOptions,
    private readonly connection: TransactionalConnection,
    private readonly orderService: OrderService,
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

  /** Whether `payment` may be settled now, asked of the service (see settlement-verdict.ts). */
  async verdictOf(order: Order, payment: Payment): Promise<SettlementVerdict> {
    const charge = await this.client.charges.retrieve(payment.transactionId);
    return settlementVerdict({
      order: { state: order.state, totalCents: order.totalWithTax },
      payment: { state: payment.state, amountCents: payment.amount },
      charge: { status: charge.status, amountCents: charge.amountCents },
    });
  }

  /**
   * A webhook delivery: parsed, then asked of the service (a delivery is a hint, never proof),
   * and a paid charge's payment settled once. Throws `WebhookParseError` for a body that is no
   * event of the spec.
   */
  async hear(body: unknown): Promise<DeliveryOutcome> {
    const verified = await this.client.verifyWebhook(parseWebhook(body));
    if (!("chargeId" in verified) || !verified.paid) return "not_paid";
    return this.settleCharge(verified.chargeId);
  }

  /**
   * Settles the payment of `chargeId`, in the channel the code was made in, under a lock of its
   * own (two deliveries of one payment at once settle it once).
   */
  async settleCharge(chargeId: string): Promise<DeliveryOutcome> {
    const found = await this.connection.rawConnection.getRepository(Payment).findOne({
      where: { transactionId: chargeId },
      relations: ["order"],
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
      if (payment.state === "Settled") return "duplicate";
      const order = await this.orderService.findOne(tx, payment.order.id);
      if (!order) return "unknown_charge";
      const verdict = await this.verdictOf(order, payment);
      if (verdict.kind !== "settle") {
        Logger.warn(`payment ${payment.id} of order ${order.code} held: ${verdict.why}`, LOG);
        return verdict.kind === "not_paid" ? "not_paid" : "held";
      }
      const settled = await this.orderService.settlePayment(tx, payment.id);
      if ("errorCode" in settled) {
        throw new Error(`settling payment ${payment.id} failed: ${redact(settled.message)}`);
      }
      Logger.info(`settled payment ${payment.id} of order ${order.code} (charge ${chargeId})`, LOG);
      return "settled";
    });
  }
}
