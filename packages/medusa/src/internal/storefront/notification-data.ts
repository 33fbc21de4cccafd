import type { OrderPayment } from "../medusa/order-payment";
import type { NotificationOrderLines } from "./order-lines-data";

// The shape of every notification's `data`, apart from the code that builds it
// (notification.ts), so the package's public `types` entry names it without the plugin's
// internals.

/** What a message template receives as `data` (documented in the README, "Notifications"). */
export interface NotificationData {
  event: "created" | "paid" | "expired" | "refund_due" | "refunded" | "order_received";
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
  /**
   * The order the code's money concerned, once there is one, and Medusa's word on it:
   * `payment` is `paid` when Medusa's order summary has nothing pending, `awaiting` while it
   * does, `canceled`. A message may say "está pago" only with `paid`. The rest
   * (`NotificationOrderLines`) is what was ordered: the items, the delivery address and
   * option, the Pix discount and the total, in cents and as `R$ 1.234,56`, adding up to the
   * cent; `lines` is null when Medusa's order does not add up to its total (then say `total`).
   */
  order:
    | ({ id: string; display_id: number | null; payment: OrderPayment } & NotificationOrderLines)
    | null;
  cart_id: string | null;
  /**
   * The order's customer, for an order's own collection (an order edit's difference, a
   * converted draft): the name and phone on the order, for a greeting or a WhatsApp or SMS
   * provider. Null for a cart's code.
   */
  customer: { name: string | null; phone: string | null } | null;
  /**
   * With `refund_due`: what the store will return (`R$ 48,92`) and why (a RefundReason code).
   * With `paid`: the part of the payment the store returns (`overpaid`, `amount_lowered`), when
   * there is one: what arrived minus it is what pays the order.
   * With `refunded`: what the merchant returned and why (the reason the money was owed,
   * `underpaid` for an amount held, `order_refund` for the order's paid money).
   */
  refund?: { amount_cents: number; amount: string; reason: string };
  pix?: {
    copy_paste: string;
    /** A PNG of the QR code, base64 (for an inline attachment). */
    qr_png_base64: string;
    payment_link: string | null;
  };
  boleto?: { url: string; digitable_line: string; barcode: string; due_date: string | null };
}
