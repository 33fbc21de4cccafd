import type { ChargeRow, LocalChargeStatus } from "../records/charges";
import type { EarlierPayment } from "./earlier-payment";
import type { CreateRequestRow, LinePlace } from "../create-line/queue";
import type { RefundReason } from "../records/flag-reasons";
import { moneyOf } from "../records/ledger-parts";
import { payableDay } from "../platform/business-days";
import type { ShopperOrderState } from "../medusa/order-payment";

/**
 * What the shopper is told: the charge's status, or `preparing` (the code waits in the create
 * line: the service's minute budget is spent), `superseded` (the cart changed and this code
 * was replaced; it is no longer offered), `held` (the payment arrived short of what the code
 * asked: held for the store's decision, neither the order's payment nor owed back yet) or
 * `refund_due` (the payment arrived but no order could come of it; the store returns it), or
 * `confirming` (the payment is the cart's, but Medusa refused to turn the cart into an order:
 * the store tries again, and owes the money back if it never can).
 * `paid` only when this code's money is the cart's or order's payment, or on its way to it.
 */
export type ShopperStatus =
  LocalChargeStatus | "preparing" | "superseded" | "held" | "refund_due" | "confirming";

/** Refund reasons as the element knows them; newer ones read as `other`. */
const SHOPPER_REFUND_REASONS = new Set<string | null>([
  "paid_twice",
  "paid_old_amount",
  "paid_replaced",
  "paid_elsewhere",
  "overpaid",
  "amount_lowered",
  "paid_after_order_canceled",
  "out_of_stock",
  "cart_not_completed",
  "order_canceled",
  "collection_canceled",
]);

/** The store contract's session object (packages/element README, "Backend contract"). */
export interface StoreSessionView {
  session_id: string;
  method: "pix" | "boleto";
  status: ShopperStatus;
  /**
   * With `superseded`, with a replaced code's `refund_due`, and with an `expired` code the cart
   * has replaced since: the cart's current session, when it has one (the code that still pays).
   */
  replaced_by?: string | null;
  /**
   * The order this code's cart became (or the order whose collection it pays), once there is
   * one: its number ("Pedido #1042") and whether Medusa's order is paid (`payment`). "Está pago"
   * is said only with `payment: "paid"`. Only the number: the order's id would open it to whoever
   * holds the session. Read with `paid`, `refund_due`, `received` and `earlier_payment` (a plain
   * pending code is polled, and its order says nothing new).
   */
  order?: ShopperOrderState | null;
  /**
   * With `superseded`: the shopper paid this replaced code anyway (`amount`, integer cents), and
   * the store is deciding what the money becomes: the cart's payment (then `paid`) or money owed
   * back (then `refund_due`). Never `paid` before that: a storefront completes its cart on
   * `paid`, and the cart's live code is not paid. With `held`: what arrived of `amount`, which
   * the store accepts for the order (then `paid`) or returns (then `refund_due`). With
   * `confirming`: what arrived for the cart that could not become an order yet.
   */
  received?: { amount: number };
  /** With `preparing`: when the code should be ready (an estimate) and the place in line. */
  ready_at?: string;
  queue_position?: number;
  /**
   * What the store returns of this code's money, in integer cents, and why: all of it with
   * `refund_due` (no order came of it), the excess of a `paid` code that brought more than it
   * asked for (`overpaid`).
   */
  refund?: { amount: number; reason: RefundReason | "other" };
  /**
   * An older code of the same cart was paid, and the store owes that money back (`amount`, in
   * integer cents): "Recebemos R$ X por um código anterior; esse valor será devolvido".
   * `order_paid`: whether the cart is paid (by this code or another way), so the shopper knows
   * whether they still have to pay this one.
   */
  earlier_payment?: EarlierPayment;
  /**
   * With an expired Pix: where the element gets a new code in one tap (Medusa's own
   * `POST /store/payment-collections/:id/payment-sessions` with this provider). Only once the
   * code can no longer be paid, so a shopper never holds two payable codes.
   */
  renew?: { payment_collection_id: string; provider_id: string };
  /** Integer cents. */
  amount: number;
  currency: string;
  expires_at: string | null;
  paid_at: string | null;
  server_time: string;
  pix?: {
    copy_paste: string;
    qr_image_url: string | null;
    qr_code: string | null;
    payment_link: string | null;
  };
  boleto?: { url: string; barcode: string; digitable_line: string; due_date: string | null };
  /**
   * With a Pix code the store's Pix discount applies to (see the README's "Pix discount"):
   * `type` `percentage` with `value` in whole percent ("5 % de desconto no Pix"), or `fixed`
   * with `value` in integer cents; `saved` is what it took off this code's amount, in integer
   * cents. Absent when the code is not discounted.
   */
  pix_discount?: { code: string; type: "percentage" | "fixed"; value: number; saved: number };
}

/** Where the QR image of a session is served, relative to the backend's root. */
export function qrImagePath(sessionId: string): string {
  return `/store/pix-checkout/sessions/${encodeURIComponent(sessionId)}/qr.svg`;
}

const str = (value: unknown): string | null =>
  typeof value === "string" && value.length > 0 ? value : null;

const iso = (value: Date | string | null): string | null =>
  value === null ? null : new Date(value).toISOString();

// A boleto is due on a calendar day in Brazil; the charge stores an instant.
/** A `YYYY-MM-DD` due date moved to the bank business day it is really due on. */
function realDueDate(day: string | null): string | null {
  return day && /^\d{4}-\d{2}-\d{2}$/.test(day) ? payableDay(day) : day;
}

const dueDateFormat = new Intl.DateTimeFormat("en-CA", {
  timeZone: "America/Sao_Paulo",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/**
 * Builds the whitelisted session object from the plugin's own charge row. Only named fields
 * are copied: never the raw API response, the provider's options or anything of the payer.
 * `sessionId` is the one the shopper asked for (the row may serve a re-pointed session).
 */
export function toStoreView(
  row: ChargeRow,
  sessionId: string,
  now: Date = new Date(),
  replacedBy: string | null = null,
): StoreSessionView {
  const display = (typeof row.display === "string" ? JSON.parse(row.display) : row.display) as {
    pix?: Record<string, unknown>;
    boleto?: Record<string, unknown>;
  } | null;
  const view: StoreSessionView = {
    session_id: sessionId,
    method: row.method,
    status: row.status,
    amount: Number(row.amount_cents),
    currency: row.currency_code.toUpperCase(),
    expires_at: iso(row.expires_at),
    paid_at: iso(row.paid_at),
    server_time: now.toISOString(),
  };
  const money = moneyOf(row);
  const goesBack = money.owed + money.returned;
  // A replaced code's money pays the cart only once it is captured on the cart's live session
  // (adopted); until then it is the cart's money for nobody, whatever the API says of the code.
  const replacedPayment =
    Boolean(row.superseded_at) &&
    row.status === "paid" &&
    money.captured === 0 &&
    money.contested === 0;
  if (replacedPayment) view.replaced_by = replacedBy;
  if (goesBack > 0) {
    const reason = money.owedReason;
    view.refund = {
      amount: goesBack,
      reason: SHOPPER_REFUND_REASONS.has(reason) ? (reason as RefundReason) : "other",
    };
    // No order came of it: nothing of it is the order's, and nothing waits for a decision.
    if (money.captured === 0 && money.held === 0 && money.contested === 0) {
      view.status = "refund_due";
      return view;
    }
  }
  if (replacedPayment) {
    view.status = "superseded";
    view.received = { amount: money.received ?? view.amount };
    return view;
  }
  // Arrived short: the money waits for the store's decision. Not paid (a storefront completes
  // its cart on `paid`, and a merchant's refund would leave that order waiting on nothing).
  // The reason alone says it: a charge holds money, with its reason, only once paid (the charge
  // table's checks), and money held `underpaid` is a whole payment that arrived short: nothing
  // of it is captured, nor contested by a MED, until the merchant accepts it (then `accepted`,
  // the order's) or returns it.
  if (money.heldReason === "underpaid") {
    view.status = "held";
    view.received = { amount: money.received ?? money.held };
    return view;
  }
  if (
    row.superseded_at &&
    row.status !== "paid" &&
    row.status !== "expired" &&
    row.status !== "failed"
  ) {
    // Never offer a replaced code: it is still payable at the bank, but not what the cart costs.
    view.status = "superseded";
    view.replaced_by = replacedBy;
    return view;
  }
  // A canceled code (its order was canceled, or Medusa canceled its payment) is no longer
  // offered: still payable at the bank until it expires, but its money would be owed back.
  if (row.status === "canceled") return view;
  if (row.status === "expired" && row.method === "pix" && row.payment_collection_id) {
    view.renew = { payment_collection_id: row.payment_collection_id, provider_id: row.provider_id };
  }
  // An expired code the cart has replaced since (another tab, the e-mail's link): "Gerar novo
  // código" shows the cart's current code instead of replacing it once more.
  if (replacedBy && row.status === "expired") view.replaced_by = replacedBy;
  const pix = display?.pix;
  if (row.method === "pix" && pix && str(pix.copy_paste)) {
    view.pix = {
      copy_paste: str(pix.copy_paste)!,
      qr_image_url: qrImagePath(sessionId),
      qr_code: str(pix.qr_code),
      payment_link: str(pix.payment_link),
    };
  }
  const boleto = display?.boleto;
  if (row.method === "boleto" && boleto && str(boleto.url)) {
    view.boleto = {
      url: str(boleto.url)!,
      barcode: str(boleto.barcode) ?? "",
      digitable_line: str(boleto.digitable_line) ?? "",
      // The real due date: the barcode's day, checked against the service's when the charge
      // was recorded, on a bank business day (a charge recorded before due dates moved off
      // weekends may hold a Saturday).
      due_date: realDueDate(
        str(boleto.due_date) ??
          (row.expires_at ? dueDateFormat.format(new Date(row.expires_at)) : null),
      ),
    };
  }
  return view;
}

/**
 * The view with the order its code's cart became (or whose collection it pays), once Medusa has
 * one: its number and payment beside what the code's own money says. `onItsWay`: the code's
 * money is being captured for the order right now (`paymentOnItsWay`), so what the order asks is
 * being paid, not owed, and no amount is named. A canceled order ends its codes in what the
 * shopper reads: a code still told `paid` (its money blocked by a MED, which no decision owes
 * back while the MED is open, or a decision not yet made) reads `canceled`, and nothing of it is
 * offered to pay; an expired Pix offers no new code.
 */
export function withOrderState(
  view: StoreSessionView,
  order: ShopperOrderState,
  onItsWay: boolean,
): StoreSessionView {
  const { owes: _paying, ...confirming } = order;
  const shown = view.status === "paid" && onItsWay ? confirming : order;
  if (shown.payment !== "canceled") return { ...view, order: shown };
  const { renew: _ended, ...rest } = view;
  if (view.status !== "paid") return { ...rest, order: shown };
  // As toStoreView's canceled code: nothing of it is shown to pay.
  const { pix: _pix, boleto: _boleto, ...ended } = rest;
  return { ...ended, status: "canceled", order: shown };
}

/**
 * A paid code whose cart Medusa refused to turn into an order (`cartFailures` tries; the last
 * unit sold while the shopper paid, most often) and that has no order: `confirming`, never
 * `paid`. A storefront completes its cart on `paid`, and would be refused the same way; the
 * store tries again, and after `CART_COMPLETION_ATTEMPTS` owes the money back (`refund_due`).
 */
export function withCartRefused(
  view: StoreSessionView,
  row: ChargeRow,
  cartFailures: number,
): StoreSessionView {
  if (view.status !== "paid" || view.order || cartFailures === 0) return view;
  const received = moneyOf(row).received ?? view.amount;
  return { ...view, status: "confirming", received: { amount: received } };
}

/**
 * The view of a session whose charge is not created yet: `preparing` while its request waits
 * or is being sent (with the line's estimate), `failed` when the service refused it, and
 * `superseded` when the session went away before it was sent.
 */
export function toQueuedView(
  request: CreateRequestRow,
  place: LinePlace | undefined,
  sessionId: string,
  now: Date = new Date(),
  replacedBy: string | null = null,
): StoreSessionView {
  const view: StoreSessionView = {
    session_id: sessionId,
    method: request.method,
    status: "preparing",
    amount: Number(request.amount_cents),
    currency: "BRL",
    expires_at: null,
    paid_at: null,
    server_time: now.toISOString(),
  };
  if (request.state === "failed") {
    view.status = "failed";
  } else if (request.state === "canceled") {
    view.status = "superseded";
    view.replaced_by = replacedBy;
  } else {
    view.ready_at = new Date(now.getTime() + (place?.readyInMs ?? 0)).toISOString();
    view.queue_position = (place?.ahead ?? 0) + 1;
  }
  return view;
}

/** A view's identity for change detection: everything but the clock. */
export function viewFingerprint(view: StoreSessionView): string {
  // The estimate moves with the clock too; only the status and the code are news.
  const { server_time: _ignored, ready_at: _estimate, ...rest } = view;
  return JSON.stringify(rest);
}
