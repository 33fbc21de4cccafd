import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import type { ConfigModule, MedusaContainer } from "@medusajs/framework/types";
import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { sendError } from "../platform/errors";
import { recordsOf } from "../records/records";
import type { ChargeRow } from "../records/charges";
import { readMedusaSide } from "../medusa/collection-snapshot";
import { collectionStanding, type CollectionStanding } from "./snapshot";
import { rowCountsAsPayment } from "./decide";

/**
 * Money of a charge that keeps its session: the collection's payment (captured, or held for
 * Medusa's capture), or money held for the merchant's decision. Money owed back keeps nothing:
 * no order comes of it.
 */
export function keepsItsSession(row: ChargeRow): boolean {
  return rowCountsAsPayment(row) || row.held_reason === "underpaid";
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
    if (refusal) return sendError(res, "collection_already_paid", refusal);
  } catch (error) {
    return next(error);
  }
  next();
}

/**
 * Why a collection takes no new code, in words for the developer who meets it; null when it
 * takes one. One rule for the store route and the provider (open-session.ts).
 */
export async function refusalOfNewCode(
  scope: MedusaContainer,
  collectionId: string,
): Promise<string | null> {
  const db = scope.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION);
  const config = scope.resolve<ConfigModule>(ContainerRegistrationKeys.CONFIG_MODULE);
  const standing = await collectionStanding(
    recordsOf(db),
    config,
    collectionId,
    await readMedusaSide(db, collectionId),
  );
  return refusalOf(standing);
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
 */
export async function refuseEditsOfPaidCart(
  req: MedusaRequest,
  res: MedusaResponse,
  next: MedusaNextFunction,
): Promise<void> {
  const cartId = (req.params as Record<string, string | undefined>).id;
  if (!cartId || /\/complete\/?$/.test(req.path)) return next();
  try {
    if (await cartIsPaid(req, cartId)) {
      return sendError(
        res,
        "collection_already_paid",
        "This cart's Pix or boleto is already paid, so the cart can no longer change. Complete it (POST /store/carts/:id/complete) to place the order that was paid.",
      );
    }
  } catch (error) {
    return next(error);
  }
  next();
}
