import { randomUUID } from "node:crypto";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import { PixCheckoutError } from "../platform/errors";

const LOCKS = "pix_checkout_collection_lock";

/**
 * How long a holder keeps a collection before its lease lapses. Deciding and acting on one
 * collection (a capture, a cart completion, an order cancel) takes well under a second; a
 * holder silent this long has died, and the next door takes over.
 */
export const COLLECTION_LEASE_MS = 60_000;

/** How long a door waits for a collection another holder has before it gives up. */
export const COLLECTION_WAIT_MS = 15_000;

/**
 * Runs `work` while holding the lease of one payment collection (or any key of the same
 * kind), so that every door into a collection's money (webhooks, reconciliation, the admin's
 * re-check and refunds, the provider's authorize and delete, session requests) decides and
 * acts on it one at a time, on every instance.
 *
 * A lease row in Postgres rather than an advisory lock: the work runs Medusa workflows that use
 * the shared pool, and a session lock would pin one pooled connection per collection for the
 * whole work. A lease costs two short statements, needs no connection of its own, lapses by
 * itself when a holder dies, and is released only by its holder (the holder id is in the row).
 * The database clock decides, so instances with skewed clocks agree. Not re-entrant: `work`
 * must not reach a door of the same collection (Medusa workflows that complete a cart run after
 * the lock is released; see settlement/collection.ts).
 *
 * Throws `collection_busy` (a retryable 409) when another holder keeps it past `waitMs`.
 */
export async function withCollectionLock<T>(
  db: Knex,
  key: string,
  work: () => Promise<T>,
  { waitMs = COLLECTION_WAIT_MS, leaseMs = COLLECTION_LEASE_MS } = {},
): Promise<T> {
  const holder = randomUUID();
  const giveUpAt = Date.now() + waitMs;
  let pause = 10;
  while (!(await take(db, key, holder, leaseMs))) {
    if (Date.now() >= giveUpAt) {
      throw new PixCheckoutError(
        "collection_busy",
        "Another request is settling this cart's payment right now; nothing was changed. Try again in a few seconds.",
      );
    }
    // Jitter keeps two waiters from retrying in step.
    await new Promise((resolve) => setTimeout(resolve, pause + Math.random() * pause));
    pause = Math.min(pause * 2, 200);
  }
  try {
    return await work();
  } finally {
    await db(LOCKS)
      .where({ collection_id: key, holder })
      .delete()
      .catch(() => undefined); // A lease that cannot be released lapses by itself.
  }
}

/** Takes the lease when it is free or lapsed. True when `holder` now has it. */
async function take(db: Knex, key: string, holder: string, leaseMs: number): Promise<boolean> {
  const result = await db.raw<{ rows: { holder: string }[] }>(
    `insert into ${LOCKS} (collection_id, holder, expires_at)
     values (?, ?, now() + make_interval(secs => ?))
     on conflict (collection_id) do update
       set holder = excluded.holder, expires_at = excluded.expires_at
       where ${LOCKS}.expires_at < now()
     returning holder`,
    [key, holder, leaseMs / 1000],
  );
  return result.rows[0]?.holder === holder;
}
