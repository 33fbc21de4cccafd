import { paidShort, type LocalChargeStatus, type Settlement } from "../records/charges";
import type { RefundReason } from "../records/flag-reasons";
import { graceRecheckAt } from "../checkout/check-schedule";
import { DELIVERY_DETAILS } from "./delivery-details";

/**
 * What a payment collection's charges mean for its cart and order, decided in one pure function
 * from one snapshot of the collection. Every door into the money (a webhook, a repeated
 * delivery, reconciliation, the admin's re-check, Medusa's `authorizePayment` at cart
 * completion, the capture subscriber, the boleto grace recheck) reads a snapshot under the
 * collection's lock, asks `decide`, and acts on the answer (collection.ts). A charge Medusa
 * dropped the session of (`deletePayment`) is marked replaced, and its fate is decided here
 * when it is paid.
 *
 * A cart rarely has one charge: the shopper adds an item after seeing a code, switches Pix and
 * boleto, lets a code expire and takes a new one. Each leaves an older charge on the same
 * collection, and the API cannot cancel a charge, so every old code stays payable until it
 * expires. The rules:
 *
 * 1. A captured charge is done; a refund due stays one.
 * 2. A charge paid with less money than its code asked for is held: the merchant decides
 *    (Accept received amount, or a refund). Nothing captures it in full.
 * 3. The first charge of a collection paid in full becomes its payment (a captured one first,
 *    then by the API's `paid_at`); any other is a refund due (`paid_twice`).
 * 4. It is captured on its own session while Medusa still has it. A replaced code (superseded,
 *    or its session gone) pays for the cart only if the cart still costs what it did: it is
 *    captured on the cart's live session of that amount (adopted). Otherwise it is a refund
 *    due (`paid_old_amount`).
 * 5. An expired or failed charge ends the order that waits on it (a boleto only once its grace
 *    period has passed), never while the collection holds money, never a charge that was
 *    replaced, and never when the merchant turned `cancelOrderOnExpiry` off.
 * 6. A captured payment whose cart is no order yet is completed into one; once its cart failed
 *    `CART_COMPLETION_ATTEMPTS` times and still has none, it is a refund due (`out_of_stock`
 *    when the last failure says so), and its session is closed so the cart cannot become an
 *    order on money due back. Once an order exists, it is the order's payment.
 * 7. A captured payment whose order was canceled after the capture is a refund due
 *    (`order_canceled`). One captured after the order was canceled stays captured, with its note
 *    (`paid_after_order_canceled`): the merchant decides whether to ship or refund.
 */

/** Failed tries to turn a paid cart into an order before the payment becomes a refund due. */
export const CART_COMPLETION_ATTEMPTS = 5;

/** What `decide` needs of one charge. */
export interface ChargeFacts {
  chargeId: string;
  sessionId: string;
  status: LocalChargeStatus;
  settlement: Settlement | null;
  settlementReason: string | null;
  /** What the code asked for, in cents. */
  amountCents: number;
  /** What the API says was paid, in cents (null until it confirmed a payment). */
  apiAmountCents: number | null;
  /** When the API says it was paid (or, failing that, when the plugin recorded it). */
  paidAt: Date | null;
  superseded: boolean;
  /** The session a replaced code was adopted by. */
  captureSessionId: string | null;
  captured: boolean;
  /** When the capture was recorded. */
  capturedAt: Date | null;
  /** A capture was committed to (claimed) under the collection's lock and may be running. */
  captureClaimed: boolean;
  /** Until when an unpaid boleto keeps its order (its grace period). */
  orderHoldUntil: Date | null;
  /** Captured and waiting for its cart to become an order: the failed tries so far. */
  cartCompletion: { failures: number; lastMessage: string | null } | null;
}

/** A Medusa payment session of the collection that Medusa still holds. */
export interface LiveSession {
  id: string;
  /** The session's amount in cents, rounded half-up as the charge's was. */
  amountCents: number;
}

/** A Medusa payment of the collection (made from a session at cart completion or capture). */
export interface MedusaPayment {
  sessionId: string;
  captured: boolean;
}

/** One collection as every door sees it, read in one go (medusa/collection-snapshot.ts). */
export interface CollectionSnapshot {
  charges: readonly ChargeFacts[];
  liveSessions: readonly LiveSession[];
  payments: readonly MedusaPayment[];
  order: { id: string; status: string; canceledAt: Date | null } | null;
  /** The cart the collection pays for, if it pays for one. */
  cartId: string | null;
  cancelOrderOnExpiry: boolean;
  now: Date;
}

/** Why a paid charge is held for the merchant. */
export type HoldReason = "underpaid";

/** What a charge becomes. */
export type Decision =
  /** Capture on `sessionId`: its own, or the cart's live session (`adopted`). */
  | { kind: "capture"; sessionId: string; adopted: boolean; amountCents: number }
  /** Money arrived, less than asked: the merchant decides. */
  | { kind: "hold"; reason: HoldReason }
  /**
   * No order can come of this payment: it waits for the merchant as a refund due.
   * `closeSession`: a captured payment's session, closed in Medusa so its cart cannot become
   * an order on money due back.
   */
  | { kind: "refund_due"; reason: RefundReason; closeSession?: string }
  /** Captured, and its cart is no order yet: complete the cart (Medusa's cart completion). */
  | { kind: "complete_cart"; cartId: string }
  /** An unpaid boleto inside its grace period: look again at `at`. */
  | { kind: "recheck"; at: Date }
  /** Cancel the order that waits on this charge (releasing its stock) and the session. */
  | { kind: "end_order"; orderId: string }
  /** The order stays (the merchant keeps orders on expiry); the session is canceled. */
  | { kind: "keep_order"; orderId: string }
  /** No order waits on it: only the session is canceled. */
  | { kind: "cancel_session" }
  /** Nothing to do; `why` goes on the result. */
  | { kind: "nothing"; why: string };

/** Paid with less money than the code asked for, and not accepted by the merchant. */
export const isUnderpaid = (charge: ChargeFacts): boolean =>
  paidShort(charge.amountCents, charge.apiAmountCents);

/**
 * Money of this charge that is the collection's payment, or may become it: paid and neither
 * held nor due a refund. The one definition every reader uses.
 */
export const countsAsPayment = (charge: Pick<ChargeFacts, "status" | "settlement">): boolean =>
  charge.status === "paid" && charge.settlement !== "refund_due" && charge.settlement !== "held";

/**
 * Whether a collection is paid, and how: by one of its charges (`countsAsPayment`), or another
 * way, when Medusa holds a captured payment or a payment made from a session that is none of
 * its charges' (another provider, the merchant's manual payment). What a reminder may no longer
 * ask for, and what its link says is paid already.
 */
export function collectionPaidBy<
  T extends Pick<ChargeFacts, "status" | "settlement"> & {
    session_id: string;
    capture_session_id: string | null;
  },
>(
  charges: readonly T[],
  payments: readonly { sessionId: string; captured: boolean }[],
): { by: "charge"; charge: T } | { by: "elsewhere" } | null {
  const charge = charges.find(countsAsPayment);
  if (charge) return { by: "charge", charge };
  const ours = new Set(charges.flatMap((c) => [c.session_id, c.capture_session_id]));
  return payments.some((payment) => payment.captured || !ours.has(payment.sessionId))
    ? { by: "elsewhere" }
    : null;
}

/** Money the collection holds for the merchant to decide about, or as its payment. */
const holdsMoney = (charge: ChargeFacts): boolean =>
  charge.status === "paid" && charge.settlement !== "refund_due";

/** The charge that became, or becomes, the collection's payment. */
export function paymentOf(charges: readonly ChargeFacts[]): ChargeFacts | undefined {
  return charges
    .filter((charge) => countsAsPayment(charge) && !isHeld(charge))
    .sort(
      (a, b) =>
        // A captured one has become the payment, and a claimed one is about to: whatever the
        // clocks say, they stay it.
        Number(b.captured) - Number(a.captured) ||
        Number(b.captureClaimed) - Number(a.captureClaimed) ||
        (a.paidAt?.getTime() ?? 0) - (b.paidAt?.getTime() ?? 0) ||
        a.chargeId.localeCompare(b.chargeId),
    )[0];
}

/** Held: underpaid and the merchant has not accepted it (acceptance makes it capturable). */
const isHeld = (charge: ChargeFacts): boolean =>
  charge.settlement === "held" || (charge.settlement === null && isUnderpaid(charge));

/** Decides what one charge of the collection becomes. Pure: no I/O, no clock but `now`. */
export function decide(snapshot: CollectionSnapshot, chargeId: string): Decision {
  const charge = snapshot.charges.find((c) => c.chargeId === chargeId);
  if (!charge) return { kind: "nothing", why: DELIVERY_DETAILS.notThisCollection };
  if (charge.status === "paid") return decidePaid(snapshot, charge);
  if (charge.status === "expired" || charge.status === "failed") {
    return decideEnded(snapshot, charge);
  }
  return { kind: "nothing", why: DELIVERY_DETAILS.chargeIs(charge.status) };
}

function decidePaid(snapshot: CollectionSnapshot, charge: ChargeFacts): Decision {
  if (charge.settlement === "refunded") return { kind: "nothing", why: DELIVERY_DETAILS.refunded };
  if (charge.settlement === "refund_due") {
    return {
      kind: "refund_due",
      reason: (charge.settlementReason as RefundReason) ?? "paid_twice",
    };
  }
  if (charge.captured || charge.settlement === "captured") return decideCaptured(snapshot, charge);
  if (isHeld(charge)) return { kind: "hold", reason: "underpaid" };
  const first = paymentOf(snapshot.charges);
  if (first && first.chargeId !== charge.chargeId) {
    return { kind: "refund_due", reason: "paid_twice" };
  }
  // Accepted by the merchant for less: capture what arrived, never the code's full amount.
  const amountCents = Math.min(charge.amountCents, charge.apiAmountCents ?? charge.amountCents);
  if (charge.captureSessionId) {
    return { kind: "capture", sessionId: charge.captureSessionId, adopted: false, amountCents };
  }
  // Its own session pays only while that session still asks what the code asked: a session
  // whose amount Medusa changed asks another code for it.
  const ownSessionLive = snapshot.liveSessions.some(
    (s) => s.id === charge.sessionId && s.amountCents === charge.amountCents,
  );
  const ownPayment = snapshot.payments.some((p) => p.sessionId === charge.sessionId);
  if (!charge.superseded && (ownSessionLive || ownPayment)) {
    return { kind: "capture", sessionId: charge.sessionId, adopted: false, amountCents };
  }
  // A replaced code was paid: it pays for the cart only if the cart still costs what it did.
  const live = snapshot.liveSessions.find(
    (session) => session.id !== charge.sessionId && session.amountCents === charge.amountCents,
  );
  if (live) return { kind: "capture", sessionId: live.id, adopted: true, amountCents };
  return { kind: "refund_due", reason: "paid_old_amount" };
}

/** A captured payment: the order its cart becomes, or, when the cart keeps failing, a refund. */
function decideCaptured(snapshot: CollectionSnapshot, charge: ChargeFacts): Decision {
  const order = snapshot.order;
  if (order?.canceledAt && charge.capturedAt && order.canceledAt > charge.capturedAt) {
    return { kind: "refund_due", reason: "order_canceled" };
  }
  const tries = charge.cartCompletion;
  if (order || !snapshot.cartId || !tries) {
    return { kind: "nothing", why: DELIVERY_DETAILS.alreadyCaptured };
  }
  if (tries.failures < CART_COMPLETION_ATTEMPTS) {
    return { kind: "complete_cart", cartId: snapshot.cartId };
  }
  // The cart fails for a lasting reason (the last unit sold while this shopper paid).
  const reason = /stock|inventory|estoque/i.test(tries.lastMessage ?? "")
    ? "out_of_stock"
    : "cart_not_completed";
  return { kind: "refund_due", reason, closeSession: charge.captureSessionId ?? charge.sessionId };
}

function decideEnded(snapshot: CollectionSnapshot, charge: ChargeFacts): Decision {
  if (charge.superseded) return { kind: "nothing", why: DELIVERY_DETAILS.replacedEnded };
  if (snapshot.charges.some(holdsMoney)) {
    return { kind: "nothing", why: DELIVERY_DETAILS.collectionPaid };
  }
  if (
    charge.status === "expired" &&
    charge.orderHoldUntil &&
    snapshot.now < charge.orderHoldUntil
  ) {
    return { kind: "recheck", at: graceRecheckAt(snapshot.now, charge.orderHoldUntil) };
  }
  const order = snapshot.order;
  if (!order || order.status === "canceled") return { kind: "cancel_session" };
  if (!snapshot.cancelOrderOnExpiry) return { kind: "keep_order", orderId: order.id };
  return orderWaitsOn(snapshot, charge)
    ? { kind: "end_order", orderId: order.id }
    : { kind: "cancel_session" };
}

/**
 * Whether the order's payment is this charge's session: Medusa made the order's payment from
 * the session it authorized, so a charge of any other session (an older code, the other
 * method) is not what the order waits on. An order-first order waiting on
 * `pending_authorization` may hold no payment yet; then the charge's own session is.
 */
function orderWaitsOn(snapshot: CollectionSnapshot, charge: ChargeFacts): boolean {
  if (snapshot.payments.some((payment) => payment.captured)) return false;
  if (snapshot.payments.length === 0) return true;
  return snapshot.payments.some((payment) => payment.sessionId === charge.sessionId);
}
