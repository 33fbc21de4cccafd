/**
 * Status words of a checkout session, verbatim from the store contract.
 * - `preparing`: the payment service's minute budget is spent and the code waits in the
 *   store's create line; no code yet (`ready_at` says when it should exist). Not final: the
 *   code follows (`pending`), or the request ends `failed` or `superseded`.
 * - `superseded`: the cart changed and a newer session replaced this one; the backend sends
 *   no code any more (`replaced_by` names the cart's current session, if any). Not final:
 *   the old code may still be paid at the bank, which the payment API cannot prevent.
 * - `held`: a payment arrived short of what the code asked (`received.amount` of `amount`);
 *   the store decides whether it pays the order (then `paid`) or comes back (then
 *   `refund_due`). Not final, and never `pix-paid`: the element keeps listening.
 * - `confirming`: the payment is the cart's (`received.amount`), but the store could not turn
 *   the cart into an order yet (an item may have sold out); it tries again, and returns the
 *   money if it never can. Not final, and never `pix-paid`: completing the cart would be
 *   refused the same way. Followed by `paid` (with its order) or `refund_due`.
 * - `refund_due`: a payment arrived but the store could not turn it into an order (or
 *   its code was replaced), and will refund it (`refund` says how much and why).
 */
export type SessionStatus =
  | "preparing"
  | "pending"
  | "paid"
  | "expired"
  | "failed"
  | "canceled"
  | "superseded"
  | "held"
  | "confirming"
  | "refund_due";

/**
 * Why the store returns money a shopper paid: no order came of it (`refund_due`), or the
 * excess of a code paid with more than it asked (`overpaid`) or more than the order now costs
 * (`amount_lowered`), with status `paid`.
 */
export type RefundReason =
  | "paid_twice"
  | "paid_old_amount"
  | "paid_replaced"
  | "paid_elsewhere"
  | "overpaid"
  | "amount_lowered"
  | "paid_after_order_canceled"
  | "out_of_stock"
  | "cart_not_completed"
  | "order_canceled"
  | "collection_canceled"
  | "other";

/**
 * Money the store returns: all of a `refund_due` session's, or the excess of a `paid` one.
 */
export interface RefundData {
  /** Integer cents. */
  amount: number;
  /** Unknown reasons are shown as `other`. */
  reason: RefundReason;
}

/** An older code of the cart the shopper paid, whose money the store returns. */
export interface EarlierPayment {
  /** Integer cents. */
  amount: number;
  order_paid: boolean;
}

/** Pix display data, as the store backend returns it. */
export interface PixData {
  /** The Pix copy-and-paste code (BR Code / EMV string). */
  copy_paste: string;
  /** URL of a QR image rendered by the backend (SVG or PNG); relative to `backend-url` or absolute. */
  qr_image_url?: string | null;
  /** The payment service's own QR, base64 PNG (Variant B), or a `data:image/...` URL. */
  qr_code?: string | null;
  /** A payment link the shopper may open or share. */
  payment_link?: string | null;
}

/** Boleto display data, as the store backend returns it. */
export interface BoletoData {
  /** URL of the boleto document (PDF or printable page). */
  url: string;
  /** The 44-digit barcode number, drawn as ITF. */
  barcode: string;
  /** The 47-digit digitable line (formatting characters are ignored). */
  digitable_line: string;
  /** Due date, `YYYY-MM-DD`. */
  due_date: string;
}

/** The object the status route returns and the stream sends on each change. */
export interface CheckoutSession {
  session_id: string;
  method: "pix" | "boleto";
  status: SessionStatus;
  /** Integer cents. */
  amount: number;
  /** ISO 4217 code, `BRL`. */
  currency: string;
  /** ISO 8601; null while `preparing` (there is no code to expire yet). */
  expires_at: string | null;
  /** ISO 8601, or null while unpaid. */
  paid_at: string | null;
  /** The backend's clock when it answered, ISO 8601; corrects the countdown for skew. */
  server_time: string;
  /** Present while `pending` (for `method`); never sent when `superseded`. */
  pix?: PixData | null;
  /** Present while `pending` (for `method`); never sent when `superseded`. */
  boleto?: BoletoData | null;
  /**
   * With `preparing`: when the code should exist, ISO 8601, an estimate by the backend's
   * clock (compare it with `server_time`, never with the device's clock).
   */
  ready_at?: string | null;
  /** With `preparing`: the session's place in the store's create line (1 is next). */
  queue_position?: number | null;
  /**
   * With `superseded`, and with an `expired` code the cart has replaced since: the id of the
   * cart's current payment session, or null when it has none.
   */
  replaced_by?: string | null;
  /**
   * Once the cart is an order (with `paid`, `refund_due`, `received` or `earlier_payment`): its
   * number ("Pedido #1042") and whether the store's order is paid (`payment`). The element says
   * an order is paid only with `payment: "paid"`.
   */
  order?: OrderState | null;
  /**
   * With `superseded`: the shopper paid this replaced code anyway (`amount`, integer cents) and
   * the store is deciding what the money becomes: the cart's payment (then `paid`) or money
   * returned (then `refund_due`). Never `pix-paid` before that.
   */
  received?: { amount: number } | null;
  /** With `refund_due`: what the store will refund, and why; with `paid`: an excess it returns. */
  refund?: RefundData | null;
  /**
   * An older code of the same cart was paid and the store returns that money (`amount`,
   * integer cents). `order_paid`: whether the order is paid (by this code or another way), so
   * the shopper knows whether this code still needs paying.
   */
  earlier_payment?: EarlierPayment | null;
  /**
   * With `expired` (Pix): where a new code comes from, Medusa's own
   * `POST /store/payment-collections/:id/payment-sessions` with this provider. Sent only once
   * the backend knows the code can no longer be paid.
   */
  renew?: RenewTarget | null;
  /**
   * With a Pix the store's Pix discount applies to: the promotion and what the shopper saves
   * by paying with Pix (`saved`, integer cents), shown on the code's card.
   */
  pix_discount?: PixDiscount | null;
}

/** The store's Pix discount on this code: a Medusa promotion the plugin manages. */
export interface PixDiscount {
  /** The promotion's code, `DESCONTO-PIX`. */
  code: string;
  /** A whole percentage, or a fixed amount in integer cents. */
  type: "percentage" | "fixed";
  value: number;
  /** Integer cents: the cart's total without the discount minus this code's amount. */
  saved: number;
}

/** The order a session's cart became: its number, and whether the store's order is paid. */
export interface OrderState {
  display_id: number;
  /** `paid` only when the store's order has nothing left to pay. */
  payment?: "paid" | "awaiting" | "canceled";
  /**
   * With `awaiting`: what the order still asks beyond what this code paid (an order edited up),
   * integer cents. Absent while the store is still confirming the order with this code's money.
   */
  owes?: number | null;
}

/** The cart's payment collection and the provider that made the expired code. */
export interface RenewTarget {
  payment_collection_id: string;
  provider_id: string;
}
