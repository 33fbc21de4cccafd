import type { LocalChargeStatus } from "../records/charges";
import type { RefundReason } from "../records/flag-reasons";
import {
  CAPTURABLE_HELD,
  type Arrival,
  type ChargeMoney,
  type LedgerPart,
} from "../records/ledger";
import { graceRecheckAt } from "../checkout/check-schedule";
import { DELIVERY_DETAILS } from "./delivery-details";

/**
 * The money rules, each once, as pure functions with tables of tests: what a payment's money
 * is when it arrives (`arrivalOf`), what a paid charge becomes (`decide`), whether a collection
 * is paid and by what (`collectionPaidBy`), and which parts a merchant's refund returns
 * (`returnOf`). Every door into the money (a webhook, a repeated delivery, reconciliation, the
 * admin's re-check and accept, Medusa's `authorizePayment` at cart completion, the capture and
 * order subscribers, the boleto grace recheck, the outbox) reads a snapshot under the
 * collection's lock, asks `decide`, and records the answer in the ledger (collection.ts).
 *
 * A collection rarely has one charge: the shopper adds an item after seeing a code, switches Pix
 * and boleto, or another provider (a card, payment on delivery), lets a code expire and takes a
 * new one. Each leaves an older charge on the collection, and the API cannot cancel a charge, so
 * every old code stays payable until it expires. A collection can also belong to an order (an
 * order edit's difference) instead of a cart. The rules:
 *
 * 1. Money is where the ledger says. Captured money stays the order's; owed money stays owed
 *    until the merchant returns it.
 * 2. Less money than the code asked for is held for the merchant (Accept received amount, or a
 *    refund); nothing captures it until they accept. More is captured for what the code asked,
 *    and the excess is owed back (`overpaid`).
 * 3. A collection is paid by its first charge paid in full (a captured one first, then by the
 *    API's `paid_at`), or another way: a payment of another provider, or a captured payment not
 *    made from one of its charges (the merchant's "mark as paid"). Every other payment of it is
 *    owed back (`paid_twice`, `paid_elsewhere`).
 * 4. A charge is captured on its own session while Medusa still has it (and, for an order's own
 *    collection, while the collection still asks what the code asked). A replaced code pays for the collection only if it still costs
 *    what it did, captured on a live session **of this plugin's providers** of that amount
 *    (adopted); never on another provider's session. Otherwise it is owed back
 *    (`paid_old_amount`). Medusa changes an order's collection's amount without touching its
 *    sessions (an order edit's new difference), so there a session's amount alone does not say
 *    what the collection asks; a cart's sessions are deleted whenever its total moves.
 * 4b. A collection Medusa canceled, or one nothing owns any more (no cart, no order: the merchant
 *    deleted it), pays for nothing: a payment of it is owed back (`collection_canceled`).
 * 5. A payment that arrives after its order was canceled is owed back
 *    (`paid_after_order_canceled`); captured money whose order is canceled is owed back
 *    (`order_canceled`).
 * 6. An expired or failed charge ends the order that waits on it (a boleto only once its grace
 *    period has passed), never while the collection holds money or is paid another way, never a
 *    charge that was replaced, and never when the merchant turned `cancelOrderOnExpiry` off. An
 *    expired boleto is asked about again inside its grace period in every case. Only a cart's
 *    order waits on a code: an order's own collection (what an edit, exchange or claim left
 *    owed, a converted draft) never ends its order; the code is only closed, and a new one asked.
 * 7. Captured money whose cart is no order yet is completed into one; once the cart failed
 *    `CART_COMPLETION_ATTEMPTS` times and still has none, it is owed back (`out_of_stock` when
 *    the last failure says so), and its session is closed so the cart cannot become an order on
 *    money owed back.
 */

/** Failed tries to turn a paid cart into an order before the payment becomes a refund due. */
export const CART_COMPLETION_ATTEMPTS = 5;

/** What `decide` needs of one charge. */
export interface ChargeFacts {
  chargeId: string;
  sessionId: string;
  status: LocalChargeStatus;
  /** What the code asked for, in cents. */
  amountCents: number;
  /** Where its money is (the ledger's parts). */
  money: ChargeMoney;
  /** When the API says it was paid (or, failing that, when the plugin recorded it). */
  paidAt: Date | null;
  superseded: boolean;
  /** The session a replaced code was adopted by. */
  captureSessionId: string | null;
  /** When Medusa's capture of it was recorded (null: none). */
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
  /** A session of this plugin's providers (Pix or boleto of a registration of this store). */
  ours: boolean;
}

/** A Medusa payment of the collection (made from a session at cart completion or capture). */
export interface MedusaPayment {
  sessionId: string;
  /** A payment of this plugin's providers. */
  ours: boolean;
  /** Medusa holds a capture of it. */
  captured: boolean;
  /** Medusa canceled it (it pays nothing). */
  canceled: boolean;
}

/** One collection as every door sees it, read in one go (medusa/collection-snapshot.ts). */
export interface CollectionSnapshot {
  charges: readonly ChargeFacts[];
  liveSessions: readonly LiveSession[];
  payments: readonly MedusaPayment[];
  /** The collection's order: its cart's, or the order it belongs to (an order edit's). */
  order: { id: string; status: string; canceledAt: Date | null } | null;
  /** The cart the collection pays for, if it pays for one. */
  cartId: string | null;
  /**
   * What the collection asks, in cents (rounded half-up, as charges are); null when it pays for
   * nothing: Medusa canceled it, or no cart and no order owns it.
   */
  asksCents: number | null;
  cancelOrderOnExpiry: boolean;
  now: Date;
}

/** Why a paid charge is held for the merchant. */
export type HoldReason = "underpaid";

/** What a charge becomes. */
export type Decision =
  /** Capture `amountCents` on `sessionId`: its own, or a live session of ours (`adopted`). */
  | { kind: "capture"; sessionId: string; adopted: boolean; amountCents: number }
  /** Money arrived, less than asked: the merchant decides. */
  | { kind: "hold"; reason: HoldReason }
  /**
   * `amountCents` of `from` is owed back. `closeSession`: a captured payment's session, closed
   * in Medusa so its cart cannot become an order on money owed back.
   */
  | {
      kind: "refund_due";
      reason: RefundReason;
      from: "held" | "captured";
      amountCents: number;
      closeSession?: string;
    }
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

/**
 * How a payment's money arrives (rule 2): what the code asked for is held for Medusa's capture;
 * less is held for the merchant; more is held up to what was asked and the excess is owed back.
 */
export function arrivalOf(askedCents: number, receivedCents: number): Arrival {
  if (receivedCents < askedCents) {
    return { held: receivedCents, heldReason: "underpaid", owed: 0, owedReason: "overpaid" };
  }
  return {
    held: askedCents,
    heldReason: "awaiting_capture",
    owed: receivedCents - askedCents,
    owedReason: "overpaid",
  };
}

/**
 * Which parts a refund the merchant returned comes out of: what is owed back first (that is
 * what a refund is for), then what is held for their decision (never money Medusa's capture is
 * taking), then the order's captured money (a refund to the customer after the sale). `medusaCents`: how much of it Medusa holds captured, which
 * Medusa must record as refunded: the captured money taken, and owed money that was captured
 * before it was owed (`owedInMedusa`: an order canceled after its capture), taken after the
 * owed money Medusa never held (an overpayment's excess). Undefined when the charge holds less.
 */
export function returnOf(
  money: ChargeMoney,
  amountCents: number,
  owedInMedusa: number,
): { takes: { from: LedgerPart; amountCents: number }[]; medusaCents: number } | undefined {
  const takes: { from: LedgerPart; amountCents: number }[] = [];
  let left = amountCents;
  const usable = (part: "owed" | "held" | "captured") =>
    part === "held" && money.heldReason !== "underpaid" ? 0 : money[part];
  for (const part of ["owed", "held", "captured"] as const) {
    const take = Math.min(left, usable(part));
    if (take > 0) takes.push({ from: part, amountCents: take });
    left -= take;
  }
  if (left > 0) return undefined;
  const taken = (part: LedgerPart) => takes.find((t) => t.from === part)?.amountCents ?? 0;
  const owedOutside = money.owed - Math.min(owedInMedusa, money.owed);
  const medusaCents = Math.max(0, taken("owed") - owedOutside) + taken("captured");
  return { takes, medusaCents };
}

/** Held money settlement captures by itself (the merchant's `underpaid` waits for them). */
const heldForCapture = (money: ChargeMoney): boolean =>
  money.held > 0 && money.heldReason !== null && CAPTURABLE_HELD.includes(money.heldReason);

/**
 * Money of this charge that is the collection's payment, or is about to become it: captured, or
 * held for Medusa's capture. The one definition every reader uses.
 */
export const countsAsPayment = (charge: { status: LocalChargeStatus; money: ChargeMoney }) =>
  charge.status === "paid" && (charge.money.captured > 0 || heldForCapture(charge.money));

/** A payment of another provider, or a captured one made from none of these sessions. */
const paidAnotherWay = (payments: readonly MedusaPayment[], ourSessions: Set<string>): boolean =>
  payments.some(
    (payment) =>
      !payment.canceled &&
      (!payment.ours || (payment.captured && !ourSessions.has(payment.sessionId))),
  );

/**
 * Whether a collection is paid, and how: by one of its charges (`countsAsPayment`), or another
 * way (rule 3). What a reminder may no longer ask for, what its link says is paid already, and
 * what a shopper is told of an older code's money.
 */
export function collectionPaidBy(
  charges: readonly ChargeFacts[],
  payments: readonly MedusaPayment[],
): { by: "charge"; charge: ChargeFacts } | { by: "elsewhere" } | null {
  const charge = charges.find(countsAsPayment);
  if (charge) return { by: "charge", charge };
  const ours = new Set(charges.flatMap((c) => [c.sessionId, c.captureSessionId ?? c.sessionId]));
  return paidAnotherWay(payments, ours) ? { by: "elsewhere" } : null;
}

/** The charge that became, or becomes, the collection's payment. */
export function paymentOf(charges: readonly ChargeFacts[]): ChargeFacts | undefined {
  return charges.filter(countsAsPayment).sort(
    (a, b) =>
      // A captured one has become the payment, and a claimed one is about to: whatever the
      // clocks say, they stay it.
      Number(b.money.captured > 0) - Number(a.money.captured > 0) ||
      Number(b.captureClaimed) - Number(a.captureClaimed) ||
      (a.paidAt?.getTime() ?? 0) - (b.paidAt?.getTime() ?? 0) ||
      a.chargeId.localeCompare(b.chargeId),
  )[0];
}

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
  const money = charge.money;
  if (money.captured > 0) return decideCaptured(snapshot, charge);
  if (money.held === 0) {
    return {
      kind: "nothing",
      why:
        money.owed > 0 ? DELIVERY_DETAILS.refundDue(money.owedReason!) : DELIVERY_DETAILS.refunded,
    };
  }
  if (!heldForCapture(money)) return { kind: "hold", reason: "underpaid" };
  const owe = (reason: RefundReason): Decision => ({
    kind: "refund_due",
    reason,
    from: "held",
    amountCents: money.held,
  });
  const first = paymentOf(snapshot.charges);
  if (first && first.chargeId !== charge.chargeId) return owe("paid_twice");
  // The collection's payment, and Medusa already holds its capture (cart completion made it, or
  // a door died before recording it): the ledger records what Medusa holds first, and what
  // follows is decided on captured money (an order canceled meanwhile makes it owed back then).
  const captureSession = charge.captureSessionId ?? charge.sessionId;
  if (snapshot.payments.some((p) => p.sessionId === captureSession && p.captured && !p.canceled)) {
    return { kind: "capture", sessionId: captureSession, adopted: false, amountCents: money.held };
  }
  if (snapshot.order?.canceledAt) return owe("paid_after_order_canceled");
  if (snapshot.asksCents === null) return owe("collection_canceled");
  const ours = new Set(
    snapshot.charges.flatMap((c) => [c.sessionId, c.captureSessionId ?? c.sessionId]),
  );
  if (paidAnotherWay(snapshot.payments, ours)) return owe("paid_elsewhere");
  // What is held for the capture: the code's amount, or an accepted smaller one.
  const amountCents = money.held;
  if (charge.captureSessionId) {
    return { kind: "capture", sessionId: charge.captureSessionId, adopted: false, amountCents };
  }
  // Its own session pays only while that session and the collection still ask what the code
  // asked (the session may ask what the merchant accepted, which settlement restates it to): a
  // session whose amount Medusa changed, or a collection whose amount it changed without
  // touching its sessions (an order edit), asks another code for it.
  // A cart's collection never changes under a live session (Medusa deletes its sessions when
  // the cart's total moves), so the session's amount says it; an order's own collection does.
  const stillAsked = snapshot.cartId !== null || snapshot.asksCents === charge.amountCents;
  const ownSessionLive =
    stillAsked &&
    snapshot.liveSessions.some(
      (s) =>
        s.id === charge.sessionId &&
        (s.amountCents === charge.amountCents ||
          (money.heldReason === "accepted" && s.amountCents === money.held)),
    );
  const ownPayment = snapshot.payments.some((p) => p.sessionId === charge.sessionId && !p.canceled);
  if (!charge.superseded && (ownSessionLive || ownPayment)) {
    return { kind: "capture", sessionId: charge.sessionId, adopted: false, amountCents };
  }
  // A replaced code was paid: it pays for the collection only if it still costs what it did,
  // and only on a session of this plugin's (never another provider's payment).
  const live =
    stillAsked &&
    snapshot.liveSessions.find(
      (session) =>
        session.ours &&
        session.id !== charge.sessionId &&
        session.amountCents === charge.amountCents,
    );
  if (live) return { kind: "capture", sessionId: live.id, adopted: true, amountCents };
  return owe("paid_old_amount");
}

/** Captured money: the order its cart becomes, or, when there is none to be had, owed back. */
function decideCaptured(snapshot: CollectionSnapshot, charge: ChargeFacts): Decision {
  const order = snapshot.order;
  const captured = charge.money.captured;
  if (order?.canceledAt) {
    const after = charge.capturedAt !== null && order.canceledAt > charge.capturedAt;
    return {
      kind: "refund_due",
      reason: after ? "order_canceled" : "paid_after_order_canceled",
      from: "captured",
      amountCents: captured,
    };
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
  return {
    kind: "refund_due",
    reason,
    from: "captured",
    amountCents: captured,
    closeSession: charge.captureSessionId ?? charge.sessionId,
  };
}

function decideEnded(snapshot: CollectionSnapshot, charge: ChargeFacts): Decision {
  // A bank confirms a boleto paid on its due date days later: inside its grace period the
  // service is asked again, whether or not anything waits on it (a replaced boleto, a cart
  // paid another way), so a payment whose webhook was lost is still found.
  const inGrace =
    charge.status === "expired" && charge.orderHoldUntil && snapshot.now < charge.orderHoldUntil;
  const recheck = (): Decision => ({
    kind: "recheck",
    at: graceRecheckAt(snapshot.now, charge.orderHoldUntil!),
  });
  if (charge.superseded) {
    return inGrace ? recheck() : { kind: "nothing", why: DELIVERY_DETAILS.replacedEnded };
  }
  const holdsMoney = (c: ChargeFacts) => c.money.held > 0 || c.money.captured > 0;
  if (snapshot.charges.some(holdsMoney)) {
    return inGrace ? recheck() : { kind: "nothing", why: DELIVERY_DETAILS.collectionPaid };
  }
  if (inGrace) return recheck();
  const order = snapshot.order;
  // Only a cart's order waits on a code; an order's own collection is a difference owed after
  // the sale (or a converted draft's total), and the order stands whatever its code does.
  if (!order || order.status === "canceled" || !snapshot.cartId) return { kind: "cancel_session" };
  if (!snapshot.cancelOrderOnExpiry) return { kind: "keep_order", orderId: order.id };
  return orderWaitsOn(snapshot, charge)
    ? { kind: "end_order", orderId: order.id }
    : { kind: "cancel_session" };
}

/**
 * Whether the order's payment is this charge's session: Medusa made the order's payment from
 * the session it authorized, so a charge of any other session (an older code, the other
 * method, another provider) is not what the order waits on. An order-first order waiting on
 * `pending_authorization` may hold no payment yet; then the charge's own session is.
 */
function orderWaitsOn(snapshot: CollectionSnapshot, charge: ChargeFacts): boolean {
  const standing = snapshot.payments.filter((payment) => !payment.canceled);
  if (standing.some((payment) => payment.captured)) return false;
  if (standing.length === 0) return true;
  return standing.some((payment) => payment.sessionId === charge.sessionId);
}
