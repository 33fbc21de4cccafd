import { arrivalOf as sharedArrivalOf, paymentOf } from "@pix-checkout/client/settlement";
import type { ChargeRow, LocalChargeStatus } from "../records/charges";
import type { RefundReason } from "../records/flag-reasons";
import {
  CAPTURABLE_HELD,
  capturedInMedusa,
  type Arrival,
  type ChargeMoney,
  type HeldReason,
  moneyOf,
} from "../records/ledger-parts";
import { graceRecheckAt } from "../checkout/check-schedule";
import { DELIVERY_DETAILS } from "./delivery-details";
import { refundPortions, splitRefund, type RefundSplit } from "./refund-portions";

/**
 * The money rules, each once, as pure functions with tables of tests: what a payment's money
 * is when it arrives (`arrivalOf`), what a paid charge becomes (`decide`), what a create that
 * failed does to the order waiting on it (`decideFailedCreate`), how much of what a collection
 * asks its charges have paid (`coverageOf`, `collectionPaidBy`), and which parts a merchant's
 * refund returns (`returnOf`). Every door into the money (a webhook, a repeated delivery,
 * reconciliation, the admin's re-check and accept, Medusa's `authorizePayment` at cart
 * completion, the capture and order subscribers, the boleto grace recheck, the outbox) reads a
 * snapshot under the collection's lock, asks `decide`, and records the answer in the ledger
 * (collection.ts).
 *
 * A collection rarely has one charge: the shopper adds an item after seeing a code, switches Pix
 * and boleto, or another provider (a card, payment on delivery), lets a code expire and takes a
 * new one. Each leaves an older charge on the collection, and the API cannot cancel a charge, so
 * every old code stays payable until it expires. A collection belongs to a cart, which becomes
 * an order, or to an order directly (an order edit's difference, a converted draft), and Medusa
 * rewrites an unpaid order's collection in place (an order edit confirmed on an order-first
 * order changes its amount and leaves its sessions, and their codes, live at the old amount).
 * The rules:
 *
 * 1. Money is where the ledger says. Captured money stays the order's; owed money stays owed
 *    until the merchant returns it.
 * 2. Less money than the code asked for is held for the merchant (Accept received amount, or a
 *    refund); nothing captures it until they accept. More is captured for what the code asked,
 *    and the excess is owed back (`overpaid`).
 * 3. A collection asks an amount; its charges pay it in the order they became its payment (a
 *    captured one first, then a claimed one, then by the API's `paid_at`). What a charge pays is
 *    what it holds for Medusa's capture and what is captured of it: while its cart is no order,
 *    what Medusa holds captured now (money owed back or returned since, because no order came of
 *    it, `out_of_stock` or `cart_not_completed`, is the shopper's again, and the cart asks it
 *    anew, of a new code or of another provider); once an order exists, what the ledger ever
 *    captured (money refunded or owed back since still paid the order once). A charge that
 *    finds the collection paid is owed back (`paid_twice`). A collection paid another way (a payment of another provider, or a captured
 *    payment made from none of its charges' sessions: the merchant's "mark as paid") makes every
 *    other payment of it owed back (`paid_elsewhere`).
 * 4. A charge is captured on its own session while Medusa still has it (or its payment), for at
 *    most what the collection still asks; while its cart is no order yet, Medusa deletes the
 *    cart's sessions whenever its total moves, so a live session asks what the cart costs. Once
 *    an order exists (or the collection is an order's), Medusa can change what the collection
 *    asks under a live code: the code pays what is still asked, the rest is owed back
 *    (`amount_lowered`), and what it does not cover stays asked, for a new code to pay.
 * 4b. A replaced code pays for the collection only in full: when it paid at least what the
 *    collection still asks, it is captured for that on a live session of the same provider (its
 *    account and its method) of which Medusa holds no payment (adopted), and the rest is owed
 *    back (`amount_lowered`). Never on another provider's or another account's session: a code
 *    that would have paid is owed back when the shopper moved to another way to pay
 *    (`paid_replaced`), one that no longer covers what is asked too (`paid_old_amount`).
 * 4c. A collection Medusa canceled, or one nothing owns any more (no cart, no order: the merchant
 *    deleted it), pays for nothing: a payment of it is owed back (`collection_canceled`).
 * 5. A payment that arrives after its order was canceled is owed back
 *    (`paid_after_order_canceled`); captured money whose order is canceled is owed back
 *    (`order_canceled`), and so is captured money beside another provider's standing payment of
 *    the collection (`paid_elsewhere`: the shopper paid twice, and only this money is ours to
 *    give back).
 * 6. An expired or failed charge ends the order that waits on it (a boleto only once its grace
 *    period has passed), never while the collection holds money or is paid another way, never a
 *    charge that was replaced, and never when the merchant turned `cancelOrderOnExpiry` off. An
 *    expired boleto is asked about again inside its grace period in every case. Only a cart's
 *    order waits on a code: an order's own collection (what an edit, exchange or claim left
 *    owed, a converted draft) never ends its order; the code is only closed, and a new one asked.
 *    A create that failed for a session whose cart became an order meanwhile (order-first in a
 *    busy minute) ends that order the same way: no code will ever pay it.
 * 7. Captured money whose cart is no order yet is completed into one; once the cart failed
 *    `CART_COMPLETION_ATTEMPTS` times and still has none, it is owed back (`out_of_stock` when
 *    the last failure says so), and its session is closed so the cart cannot become an order on
 *    money owed back.
 * 8. Money held for a capture that is in flight (a live capture claim) is never owed back from
 *    under it: the decision waits for the capture, and the capture's follow-ups decide again.
 */

/** Failed tries to turn a paid cart into an order before the payment becomes a refund due. */
export const CART_COMPLETION_ATTEMPTS = 5;

/** What `decide` needs of one charge. */
export interface ChargeFacts {
  chargeId: string;
  sessionId: string;
  /** The Medusa provider that made it (`pp_pix_<id>`, `pp_boleto_<id>`): its account and method. */
  providerId: string;
  status: LocalChargeStatus;
  /** What the code asked for, in cents. */
  amountCents: number;
  /** Where its money is (the ledger's parts). */
  money: ChargeMoney;
  /** What the ledger ever moved into `captured` for it, refunded or owed back since included. */
  everCapturedCents: number;
  /** When the API says it was paid (or, failing that, when the plugin recorded it). */
  paidAt: Date | null;
  superseded: boolean;
  /** The session a replaced code was adopted by. */
  captureSessionId: string | null;
  /** When Medusa's capture of it was recorded (null: none). */
  capturedAt: Date | null;
  /**
   * A capture was committed to (claimed) under the collection's lock and may be running: the
   * claim's lease runs and its held money still covers it.
   */
  captureClaimed: boolean;
  /** Until when an unpaid boleto keeps its order (its grace period). */
  orderHoldUntil: Date | null;
  /** Captured and waiting for its cart to become an order: the failed tries so far. */
  cartCompletion: { failures: number; lastMessage: string | null } | null;
}

/** A Medusa payment session of the collection that Medusa still holds. */
export interface LiveSession {
  id: string;
  /** Whose session it is: a provider of this plugin's, or another (a card, the system's). */
  providerId: string;
  /** The session's amount in cents, rounded half-up as the charge's was. */
  amountCents: number;
  /** A session of this plugin's providers (Pix or boleto of a registration of this store). */
  ours: boolean;
}

/** One of Medusa's captures of a payment, and whether a ledger entry names it. */
export interface MedusaCapture {
  id: string;
  cents: number;
  /** A ledger entry of this collection's charges names it (`medusa_ref`): it is recorded. */
  recorded: boolean;
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
  /** Its captures, each attributed by Medusa's capture id, never by the session alone. */
  captures: readonly MedusaCapture[];
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
export type HoldReason = Extract<HeldReason, "underpaid">;

/** What a charge becomes. */
export type Decision =
  /**
   * Capture `amountCents` on `sessionId`: its own, or a live session of the same provider
   * (`adopted`). `excessCents` of its held money is first owed back (`amount_lowered`: the
   * collection asks less than the code did). `partOfSession`: less than the session's amount,
   * so Medusa's session is restated to what is captured first.
   */
  | {
      kind: "capture";
      sessionId: string;
      adopted: boolean;
      amountCents: number;
      excessCents?: number;
      partOfSession?: true;
    }
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
  // The split is @pix-checkout/client/settlement's, the Vendure plugin's too; the parts it
  // lands in are this ledger's.
  const arrival = sharedArrivalOf(askedCents, receivedCents);
  const underpaid = arrival.forOrderCents < askedCents;
  return {
    held: underpaid ? arrival.heldCents : arrival.forOrderCents,
    heldReason: underpaid ? "underpaid" : "awaiting_capture",
    owed: arrival.excessCents,
    owedReason: "overpaid",
  };
}

/**
 * Which parts a refund the merchant returned comes out of: what is owed back first (that is
 * what a refund is for), then what is held for their decision (never money Medusa's capture is
 * taking), then the order's captured money (a refund to the customer after the sale). Each take
 * says whether Medusa holds that money captured (`inMedusa`), which Medusa must then record as
 * refunded: the captured money taken, and owed money that was captured before it was owed
 * (`owedInMedusa`: an order canceled after its capture), taken after the owed money Medusa never
 * held (an overpayment's excess, a code paid twice). Undefined when the charge holds less. The
 * admin's drawer splits the amount typed the same way (refund-portions.ts), so what it says
 * before is what is recorded.
 */
export function returnOf(
  money: ChargeMoney,
  amountCents: number,
  owedInMedusa: number,
): RefundSplit | undefined {
  return splitRefund(refundPortions(money, owedInMedusa), amountCents);
}

/** Held money settlement captures by itself (the merchant's `underpaid` waits for them). */
const heldForCapture = (money: ChargeMoney): boolean =>
  money.held > 0 && money.heldReason !== null && CAPTURABLE_HELD.includes(money.heldReason);

/**
 * Money of this charge that is the collection's payment, or is about to become it: captured, or
 * held for Medusa's capture. What keeps a session, and what a shopper is told paid the cart.
 */
export const countsAsPayment = (charge: { status: LocalChargeStatus; money: ChargeMoney }) =>
  charge.status === "paid" && (capturedInMedusa(charge.money) > 0 || heldForCapture(charge.money));

/** The same of a charge's row, as the ledger holds it. */
export const rowCountsAsPayment = (row: ChargeRow): boolean =>
  countsAsPayment({ status: row.status, money: moneyOf(row) });

/**
 * Money of a charge that keeps its session: the collection's payment (captured, or held for
 * Medusa's capture), or money held for the merchant's decision. Money owed back keeps nothing:
 * no order comes of it.
 */
export const keepsItsSession = (row: ChargeRow): boolean =>
  rowCountsAsPayment(row) || row.held_reason === "underpaid";

/**
 * Whose money a collection counts (rule 3): a cart that is no order yet (`cart`), or an order's
 * (`order`: its cart's became one, or the collection is an order's own).
 */
export type CollectionStage = "cart" | "order";

/** The stage of a collection, from what Medusa says owns it. */
export const stageOf = (owner: {
  cartId: string | null;
  order: { id: string } | null;
}): CollectionStage => (owner.cartId !== null && owner.order === null ? "cart" : "order");

/**
 * What a charge paid toward its collection (rule 3), in cents: what it holds for Medusa's
 * capture, and what is captured of it. While the cart is no order, only what Medusa holds
 * captured now: money owed back or returned since (no order came of it) pays the cart nothing.
 * An order counts what the ledger ever captured (a refund or a debt since does not unpay it).
 */
export function paidTowardCollection(charge: ChargeFacts, stage: CollectionStage): number {
  if (charge.status !== "paid") return 0;
  const held = heldForCapture(charge.money) ? charge.money.held : 0;
  if (stage === "cart") return capturedInMedusa(charge.money) + held;
  return charge.everCapturedCents + held;
}

/**
 * The charges that paid toward the collection, in the order they became its payment: a
 * captured one first, then one a capture is claimed for (whatever the clocks say, they stay
 * it), then by the API's `paid_at`.
 */
function payingOrder(charges: readonly ChargeFacts[], stage: CollectionStage): ChargeFacts[] {
  return charges
    .filter((c) => paidTowardCollection(c, stage) > 0)
    .sort(
      (a, b) =>
        Number(b.everCapturedCents > 0) - Number(a.everCapturedCents > 0) ||
        Number(b.captureClaimed) - Number(a.captureClaimed) ||
        (a.paidAt?.getTime() ?? 0) - (b.paidAt?.getTime() ?? 0) ||
        a.chargeId.localeCompare(b.chargeId),
    );
}

/**
 * What the charges that became the collection's payment before `charge` paid of it. A replaced
 * code whose money no session can take any more (`stranded`) pays nothing before anyone: it is
 * owed back whenever it is decided. Counted, it made the order the two were decided in choose
 * the outcome: two codes paid at once, the replaced one first by `paid_at`, and the live one
 * decided first was owed back as `paid_twice`, then the replaced one as `paid_replaced`, both
 * owed and the cart left unpaid (many-charges' race of two processes, under load).
 */
function paidBefore(
  snapshot: CollectionSnapshot,
  charge: ChargeFacts,
  stage: CollectionStage,
): number {
  let sum = 0;
  for (const c of payingOrder(snapshot.charges, stage)) {
    if (c.chargeId === charge.chargeId) return sum;
    if (!stranded(snapshot, c)) sum += paidTowardCollection(c, stage);
  }
  return sum;
}

/**
 * Held money no session can take (rules 4 and 4b): a code not captured, claimed or given a
 * capture session, whose own session Medusa no longer has (replaced, or its amount restated)
 * and holds no payment of, while no live session of its own provider is free to adopt it.
 */
function stranded(snapshot: CollectionSnapshot, c: ChargeFacts): boolean {
  if (c.everCapturedCents > 0 || c.captureClaimed || c.captureSessionId) return false;
  if (capturedInMedusa(c.money) > 0) return false;
  const ownSessionLive = snapshot.liveSessions.some((s) => s.id === c.sessionId);
  if (!c.superseded && (ownSessionLive || paymentStandsOn(snapshot.payments, c.sessionId))) {
    return false;
  }
  return !snapshot.liveSessions.some(
    (s) => s.providerId === c.providerId && !paymentStandsOn(snapshot.payments, s.id),
  );
}

/** The sessions the collection's charges were made on or captured on. */
const sessionsOfCharges = (charges: readonly ChargeFacts[]): Set<string> =>
  new Set(charges.flatMap((c) => [c.sessionId, c.captureSessionId ?? c.sessionId]));

/** A payment of another provider, or a captured one made from none of these sessions. */
const paidAnotherWay = (payments: readonly MedusaPayment[], ourSessions: Set<string>): boolean =>
  payments.some(
    (payment) =>
      !payment.canceled &&
      (!payment.ours || (payment.captured && !ourSessions.has(payment.sessionId))),
  );

/**
 * How much of what the collection asks its charges have paid (rule 3), and what is left for a
 * code to ask; `asksCents` null (the collection pays for nothing) leaves nothing to ask.
 */
export function coverageOf(
  charges: readonly ChargeFacts[],
  asksCents: number | null,
  stage: CollectionStage,
): { paidCents: number; remainingCents: number } {
  const paidCents = charges.reduce((sum, c) => sum + paidTowardCollection(c, stage), 0);
  return { paidCents, remainingCents: Math.max(0, (asksCents ?? 0) - paidCents) };
}

/**
 * Whether a collection is paid, and how: by its charges, once they paid all it asks (the first
 * of them named; rule 3), or another way. What a reminder may no longer ask for, what its link
 * says is paid already, and what a shopper is told of an older code's money. A collection that
 * asks nothing any more (canceled) reads as paid by any charge that paid toward it.
 */
export function collectionPaidBy(
  charges: readonly ChargeFacts[],
  payments: readonly MedusaPayment[],
  asksCents: number | null,
  stage: CollectionStage,
): { by: "charge"; charge: ChargeFacts } | { by: "elsewhere" } | null {
  const first = payingOrder(charges, stage)[0];
  if (first && (asksCents === null || coverageOf(charges, asksCents, stage).remainingCents === 0)) {
    return { by: "charge", charge: first };
  }
  return paidAnotherWay(payments, sessionsOfCharges(charges)) ? { by: "elsewhere" } : null;
}

/** Whether Medusa holds a capture on the session that no ledger entry names yet. */
const unrecordedCaptureOn = (payments: readonly MedusaPayment[], sessionId: string): boolean =>
  payments.some(
    (p) => p.sessionId === sessionId && !p.canceled && p.captures.some((c) => !c.recorded),
  );

/** A Medusa payment of the session stands (authorized or captured): no code may take it over. */
const paymentStandsOn = (payments: readonly MedusaPayment[], sessionId: string): boolean =>
  payments.some((p) => p.sessionId === sessionId && !p.canceled);

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
  // Money a MED blocked (contested) waits for the merchant's outcome; Medusa holds it captured.
  if (money.held === 0 && money.contested > 0) {
    return { kind: "nothing", why: DELIVERY_DETAILS.alreadyCaptured };
  }
  if (money.held === 0) {
    return {
      kind: "nothing",
      why:
        money.owed > 0 ? DELIVERY_DETAILS.refundDue(money.owedReason!) : DELIVERY_DETAILS.refunded,
    };
  }
  if (!heldForCapture(money)) return { kind: "hold", reason: "underpaid" };
  const decision = decideHeld(snapshot, charge);
  // Rule 8: money a capture in flight is taking stays held; the capture's follow-ups decide
  // again once it is recorded (or its claim is given back).
  if (decision.kind === "refund_due" && charge.captureClaimed) {
    return { kind: "nothing", why: DELIVERY_DETAILS.capturingElsewhere };
  }
  return decision;
}

/** A paid charge's money held for Medusa's capture: captured, and on which session, or owed. */
function decideHeld(snapshot: CollectionSnapshot, charge: ChargeFacts): Decision {
  const held = charge.money.held;
  const owe = (reason: RefundReason): Decision => ({
    kind: "refund_due",
    reason,
    from: "held",
    amountCents: held,
  });
  // Medusa already holds a capture of this charge's session that the ledger has not recorded
  // (cart completion made it, or a door died before recording it): the ledger records what
  // Medusa holds first, and what follows is decided on captured money.
  const captureSession = charge.captureSessionId ?? charge.sessionId;
  if (unrecordedCaptureOn(snapshot.payments, captureSession)) {
    return { kind: "capture", sessionId: captureSession, adopted: false, amountCents: held };
  }
  const stage = stageOf(snapshot);
  const before = paidBefore(snapshot, charge, stage);
  const asks = snapshot.asksCents;
  // A cart that is no order yet asks what its live sessions ask (Medusa deletes them when its
  // total moves), and one code pays it; from its order on, what the collection asks now is what
  // codes may take, together (@pix-checkout/client/settlement `paymentOf`, the Vendure
  // plugin's rule too).
  const cartStillShopping = stage === "cart";
  const toOrder = asks === null ? null : paymentOf(held, before, asks);
  if (before > 0 && (toOrder === null || toOrder.kind === "paid_twice" || cartStillShopping)) {
    return owe("paid_twice");
  }
  if (snapshot.order?.canceledAt) return owe("paid_after_order_canceled");
  if (asks === null || toOrder === null) return owe("collection_canceled");
  if (paidAnotherWay(snapshot.payments, sessionsOfCharges(snapshot.charges))) {
    return owe("paid_elsewhere");
  }
  const remaining = asks - before;
  const payable = cartStillShopping || toOrder.kind !== "pays" ? held : toOrder.payCents;
  const on = (sessionId: string, adopted: boolean, cents: number): Decision => {
    const session = snapshot.liveSessions.find((s) => s.id === sessionId);
    return {
      kind: "capture",
      sessionId,
      adopted,
      amountCents: cents,
      ...(held > cents ? { excessCents: held - cents } : {}),
      ...(session && cents < session.amountCents ? { partOfSession: true as const } : {}),
    };
  };
  if (charge.captureSessionId) return on(charge.captureSessionId, false, payable);
  // Its own session, while Medusa holds it (a session whose amount Medusa changed had its code
  // replaced: open-session.ts), or holds its payment.
  const ownSessionLive = snapshot.liveSessions.some((s) => s.id === charge.sessionId);
  const ownPayment = paymentStandsOn(snapshot.payments, charge.sessionId);
  if (!charge.superseded && (ownSessionLive || ownPayment)) {
    return on(charge.sessionId, false, payable);
  }
  // A replaced code pays only in full (rule 4b), on a live session of its own provider that no
  // Medusa payment stands on and that asks at least what is left: another one, or its own when
  // Medusa restated the session's amount and the session took a new code.
  if (held >= remaining) {
    const live = snapshot.liveSessions.find(
      (s) =>
        s.providerId === charge.providerId &&
        s.amountCents >= remaining &&
        !paymentStandsOn(snapshot.payments, s.id),
    );
    if (live) return on(live.id, true, remaining);
    // It would have paid, but the shopper moved to another way to pay meanwhile.
    if (snapshot.liveSessions.length > 0) return owe("paid_replaced");
  }
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
  // Another provider's payment stands beside it (a session swap raced the payment, or the
  // merchant marked the order paid): the shopper paid twice, and this money is ours to return.
  if (snapshot.payments.some((p) => !p.ours && !p.canceled)) {
    return {
      kind: "refund_due",
      reason: "paid_elsewhere",
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

/** Money of a charge a new payment of the collection must not overlook. */
const holdsMoney = (c: ChargeFacts) => c.money.held > 0 || capturedInMedusa(c.money) > 0;

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
  if (snapshot.charges.some(holdsMoney)) {
    return inGrace ? recheck() : { kind: "nothing", why: DELIVERY_DETAILS.collectionPaid };
  }
  if (inGrace) return recheck();
  return endOrderWaitingOn(snapshot, charge.sessionId, { kind: "cancel_session" });
}

/**
 * A create that failed (the service refused it, or five passing failures, or an outcome no one
 * can know) for a session whose cart became an order while its code was being made (rule 6):
 * no code will ever pay that session, so the order waiting on it ends, or stays for the
 * merchant, as when a code expires. Nothing is done while another code of the collection holds
 * money or may still be paid, or once the order's payment is another session's.
 */
export function decideFailedCreate(snapshot: CollectionSnapshot, sessionId: string): Decision {
  if (snapshot.charges.some(holdsMoney)) {
    return { kind: "nothing", why: DELIVERY_DETAILS.collectionPaid };
  }
  if (snapshot.charges.some((c) => c.status === "pending" && !c.superseded)) {
    return { kind: "nothing", why: DELIVERY_DETAILS.anotherCodeOpen };
  }
  return endOrderWaitingOn(snapshot, sessionId, {
    kind: "nothing",
    why: DELIVERY_DETAILS.noOrderWaits,
  });
}

/** Ends (or keeps, for the merchant) the cart's order that waits on `sessionId`, else `otherwise`. */
function endOrderWaitingOn(
  snapshot: CollectionSnapshot,
  sessionId: string,
  otherwise: Decision,
): Decision {
  const order = snapshot.order;
  // Only a cart's order waits on a code; an order's own collection is a difference owed after
  // the sale (or a converted draft's total), and the order stands whatever its code does.
  if (!order || order.status === "canceled" || !snapshot.cartId) return otherwise;
  if (!orderWaitsOn(snapshot, sessionId)) return otherwise;
  return snapshot.cancelOrderOnExpiry
    ? { kind: "end_order", orderId: order.id }
    : { kind: "keep_order", orderId: order.id };
}

/**
 * Whether the order's payment is this session's: Medusa made the order's payment from the
 * session it authorized, so a code of any other session (an older code, the other method,
 * another provider) is not what the order waits on. An order-first order waiting on
 * `pending_authorization` may hold no payment yet; then the session is.
 */
function orderWaitsOn(snapshot: CollectionSnapshot, sessionId: string): boolean {
  const standing = snapshot.payments.filter((payment) => !payment.canceled);
  if (standing.some((payment) => payment.captured)) return false;
  if (standing.length === 0) return true;
  return standing.some((payment) => payment.sessionId === sessionId);
}
