import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { sendError } from "../platform/errors";
import { sendWaitingRefusal } from "./refusal-answer";
import { createPluginLogger } from "../platform/logger";
import { emailKey, holdOrigin } from "./client-origin";
import { clientWithVouch } from "./client-of-request";
import { fairOptions } from "./fair-options";
import { createLineOf } from "./line";
import { cartOfCollectionWith } from "../medusa/carts";
import { ownedCollection } from "../medusa/order-collections";
import { whyNotPayable } from "../checkout/order-collection";
import { OWN_PROVIDER } from "../platform/provider-registry";
import { provenMailbox } from "./proven-mailbox";

interface GateCart {
  completed_at?: Date | string | null;
  email?: string | null;
  customer_id?: string | null;
  items?: { requires_shipping?: boolean | null }[] | null;
  shipping_address?: { address_1?: string | null } | null;
}

/**
 * Middleware for `POST /store/payment-collections/:id/payment-sessions` with a Pix or boleto
 * provider, run before Medusa creates anything (so a refusal changes nothing):
 *
 * - a cart that cannot become an order (no items, no e-mail, items to ship and no address)
 *   gets a 400 naming what is missing, and never takes a place in the create line;
 * - an order's own collection (an order edit's, exchange's or claim's difference, a converted
 *   draft's total), or the collection of a cart that became an order (an order-first order),
 *   that cannot be paid now (paid, canceled, its order canceled or owing nothing, no e-mail on
 *   the order: checkout/order-collection.ts) gets the same kind of refusal; an order's own
 *   collection that can is admitted as a cart is, its mailbox being the order's e-mail;
 * - a client with `fairness.clientWaitingMax` creates already waiting, an e-mail with
 *   `fairness.emailWaitingMax`, a line with no place this client may take, or a client whose
 *   earlier refusal still stands gets 429 `too_many_waiting_creates` with `Retry-After`
 *   (counted with the requests admitted and on their way, see `CreateQueue.admit`);
 * - otherwise the request's origin (address, e-mail, its place in the counts) is held for the
 *   provider's create, so the line can serve clients in turn (see `CreateQueue.grant`).
 *
 * Runs after `oneSessionRequestAtATime`: one request per collection at a time is what lets the
 * collection name the request (client-origin.ts). Most refusals never reach it: the early
 * refusal (early-refusal.ts) answers them before the lock and the cart are read.
 */
export async function sessionGate(
  req: MedusaRequest,
  res: MedusaResponse,
  next: MedusaNextFunction,
): Promise<void> {
  const body = req.body as { provider_id?: unknown } | undefined;
  const collectionId = (req.params as Record<string, string | undefined>).id;
  if (
    !collectionId ||
    typeof body?.provider_id !== "string" ||
    !OWN_PROVIDER.test(body.provider_id)
  )
    return next();
  try {
    const cart = await cartOfCollectionWith<GateCart>(req.scope, collectionId, [
      "completed_at",
      "email",
      "customer_id",
      "items.requires_shipping",
      "shipping_address.address_1",
    ]);
    // A completed cart's collection is its order's: a canceled order takes no new code.
    if (cart?.completed_at && (await refusedForItsOrder(req, res, collectionId))) return;
    const buyer = cart ? cartBuyer(res, cart) : await orderBuyer(req, res, collectionId);
    // Refused (answered), or no such collection: Medusa's route answers as it always has.
    if (buyer === "answered") return;
    if (buyer === undefined) return next();

    const config = req.scope.resolve(ContainerRegistrationKeys.CONFIG_MODULE);
    const options = fairOptions(config);
    const db = req.scope.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION);
    const line = createLineOf(db, config);
    const asked = clientWithVouch(
      req,
      options,
      createPluginLogger(req.scope.resolve(ContainerRegistrationKeys.LOGGER)),
    );
    const mailbox = emailKey(buyer.email);
    const admission = await line.requests.admit(
      asked.clientKey,
      mailbox,
      options,
      asked.vouchedBy,
      !asked.vouchedBy && (await provenMailbox(db, buyer)),
    );
    if (!admission.admitted) return sendWaitingRefusal(res, admission);
    const { holdId, vouchedBy } = admission;
    const origin = { clientKey: asked.clientKey, emailKey: mailbox, vouchedBy, holdId };
    const releaseOrigin = holdOrigin(collectionId, origin);
    // A response emits `close` once, whether it finished or its connection dropped.
    res.once("close", () => {
      releaseOrigin();
      // A request that joined the line took the hold over already; this frees the others.
      line.requests.releaseHold(holdId).catch(() => undefined);
    });
  } catch (error) {
    return next(error);
  }
  next();
}

/**
 * A cart that cannot become an order is refused with what is missing (`"answered"`); otherwise
 * its e-mail is the mailbox the create line counts.
 */
function cartBuyer(
  res: MedusaResponse,
  cart: GateCart,
): { email: string; customerId: string | null } | "answered" {
  const items = cart.items ?? [];
  if (items.length === 0) {
    sendError(
      res,
      "cart_empty",
      "The cart has no items; add what the shopper buys before asking for a Pix code or boleto.",
    );
    return "answered";
  }
  if (!cart.email?.trim()) {
    sendError(
      res,
      "cart_email_missing",
      "The cart has no e-mail; set the shopper's e-mail on the cart (POST /store/carts/:id) before asking for a Pix code or boleto.",
    );
    return "answered";
  }
  if (
    items.some((item) => item.requires_shipping !== false) &&
    !cart.shipping_address?.address_1?.trim()
  ) {
    sendError(
      res,
      "cart_address_missing",
      "The cart ships goods but has no shipping address; set it on the cart before asking for a Pix code or boleto.",
    );
    return "answered";
  }
  return { email: cart.email, customerId: cart.customer_id ?? null };
}

/**
 * The collection of a cart that became an order: refused (and answered, `true`) when that order
 * can no longer be paid (checkout/order-collection.ts), so a canceled order-first order gets no
 * new code from anyone.
 */
async function refusedForItsOrder(
  req: MedusaRequest,
  res: MedusaResponse,
  collectionId: string,
): Promise<boolean> {
  const owned = await ownedCollection(req.scope, collectionId);
  const refusal = owned ? whyNotPayable(owned) : null;
  if (!refusal) return false;
  sendError(res, refusal.code, refusal.message);
  return true;
}

/**
 * An order's own collection (no cart): refused when it cannot be paid now (`"answered"`),
 * otherwise the order's e-mail is the mailbox; undefined for no such collection, or one nothing
 * owns.
 */
async function orderBuyer(
  req: MedusaRequest,
  res: MedusaResponse,
  collectionId: string,
): Promise<{ email: string } | "answered" | undefined> {
  const owned = await ownedCollection(req.scope, collectionId);
  if (!owned?.order) return undefined;
  const refusal = whyNotPayable(owned);
  if (refusal) {
    sendError(res, refusal.code, refusal.message);
    return "answered";
  }
  return { email: owned.order.email as string }; // whyNotPayable refuses an order without one.
}
