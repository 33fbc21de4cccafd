import type { MedusaNextFunction, MedusaResponse } from "@medusajs/framework/http";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { sendRaised } from "../platform/errors";
import { withCollectionLock } from "./collection-locks";

/**
 * Holds a collection's lease (collection-locks.ts) from before `next()` until the response is
 * sent, so that Medusa's own route, which changes the collection's sessions without asking the
 * plugin's doors, runs whole between two decisions of its money. `look` runs first, inside the
 * lease: it answers the request itself (a refusal) and returns true, or returns false to let
 * Medusa's route go on. A busy lease answers `collection_busy` (409, retryable); an error of
 * `look` goes to Medusa's error handler.
 */
export function holdLeaseForRequest(
  db: Knex,
  collectionId: string,
  res: MedusaResponse,
  next: MedusaNextFunction,
  look: () => Promise<boolean> = async () => false,
): void {
  withCollectionLock(db, collectionId, async () => {
    let answered: boolean;
    try {
      answered = await look();
    } catch (error) {
      return next(error);
    }
    if (answered) return;
    await new Promise<void>((done) => {
      res.once("finish", () => done());
      res.once("close", () => done());
      next();
    });
  }).catch((error: unknown) => {
    if (!res.headersSent) sendRaised(res, error);
  });
}
