import type { CreateNotificationDTO } from "@medusajs/framework/types";
import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import QRCode from "qrcode";
import { CHARGE_EVENTS, type ChargeEventData } from "./charge-lifecycle";
import type { NotifyOptions } from "./notify-options";
import { cartOfCollection, orderOfCollection, type SettleContext } from "./settle";
import { toStoreView } from "./store-view";

/** What a message template receives as `data` (documented in the README, "Notifications"). */
export interface NotificationData {
  event: "created" | "paid" | "expired";
  method: "pix" | "boleto";
  charge_id: string;
  session_id: string;
  amount_cents: number;
  /** `R$ 48,92`, formatted for Brazil. */
  amount: string;
  expires_at: string | null;
  paid_at: string | null;
  /** Where the shopper can come back to pay (or see it is paid or expired), when configured. */
  payment_page_url: string | null;
  order: { id: string; display_id: number | null } | null;
  cart_id: string | null;
  pix?: {
    copy_paste: string;
    /** A PNG of the QR code, base64 (for an inline attachment). */
    qr_png_base64: string;
    payment_link: string | null;
  };
  boleto?: { url: string; digitable_line: string; barcode: string; due_date: string | null };
}

const EVENT_KEY = {
  [CHARGE_EVENTS.created]: "created",
  // "Paid" goes out once the order is paid in Medusa (captured), so it can name the order.
  [CHARGE_EVENTS.captured]: "paid",
  [CHARGE_EVENTS.expired]: "expired",
} as const;

const brl = new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL" });

/** Cents to `R$ 48,92` by string arithmetic on the integer, never through a float division. */
function formatCents(cents: number): string {
  const negative = cents < 0;
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100);
  const fraction = String(abs % 100).padStart(2, "0");
  const formatted = brl.format(whole).replace(/,00$/, `,${fraction}`);
  return negative ? `-${formatted}` : formatted;
}

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
  const key = EVENT_KEY[eventName as keyof typeof EVENT_KEY];
  const template = key ? options.templates[key] : undefined;
  if (!key || !template) return undefined;
  const row = await ctx.store.byChargeId(data.charge_id);
  if (!row) return undefined;
  const buyer = await buyerOf(ctx, row.payment_collection_id);
  if (!buyer?.email) {
    ctx.logger.debug(`no e-mail for charge ${data.charge_id}; nothing sent`);
    return undefined;
  }
  const view = toStoreView(row, row.session_id);
  const payload: NotificationData = {
    event: key,
    method: row.method,
    charge_id: row.charge_id,
    session_id: row.session_id,
    amount_cents: Number(row.amount_cents),
    amount: formatCents(Number(row.amount_cents)),
    expires_at: view.expires_at,
    paid_at: view.paid_at,
    payment_page_url: options.paymentPageUrl
      ? options.paymentPageUrl.replace("{session_id}", encodeURIComponent(row.session_id))
      : null,
    order: buyer.order ?? null,
    cart_id: buyer.cartId ?? null,
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
  return {
    to: buyer.email,
    channel: options.channel,
    template,
    data: payload as unknown as Record<string, unknown>,
    trigger_type: eventName,
    resource_id: row.charge_id,
    resource_type: "pix_checkout_charge",
    // A redelivered event must not mail the shopper twice.
    idempotency_key: `${eventName}:${row.charge_id}`,
  };
}

/** The e-mail, cart and order behind a payment collection. */
async function buyerOf(
  ctx: SettleContext,
  paymentCollectionId: string | null,
): Promise<
  | { email: string | null; cartId?: string; order?: { id: string; display_id: number | null } }
  | undefined
> {
  const cartId = await cartOfCollection(ctx.container, paymentCollectionId);
  if (!cartId) return undefined;
  const query = ctx.container.resolve(ContainerRegistrationKeys.QUERY);
  const { data: carts } = await query.graph({
    entity: "cart",
    fields: ["id", "email"],
    filters: { id: cartId },
  });
  const order = await orderOfCollection(ctx.container, paymentCollectionId);
  return {
    email: order?.email ?? (carts[0] as { email?: string | null } | undefined)?.email ?? null,
    cartId,
    ...(order ? { order: { id: order.id, display_id: order.display_id ?? null } } : {}),
  };
}
