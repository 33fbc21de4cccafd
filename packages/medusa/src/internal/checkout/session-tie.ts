import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { sendError } from "../platform/errors";
import type { ChargeRow } from "../records/charges";
import { recordsOf } from "../records/records";
import { readMedusaSide } from "../medusa/collection-snapshot";

/*
 * Who asks for a collection's new code, as far as the plugin can tell. A payment collection's id
 * is no proof of who asks: Medusa hands it to anyone holding the order's id
 * (`GET /store/orders/:id` answers without a login and lists `payment_collections`), and the
 * payment link carries it. So a session request is tied to the shopper of an earlier code only
 * by what a stranger with those ids cannot send:
 *
 * - `renewal`: the request names the earlier code's session (`data.renews`), which the element's
 *   "Gerar novo código" and a reminder's new-code page (reached through its signed link) know,
 *   and the plugin's records put that session's code on this collection;
 * - `cart_holder`: no session named, on a collection whose cart is not an order yet: its id is
 *   reachable only through the cart, the shopper's own key in Medusa (whoever holds it may also
 *   change the cart, which replaces its codes anyway);
 * - `foreign`: no session named, on a collection an order owns (the order-first order of a
 *   cart, an order edit's difference, a converted draft), whose id anyone with the order's id
 *   can learn.
 *
 * What each may have (settlement/open-session.ts and the guard below):
 *
 * | asker       | a live code shown again | a document it did not send     | a new code beside a live one |
 * | ----------- | ----------------------- | ------------------------------ | ---------------------------- |
 * | renewal     | yes                     | from the code it renews (Pix)  | on an order's: same provider |
 * | cart_holder | yes                     | no                             | yes (the cart's to change)   |
 * | foreign     | no                      | no                             | no: 409 `payment_code_in_progress`, on a cart's order |
 *
 * An order's own collection (an order edit's difference, a converted draft) is collected through
 * its payment link, which Medusa builds from the order's and the collection's ids and whose page
 * shows the live code to whoever opens it: there the link's holder may switch method beside a
 * live code, as the page offers, though still with no code shown again nor document filled in.
 * A cart's order (order-first) has a shopper who made its code at the checkout, and a stranger
 * with the order's id is refused while that code is live.
 *
 * A boleto never carries a document its own request did not send, whoever asks: its page prints
 * the payer's name and CPF or CNPJ for anyone holding its link. Medusa's own re-creates of a
 * session (no store request behind them) are `undefined` here and keep both as before.
 */

/** Who asks for the session request now being served for a collection. */
export type SessionAsker =
  { kind: "renewal"; renews: ChargeRow } | { kind: "cart_holder" } | { kind: "foreign" };

/** A Medusa payment session id, the only shape `data.renews` is read in. */
const SESSION_ID = /^payses_[A-Za-z0-9]{10,40}$/;

/** The session a request's `data.renews` names, if it names one in a session id's shape. */
export function renewedSessionOf(body: unknown): string | null {
  const data = (body as { data?: unknown } | null | undefined)?.data;
  const renews = (data as { renews?: unknown } | null | undefined)?.renews;
  return typeof renews === "string" && SESSION_ID.test(renews) ? renews : null;
}

/**
 * Who asks, from what the plugin's and Medusa's records say. A renewal renews a code of this
 * collection that can no longer be paid (the element offers "Gerar novo código", and a reminder
 * its new code, only then): naming a live code is no renewal, so a session id read off the order
 * cannot take that code away. A collection an order owns is reachable by strangers.
 */
export function askerOf(
  collectionId: string,
  renewed: ChargeRow | undefined,
  ownedByOrder: boolean,
  now: Date,
): SessionAsker {
  if (renewed && renewed.payment_collection_id === collectionId && !isLive(renewed, now)) {
    return { kind: "renewal", renews: renewed };
  }
  return ownedByOrder ? { kind: "foreign" } : { kind: "cart_holder" };
}

/** A code still payable: pending, not replaced, and not past its expiry. */
function isLive(row: ChargeRow, now: Date): boolean {
  return (
    row.status === "pending" &&
    row.superseded_at === null &&
    (row.expires_at === null || new Date(row.expires_at) > now)
  );
}

/** The collection's code still payable, if any. */
export function liveCodeOf(rows: readonly ChargeRow[], now: Date): ChargeRow | undefined {
  return rows.find((row) => isLive(row, now));
}

/**
 * Whether a session request must be refused so the collection's live code stays the shopper's:
 * on the collection of a cart that became an order (`cartOrder`), while a code is live, only a
 * renewal for that code's own provider goes on (its create shows that code again,
 * open-session.ts); anything else would replace it (Medusa deletes the collection's other
 * sessions), whatever the provider. An order's own collection is its payment link's (above).
 */
export function takesLiveCodeAway(
  asker: SessionAsker,
  live: ChargeRow | undefined,
  cartOrder: boolean,
  providerId: unknown,
): boolean {
  if (!cartOrder || !live) return false;
  return !(asker.kind === "renewal" && providerId === live.provider_id);
}

/**
 * Who asks, per collection, in this process: the session route serves one request per
 * collection at a time (session-requests.ts) and the provider's create runs inside it, so the
 * collection names the request (as the create line's client origin does).
 */
const askers = new Map<string, SessionAsker>();

/** Who asks for the collection's session request now being served here; undefined: Medusa. */
export function askerFor(collectionId: string | null | undefined): SessionAsker | undefined {
  return collectionId ? askers.get(collectionId) : undefined;
}

/** Holds `asker` for the collection's session request until `release` is called. */
export function holdAsker(collectionId: string, asker: SessionAsker): () => void {
  askers.set(collectionId, asker);
  return () => {
    if (askers.get(collectionId) === asker) askers.delete(collectionId);
  };
}

/**
 * Middleware for `POST /store/payment-collections/:id/payment-sessions`, under the collection's
 * lease (it follows `oneSessionRequestAtATime`): says who asks (above) for the provider's
 * create, and refuses a foreign request while the collection has a live code, with
 * `409 payment_code_in_progress`, before Medusa deletes the session that shows it: a stranger
 * holding the order's id cannot take a shopper's code away. Whatever the provider asked for (a
 * card too would replace the shopper's code).
 */
export async function tieSessionRequest(
  req: MedusaRequest,
  res: MedusaResponse,
  next: MedusaNextFunction,
): Promise<void> {
  const collectionId = (req.params as Record<string, string | undefined>).id;
  if (!collectionId) return next();
  let release: () => void;
  try {
    const db = req.scope.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION);
    const records = recordsOf(db);
    const renewedId = renewedSessionOf(req.body);
    const [renewed, side] = await Promise.all([
      renewedId ? records.charges.bySessionId(renewedId) : undefined,
      readMedusaSide(db, collectionId),
    ]);
    const now = new Date();
    const ownedByOrder = side.order !== null;
    const asker = askerOf(collectionId, renewed, ownedByOrder, now);
    // A cart's order-first order; an order's own collection has no cart.
    const cartOrder = ownedByOrder && side.cartId !== null;
    if (cartOrder) {
      const live = liveCodeOf(await records.charges.ofCollection(collectionId), now);
      const providerId = (req.body as { provider_id?: unknown } | undefined)?.provider_id;
      if (takesLiveCodeAway(asker, live, cartOrder, providerId)) {
        return sendError(
          res,
          "payment_code_in_progress",
          "This order already has a payment code in progress; nothing was changed. Show that code (the order's page or the link the store sent has it). A new code is made once it expires, by the page that shows it.",
        );
      }
    }
    release = holdAsker(collectionId, asker);
  } catch (error) {
    return next(error);
  }
  res.once("finish", release);
  res.once("close", release);
  next();
}
