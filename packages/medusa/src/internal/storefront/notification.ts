import type { CreateNotificationDTO } from "@medusajs/framework/types";
import QRCode from "qrcode";
import { CHARGE_EVENTS, type ChargeEventData } from "../records/charge-lifecycle";
import type { NotifyOptions } from "./notify-options";
import { rowCountsAsPayment } from "../settlement/decide";
import { cartOfCollection, orderOfCollection } from "../medusa/collection-links";
import type { SettleContext } from "../settlement/context";
import type { ChargeRow } from "../records/charges";
import { toStoreView } from "./store-view";
import { cartBuyer, orderBuyerOfCollection } from "../medusa/buyers";
import { mayMailCode } from "./mailbox-proof";
import { collectionPageUrl } from "./collection-link";
import { orderPaymentState, type OrderPayment } from "../medusa/order-payment";
import type { NotificationData } from "./notification-data";
import { readOrderDetails, type OrderDetails } from "../medusa/order-details";
import { formatCents } from "./message-money";
import { orderLinesData } from "./order-lines-data";
import { moneyOf } from "../records/ledger-parts";
import { refundWaitsForOrder } from "./refund-notice-order";

/** What a message template receives as `data` (notification-data.ts). */
export type { NotificationData };

const EVENT_KEY = {
  [CHARGE_EVENTS.created]: "created",
  // The code's message waits for the shopper's page to show it (mailbox-proof.ts).
  [CHARGE_EVENTS.shown]: "created",
  // "Paid" goes out once the order is paid in Medusa (captured), so it can name the order.
  [CHARGE_EVENTS.captured]: "paid",
  [CHARGE_EVENTS.expired]: "expired",
  // The merchant recorded money returned: "Devolvemos R$ X".
  [CHARGE_EVENTS.refunded]: "refunded",
} as const;

/**
 * The notification for one charge event, or undefined when there is nothing to send (no
 * template for this event, no e-mail on the cart or order, the charge unknown).
 */
export async function buildNotification(
  ctx: SettleContext,
  eventName: string,
  data: ChargeEventData,
  options: NotifyOptions,
): Promise<CreateNotificationDTO | undefined> {
  // Of the flags, only a refund due is the shopper's news ("we received it, we give it back").
  const key =
    eventName === CHARGE_EVENTS.flagged
      ? data.flag?.code === "refund_due"
        ? "refund_due"
        : undefined
      : EVENT_KEY[eventName as keyof typeof EVENT_KEY];
  const template = key ? options.templates[key] : undefined;
  if (!key || !template) return undefined;
  const row = await ctx.records.charges.byChargeId(data.charge_id);
  if (!row) return undefined;
  if (key === "expired" && (await cartPaidOrMovedOn(ctx, row))) return undefined;
  const buyer = await buyerOf(ctx, row.payment_collection_id);
  if (key === "paid" && buyer?.order?.status === "canceled") return undefined;
  if ((key === "created" || key === "expired") && !(await mayMailCode(ctx.db, row, buyer))) {
    ctx.logger.debug(
      `charge ${data.charge_id}: no paid order from its mailbox, or no page or order yet; no code message`,
    );
    return undefined;
  }
  if (key === "refund_due" && (await refundWaitsForItsOrder(ctx, row, buyer))) {
    ctx.logger.debug(
      `charge ${data.charge_id}: its cart is becoming an order; its refund notice follows the order's message`,
    );
    return undefined;
  }
  if (!buyer?.email) {
    ctx.logger.debug(`no e-mail for charge ${data.charge_id}; nothing sent`);
    return undefined;
  }
  const payload = await codeMessageData(key, row, buyer, options.paymentPageUrl);
  const money =
    key === "refund_due" && data.flag?.code === "refund_due"
      ? { cents: data.flag.amount_cents, reason: data.flag.reason }
      : key === "refunded" && data.refund
        ? { cents: data.refund.amount_cents, reason: data.refund.reason }
        : undefined;
  if (key === "refunded" && !money) return undefined;
  if (money) {
    // A message about money coming back carries no code to pay.
    payload.refund = {
      amount_cents: money.cents,
      amount: formatCents(money.cents),
      reason: money.reason,
    };
    delete payload.pix;
    delete payload.boleto;
  }
  if (key === "paid") {
    // Part of a paid code's money may go back (paid more than it asked, or than the order costs
    // now): the message says so beside what arrived, so its figures add up to the order's total.
    const ledger = moneyOf(row);
    const back = ledger.owed + ledger.returned;
    if (back > 0) {
      payload.refund = {
        amount_cents: back,
        amount: formatCents(back),
        reason: ledger.owedReason ?? "other",
      };
    }
  }
  return {
    to: buyer.email,
    channel: options.channel,
    template,
    data: payload as unknown as Record<string, unknown>,
    trigger_type: eventName,
    resource_id: row.charge_id,
    resource_type: "pix_checkout_charge",
    // A redelivered event must not mail the shopper twice; nor may the order and the page
    // showing the code each send it. A charge can be refunded in parts: one message each.
    idempotency_key:
      key === "refunded"
        ? `${eventName}:${row.charge_id}:${data.refund!.id}`
        : `${key === "created" ? CHARGE_EVENTS.created : eventName}:${row.charge_id}`,
  };
}

/**
 * What every message about a charge carries: its amount, its dates, its order, and the code
 * itself (the Pix copy-paste and its QR, or the boleto's line and PDF) while it can be paid.
 * The code messages and the reminders (recovery/) build their data here.
 */
export async function codeMessageData<E extends string>(
  event: E,
  row: ChargeRow,
  buyer: Buyer,
  paymentPageUrl: string | undefined,
): Promise<Omit<NotificationData, "event"> & { event: E }> {
  const view = toStoreView(row, row.session_id);
  const payload: Omit<NotificationData, "event"> & { event: E } = {
    event,
    method: row.method,
    charge_id: row.charge_id,
    session_id: row.session_id,
    amount_cents: Number(row.amount_cents),
    amount: formatCents(Number(row.amount_cents)),
    expires_at: view.expires_at,
    paid_at: view.paid_at,
    // An order's own collection is paid on its page (the link the merchant sends), which
    // also makes its next code; a cart's code on the storefront's payment page.
    payment_page_url:
      buyer.pageUrl ??
      (paymentPageUrl
        ? paymentPageUrl.replace("{session_id}", encodeURIComponent(row.session_id))
        : null),
    order: buyer.order
      ? {
          id: buyer.order.id,
          display_id: buyer.order.display_id,
          payment: buyer.order.payment,
          ...orderLinesData(buyer.order.details),
        }
      : null,
    cart_id: buyer.cartId ?? null,
    customer: buyer.customer ?? null,
  };
  if (view.pix) {
    const png = await QRCode.toBuffer(view.pix.copy_paste, {
      errorCorrectionLevel: "M",
      margin: 4,
    });
    payload.pix = {
      copy_paste: view.pix.copy_paste,
      qr_png_base64: png.toString("base64"),
      payment_link: view.pix.payment_link,
    };
  }
  if (view.boleto) payload.boleto = view.boleto;
  return payload;
}

/**
 * "Recebemos seu pedido #N" (opt-in: the `order_received` template), when Medusa placed an order
 * paid or to be paid through one of the plugin's charges: what was ordered, where it goes, and
 * Medusa's word on its payment (`order.payment`). With `paid_at` the charge is paid (Medusa may
 * not have recorded the capture yet: say "pagamento recebido", and "pago" only with
 * `order.payment` `paid`); while the charge waits, the code to pay it (`pix` or `boleto`),
 * and then only to a mailbox the code may go to (`mayMailCode`: one that paid an order here).
 * Undefined when the template is off, the order has no charge of the plugin or no e-mail.
 */
export async function buildOrderReceived(
  ctx: SettleContext,
  orderId: string,
  collectionIds: readonly string[],
  options: NotifyOptions,
): Promise<CreateNotificationDTO | undefined> {
  const template = options.templates.order_received;
  if (!template) return undefined;
  for (const collectionId of collectionIds) {
    const rows = (await ctx.records.charges.ofCollection(collectionId)).filter(
      (row) => !row.superseded_at,
    );
    // The charge that paid the order, else the code that still can, else the newest.
    const row =
      rows.find((candidate) => rowCountsAsPayment(candidate)) ??
      rows.find((candidate) => candidate.status === "pending") ??
      rows[rows.length - 1];
    if (!row) continue;
    const buyer = await buyerOf(ctx, collectionId);
    if (!buyer?.email || buyer.order?.id !== orderId) continue;
    if (buyer.order.status === "canceled") return undefined;
    // An unpaid order names whatever address its client typed: it carries the code, so it goes
    // only where the code may (mailbox-proof.ts); money paid proves the mailbox by itself.
    if (!rowCountsAsPayment(row) && !(await mayMailCode(ctx.db, row, buyer))) {
      ctx.logger.debug(`order ${orderId}: unpaid, its mailbox never paid here; no order message`);
      return undefined;
    }
    const payload = await codeMessageData("order_received", row, buyer, options.paymentPageUrl);
    return {
      to: buyer.email,
      channel: options.channel,
      template,
      data: payload as unknown as Record<string, unknown>,
      trigger_type: "order.placed",
      resource_id: orderId,
      resource_type: "order",
      // One per order, however often Medusa redelivers order.placed.
      idempotency_key: `order_received:${orderId}`,
    };
  }
  return undefined;
}

/** The notification's message window applies to it: messages about an unpaid code. */
export function isCodeMessage(notification: CreateNotificationDTO): boolean {
  const event = (notification.data as { event?: string } | undefined)?.event;
  return event === "created" || event === "expired";
}

/**
 * An expired code is no news when the shopper already moved on: it was replaced by a newer
 * one, or another code of the cart was paid.
 */
async function cartPaidOrMovedOn(ctx: SettleContext, row: ChargeRow): Promise<boolean> {
  if (row.superseded_at) return true;
  if (!row.payment_collection_id) return false;
  const siblings = await ctx.records.charges.ofCollection(row.payment_collection_id);
  return siblings.some((sibling) => rowCountsAsPayment(sibling));
}

/**
 * A refund notice whose cart is becoming an order waits for it (refund-notice-order.ts): the
 * notification subscriber sends it on order.placed, after the order's own message.
 */
async function refundWaitsForItsOrder(
  ctx: SettleContext,
  row: ChargeRow,
  buyer: Buyer | undefined,
): Promise<boolean> {
  if (!buyer || !row.payment_collection_id) return false;
  return refundWaitsForOrder(
    buyer,
    await ctx.records.charges.ofCollection(row.payment_collection_id),
  );
}

/** The e-mail, cart and order behind a payment collection. */
export interface Buyer {
  email: string | null;
  cartId?: string;
  order?: {
    id: string;
    display_id: number | null;
    status: string;
    payment: OrderPayment;
    /** What the order holds, read from Medusa; undefined when it does not add up. */
    details: OrderDetails | undefined;
  };
  /** An order's own collection's customer, from the order. */
  customer?: { name: string | null; phone: string | null };
  /** An order's own collection's payment page (`collectionPageUrl`), when the store has one. */
  pageUrl?: string | null;
}

/**
 * What order `orderId` holds, for its messages; undefined (the message says the amount alone)
 * when Medusa's order cannot be read: a list is worth less than the message itself.
 */
async function detailsOf(ctx: SettleContext, orderId: string): Promise<OrderDetails | undefined> {
  try {
    return await readOrderDetails(ctx.container, orderId);
  } catch (error) {
    ctx.logger.warn(
      `order ${orderId}: its lines could not be read for the shopper's message (${(error as Error).name}); sent without them`,
    );
    return undefined;
  }
}

/**
 * The e-mail, cart and order behind a payment collection: a cart's (its order's e-mail once it
 * has one), or, for an order's own collection (no cart), the order's e-mail, name and phone.
 * Undefined when nothing owns it.
 */
export async function buyerOf(
  ctx: SettleContext,
  paymentCollectionId: string | null,
): Promise<Buyer | undefined> {
  if (!paymentCollectionId) return undefined;
  const cartId = await cartOfCollection(ctx.container, paymentCollectionId);
  if (!cartId) {
    const buyer = await orderBuyerOfCollection(ctx.container, paymentCollectionId);
    return buyer
      ? {
          email: buyer.email,
          order: {
            ...buyer.order,
            payment:
              (await orderPaymentState(ctx.container, buyer.order.id))?.payment ?? "awaiting",
            details: await detailsOf(ctx, buyer.order.id),
          },
          customer: { name: buyer.name, phone: buyer.phone },
          pageUrl: collectionPageUrl(ctx.config, paymentCollectionId, buyer.order.id),
        }
      : undefined;
  }
  const cart = await cartBuyer(ctx.container, cartId);
  const order = await orderOfCollection(ctx.container, paymentCollectionId);
  const payment = order ? (await orderPaymentState(ctx.container, order.id))?.payment : undefined;
  return {
    email: order?.email ?? cart?.email ?? null,
    cartId,
    ...(order
      ? {
          order: {
            id: order.id,
            display_id: order.display_id ?? null,
            status: order.status,
            payment: payment ?? (order.status === "canceled" ? "canceled" : "awaiting"),
            details: await detailsOf(ctx, order.id),
          },
        }
      : {}),
  };
}
