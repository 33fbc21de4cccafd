import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http";
import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { holdLeaseForRequest } from "../records/request-lease";

/**
 * Serves a collection's session requests one at a time, on every instance.
 *
 * Medusa's session route reads the collection's sessions, then creates the new one and deletes
 * the ones it read, in parallel. Two requests at the same moment (a double click, a storefront
 * that renders twice) each read none of the other's, so each makes a session and a code, and
 * their deletes trip over each other ("Could not delete all payment sessions"). One after the
 * other, the second finds the first's code, which is still payable, and reuses it: one charge,
 * and the cart's live session shows it.
 *
 * The collection's own lease, the one every door into its money decides under: Medusa's swap
 * is not atomic (the new session is made while the old ones are deleted), so a payment landing
 * in between would be decided against a collection half swapped. Held for the whole request,
 * the swap and a webhook's decision come one after the other: a paid collection refuses the
 * swap (paid-collection-guard.ts, which runs inside this lease), or the payment finds the code
 * replaced and is decided as such. Nothing the request calls takes this lease (the provider's
 * `initiatePayment` and `deletePayment` take none), so it cannot wait on itself.
 */
export function oneSessionRequestAtATime(
  req: MedusaRequest,
  res: MedusaResponse,
  next: MedusaNextFunction,
): void {
  const collectionId = (req.params as Record<string, string | undefined>).id;
  if (!collectionId) return next();
  const db = req.scope.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION);
  holdLeaseForRequest(db, collectionId, res, next);
}
