import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import type { MedusaContainer } from "@medusajs/framework/types";
import { Modules } from "@medusajs/framework/utils";
import { PixCheckoutError } from "../platform/errors";
import { isLockHeld } from "../platform/lock-held";
import { installedMedusaVersion, lockingHoldsForJob } from "../platform/medusa-version";
import { withCollectionLock } from "./collection-locks";

/** What a pass under {@link runAlone} did: ran and returned `value`, or found the key taken. */
export type AloneRun<T> = { ran: true; value: T } | { ran: false };

const holdsForJob = lockingHoldsForJob(installedMedusaVersion());

/** For a lock that cannot be lost while held: the plugin's lease, or a provider without one. */
const NEVER_LOST = new AbortController().signal;

/**
 * Runs a scheduled job's pass on one instance at a time, cluster-wide: the key waited for at
 * most `waitSeconds`, and kept at most `expireSeconds` by a holder that died.
 *
 * On Medusa 2.21.0 and later this is Medusa's locking module, with whichever provider the store
 * configured. Before 2.21.0 that module lets the lock lapse once the wait is over (see
 * platform/medusa-version.ts), so a pass longer than a second would overlap the next; there the
 * pass takes the plugin's own lease in Postgres instead (records/collection-locks.ts), which
 * every instance of the store shares through its database.
 *
 * `work` gets the lock's `AbortSignal`. From 2.21 Medusa renews the lock while the pass runs and
 * aborts the signal when the lease is lost anyway (the provider unreachable past the expiry):
 * another instance may then start the same pass, so `work` must take nothing new once it
 * fires. Medusa also throws afterwards, and so does this function.
 */
export async function runAlone<T>(
  container: MedusaContainer,
  db: Knex,
  key: string,
  work: (signal: AbortSignal) => Promise<T>,
  { waitSeconds, expireSeconds }: { waitSeconds: number; expireSeconds: number },
  medusaLockHoldsForJob: boolean = holdsForJob,
): Promise<AloneRun<T>> {
  try {
    const value = medusaLockHoldsForJob
      ? await container
          .resolve(Modules.LOCKING)
          .execute(key, (signal) => work(signal ?? NEVER_LOST), {
            timeout: waitSeconds,
            expire: expireSeconds,
          })
      : await withCollectionLock(db, key, () => work(NEVER_LOST), {
          waitMs: waitSeconds * 1000,
          leaseMs: expireSeconds * 1000,
        });
    return { ran: true, value };
  } catch (error) {
    const held =
      isLockHeld(error) || (error instanceof PixCheckoutError && error.code === "collection_busy");
    if (held) return { ran: false };
    throw error;
  }
}
