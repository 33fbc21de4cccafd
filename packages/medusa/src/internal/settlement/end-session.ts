import { PixCheckoutError } from "../platform/errors";
import type { LifecycleSource } from "../records/charge-lifecycle";
import { sessionInfo } from "../medusa/session-info";
import { createLineOf } from "../create-line/line";
import type { SettlementCore } from "./context";
import { sessionMoney } from "./session-money";
import { moneyThatKeepsSession } from "./paid-collection-guard";
import { collectionsOfOrder } from "../medusa/collection-links";
import type { SettleContext } from "./context";

/**
 * Medusa deleted a session (`deletePayment`: the cart total changed, the shopper switched
 * method or took a new code). The API cannot cancel a charge, so its code stays payable until
 * it expires: it is marked replaced, is no longer offered, and a payment of it still gets its
 * fate (decide.ts). A create the session still has in the line leaves it.
 *
 * The session is named by its own id; a session Medusa does not hold is nobody's to end (the
 * storefront's own data, which Medusa hands back when a create fails, names nothing here).
 * A session whose money is the collection's payment, or held for the merchant, is refused and
 * kept while its cart may still need it to become an order (a new session of a paid collection
 * is refused before that: paid-collection-guard.ts). Once the collection has its order, money
 * Medusa captured lives on in Medusa's payment, whatever becomes of the session: it may go, so
 * the order's link can take a code for what the order still asks (an order edited up after its
 * code was paid). Money owed back keeps nothing: its session may go.
 */
export async function sessionDeleted(
  core: SettlementCore,
  sessionId: string,
  source: LifecycleSource = "provider",
): Promise<void> {
  if (!(await sessionInfo(core.db, sessionId))) return;
  await createLineOf(core.db, core.config).cancelForSession(sessionId);
  const money = await sessionMoney(core, sessionId);
  if (!money || money.kind === "request") return;
  // One conditional UPDATE, not the collection's lease: Medusa calls this from inside its own
  // workflows (cart-completion compensation), where waiting on a lease another door holds
  // would hold Medusa's transaction open. A payment landing at the same moment either comes
  // first (the session is kept) or finds the charge replaced (decide.ts gives it its fate).
  if (
    money.kind === "own" &&
    (await core.lifecycle.superseded(money.row.charge_id, source, sessionId))
  ) {
    return;
  }
  // Money owed back keeps no session (no order comes of it), nor money captured on an order;
  // read again now, every paid charge on the session (a payment may have just landed).
  const row = await moneyThatKeepsSession(core.db, core.records, sessionId);
  if (!row) return;
  throw new PixCheckoutError(
    "collection_already_paid",
    `Payment session ${sessionId} holds a payment already made (charge ${row.charge_id}); it is kept.`,
  );
}

/**
 * Medusa canceled a session's payment (`cancelPayment`: an authorization undone, an order
 * canceled before its capture). The API has no cancel endpoint: the charge stays payable until
 * it expires, and its local record becomes `canceled`, so a payment that still arrives is
 * recorded and flagged.
 */
export async function sessionCanceled(core: SettlementCore, sessionId: string): Promise<void> {
  await createLineOf(core.db, core.config).cancelForSession(sessionId);
  const money = await sessionMoney(core, sessionId);
  if (money?.kind === "own") await core.lifecycle.canceled(money.row.charge_id, "provider");
}

/**
 * Medusa records a refund of a session's payment (`refundPayment`: the merchant's "Record
 * refund", or Medusa on its own when an order is canceled or a paid cart fails to complete).
 * The API has no refund endpoint, so no refund moves money from here: it succeeds only for an
 * amount the merchant declared returned in the service's dashboard and not yet recorded
 * (operations/merchant-refund.ts), taken once whatever idempotency key Medusa sends (a new one
 * on every retry), and refuses anything else with `refund_not_supported`, so Medusa records
 * no refund that did not happen.
 */
export async function sessionRefund(
  core: SettlementCore,
  sessionId: string,
  amountCents: number,
): Promise<string> {
  // Medusa refunds the session's payment; the refund was declared on the charge the ledger
  // returned it from, which may be the code the session adopted or its own (an adopted code
  // owed back as paid twice shares the session with its captured own): taken from whichever
  // holds it.
  const charges = await core.records.charges.paidOnSession(sessionId);
  for (const row of charges) {
    if (await core.records.events.takeDeclaredRefund(row.charge_id, amountCents)) {
      return row.charge_id;
    }
  }
  const money = charges.length === 0 ? await sessionMoney(core, sessionId) : undefined;
  const chargeId =
    charges[0]?.charge_id ?? (money && money.kind !== "request" ? money.row.charge_id : undefined);
  throw new PixCheckoutError(
    "refund_not_supported",
    `Nothing was refunded: the payment service has no refund API. Return ${amountCents} cents to the shopper in the service's dashboard, then record it in Pix Checkout${chargeId ? ` (charge ${chargeId}, "Record refund")` : ""}.`,
  );
}

/**
 * The merchant canceled an order (`order.canceled`): its codes end with it. Every pending code of
 * its collections becomes `canceled` (the store view offers it no more, and says the order is
 * canceled) and every create still waiting in the line leaves it. The API cannot cancel a
 * charge: a code paid anyway is recorded and its money owed back (decide.ts,
 * `paid_after_order_canceled`). One conditional update each, as `sessionCanceled`: a payment
 * recorded first keeps its charge `paid`, and the refund-due pass that follows decides it.
 */
export async function endCodesOfCanceledOrder(
  ctx: SettleContext,
  orderId: string,
): Promise<number> {
  const line = createLineOf(ctx.db, ctx.config);
  let ended = 0;
  for (const collectionId of await collectionsOfOrder(ctx.container, orderId)) {
    await line.cancelForCollection(collectionId);
    for (const row of await ctx.records.charges.ofCollection(collectionId)) {
      if (row.status !== "pending") continue;
      if (await ctx.lifecycle.canceled(row.charge_id, "admin")) ended += 1;
    }
  }
  return ended;
}
