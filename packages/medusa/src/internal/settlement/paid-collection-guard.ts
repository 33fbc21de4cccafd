import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import type { ConfigModule, MedusaContainer } from "@medusajs/framework/types";
import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { sendError } from "../platform/errors";
import { recordsOf, type Records } from "../records/records";
import type { ChargeRow } from "../records/charges";
import { readMedusaSide, type MedusaSide } from "../medusa/collection-snapshot";
import { collectionStanding, type CollectionStanding } from "./snapshot";
import { keepsItsSession } from "./decide";
import { holdLeaseForRequest } from "../records/request-lease";
import { cartLockHeld } from "../medusa/cart-lock";

/**
 * Whether Medusa may not delete the session whose money `row` is (`deletePayment`, and every
 * new session of its collection, which Medusa makes only after deleting the others): money that
 * keeps its session and that Medusa does not yet hold captured on a placed order. Money held
 * for a capture (one Medusa keeps refusing, say) needs the session Medusa captures; money
 * captured on an order lives on in Medusa's payment, so its session may go. A cart's captured
 * money stays with the cart's session until the cart is an order. `known`, when the caller holds
 * it, is Medusa's side of `known.collectionId`; it is read again for a row of another collection.
 */
export async function sessionMustStay(
  db: Knex,
  row: ChargeRow,
  known?: { collectionId: string; side: MedusaSide },
): Promise<boolean> {
  if (!keepsItsSession(row)) return false;
  const inMedusa = Number(row.captured_cents) + Number(row.contested_cents ?? 0);
  if (inMedusa > 0 && Number(row.held_cents) === 0 && row.payment_collection_id) {
    const side =
      known?.collectionId === row.payment_collection_id
        ? known.side
        : await readMedusaSide(db, row.payment_collection_id);
    if (side.order || !side.cartId) return false;
  }
  return true;
}

/**
 * The paid charge on a Medusa session whose money must stay (`sessionMustStay`), if any. Every
 * paid charge on the session is asked (`paidOnSession`), not only the one it adopted: an older
 * code the session adopted stays marked so after the session's own code was captured instead,
 * and the mark alone would let Medusa delete the session that holds the money.
 */
export async function moneyThatKeepsSession(
  db: Knex,
  records: Records,
  sessionId: string,
  known?: { collectionId: string; side: MedusaSide },
): Promise<ChargeRow | undefined> {
  for (const row of await records.charges.paidOnSession(sessionId)) {
    if (await sessionMustStay(db, row, known)) return row;
  }
  return undefined;
}

/** Why a collection takes no new session: a stable code and words for the developer. */
export interface NewCodeRefusal {
  code: "collection_already_paid" | "payment_capture_pending";
  message: string;
}

/**
 * Middleware for `POST /store/payment-collections/:id/payment-sessions`, whatever the provider
 * (another code, a card, payment on delivery), run under the collection's lease (it follows
 * `oneSessionRequestAtATime`), so no payment is decided between this look and Medusa's swap: a
 * collection paid in full (by its Pix or boleto, or another way) gets no new session, nor one
 * whose payment waits for the merchant's decision. Medusa would first delete the paid session,
 * which the plugin refuses (it is Medusa's record of the money), and answer a 500; and a second
 * payment of a paid collection is money owed back. Refused before Medusa changes anything, with
 * 400 `collection_already_paid`: a cart's storefront completes the cart, or shows the order. A
 * collection partly paid (an order edited up after its code was paid) takes a new code for
 * what it still asks (open-session.ts).
 */
export async function refuseSessionsOfPaidCollection(
  req: MedusaRequest,
  res: MedusaResponse,
  next: MedusaNextFunction,
): Promise<void> {
  const collectionId = (req.params as Record<string, string | undefined>).id;
  if (!collectionId) return next();
  try {
    const refusal = await refusalOfNewCode(req.scope, collectionId);
    if (refusal) return sendError(res, refusal.code, refusal.message);
  } catch (error) {
    return next(error);
  }
  next();
}

/**
 * Why a collection takes no new code; null when it takes one. Paid in full, or waiting for the
 * merchant: `collection_already_paid` (the same rule as the provider's, open-session.ts). Else,
 * a session Medusa would delete first whose money must stay (`sessionMustStay`: an order's paid
 * code whose capture Medusa has not taken yet, after an edit made the order ask more):
 * `payment_capture_pending`, before Medusa deletes anything, instead of its 500 "Could not
 * delete all payment sessions". Settlement keeps retrying that capture; once Medusa takes it,
 * the link makes a code for what the order still owes.
 */
export async function refusalOfNewCode(
  scope: MedusaContainer,
  collectionId: string,
): Promise<NewCodeRefusal | null> {
  const db = scope.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION);
  const config = scope.resolve<ConfigModule>(ContainerRegistrationKeys.CONFIG_MODULE);
  const records = recordsOf(db);
  const side = await readMedusaSide(db, collectionId);
  const standing = await collectionStanding(records, config, collectionId, side);
  const refusal = refusalOf(standing);
  if (refusal) return { code: "collection_already_paid", message: refusal };
  for (const session of side.liveSessions) {
    if (await moneyThatKeepsSession(db, records, session.id, { collectionId, side })) {
      return {
        code: "payment_capture_pending",
        message:
          "An earlier payment of this collection is still being recorded for its order, and no other payment can start until it is. The store retries it by itself (it is on the admin's Needs attention list if it keeps failing); ask again in a few minutes.",
      };
    }
  }
  return null;
}

/** The words of a refused new code, from where its collection stands; null: none refused. */
export function refusalOf(standing: CollectionStanding): string | null {
  if (standing.heldForMerchant) {
    return "A payment of this collection arrived short and waits for the store's decision; no other payment can be started for it. Ask the store.";
  }
  if (!standing.paid) return null;
  return standing.hasOrder
    ? "This order's payment is already made; no other payment can be started for it. Show the customer their order."
    : "This cart's Pix or boleto is already paid; no other payment can be started for it. Complete the cart (POST /store/carts/:id/complete), or show the shopper their order.";
}

/**
 * Whether the cart's payment collection holds a Pix or boleto that keeps its session. One
 * statement (not Query's cart, link and collection reads, then the charges): every change of
 * every cart of the store, Pix or not, waits for it (bench/store-cost.mjs).
 */
export async function cartIsPaid(req: MedusaRequest, cartId: string): Promise<boolean> {
  const db = req.scope.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION);
  return (await recordsOf(db).charges.ofCart(cartId)).some(keepsItsSession);
}

/**
 * Middleware for the store's cart routes that change a cart (`POST /store/carts/:id`, its line
 * items, promotions, shipping methods...; not its completion): a cart whose Pix or boleto is
 * paid no longer changes. A new total makes Medusa delete the cart's sessions, the paid one
 * included, which the plugin refuses, and Medusa would answer the shopper a 500; and the money
 * paid is for the cart as it was. Refused before Medusa changes anything, with 400
 * `collection_already_paid`: the storefront completes the cart (its order is what was paid).
 *
 * A cart with a code holds its collection's lease from the look to Medusa's answer
 * (holdLeaseForRequest): a payment landing between them would be decided on a collection whose
 * sessions Medusa is deleting, and Medusa's delete of the now paid session would fail with a
 * 500 ("Could not delete all payment sessions"). Under the lease, the payment waits for the
 * edit and is decided as a replaced code, or the edit waits for the payment and is refused.
 * Medusa's cart lock found held under the lease (the cart's completion is running, holding it
 * and waiting for this lease to decide its payment) answers `collection_busy` at once: waiting
 * would invert the two locks' order, and Medusa's edit gives up after 2 s with a 500. A
 * completion that takes the cart lock just after the look still meets the same inversion; the
 * look makes that a window of a query, not of the whole edit. A cart without a code (every cart of a store that sells without Pix) pays one statement, as
 * before: no payment can land on it.
 */
export async function refuseEditsOfPaidCart(
  req: MedusaRequest,
  res: MedusaResponse,
  next: MedusaNextFunction,
): Promise<void> {
  const cartId = (req.params as Record<string, string | undefined>).id;
  if (!cartId || /\/complete\/?$/.test(req.path)) return next();
  try {
    const db = req.scope.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION);
    const collectionId = (await recordsOf(db).charges.ofCart(cartId))[0]?.payment_collection_id;
    if (!collectionId) return next();
    holdLeaseForRequest(db, collectionId, res, next, async () => {
      if (await cartIsPaid(req, cartId)) {
        sendError(
          res,
          "collection_already_paid",
          "This cart's Pix or boleto is already paid, so the cart can no longer change. Complete it (POST /store/carts/:id/complete) to place the order that was paid.",
        );
        return true;
      }
      // Medusa's cart lock held: its completion is running (or another change). Medusa's edit
      // would wait 2 s for that lock while this request holds the collection's lease, which the
      // completion's payment waits for, and then answer 500. Said at once instead, unchanged.
      if (await cartLockHeld(req.scope, cartId)) {
        sendError(
          res,
          "collection_busy",
          "This cart is being completed or changed by another request right now; nothing was changed. Ask again in a moment: once completed, the cart is an order and no longer changes.",
        );
        return true;
      }
      return false;
    });
  } catch (error) {
    return next(error);
  }
}
