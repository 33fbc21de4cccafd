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
 * How long a job's key outlives a holder that died, and how long a pass may take.
 *
 * From Medusa 2.21 the locking module renews the key every third of its expiry while the pass
 * runs, so the expiry only says how long a holder that was killed (a worker restarted by its
 * orchestrator, a crash) keeps every other instance out: `deadHolderSeconds`, short. The chaos
 * run killed a worker in the middle of a reconciliation pass that had taken its key for the
 * pass's whole length (300 s): no pass ran for five minutes, and a shopper who paid then waited
 * that long for "paid". The plugin's own lease (before 2.21) is not renewed, so it is taken for
 * the longest pass instead: `passSeconds`.
 */
export interface AloneLimits {
  /** How long to wait for the key before skipping this pass. */
  waitSeconds: number;
  /** How long the key stays taken after its holder died (renewed while it lives). */
  deadHolderSeconds: number;
  /** The longest a pass may run, for a lease nobody renews. */
  passSeconds: number;
}

/**
 * Runs a scheduled job's pass on one instance at a time, cluster-wide: the key waited for at
 * most `waitSeconds`, and kept by a holder that died for `deadHolderSeconds` (see
 * {@link AloneLimits}).
 *
 * On Medusa 2.21.0 and later this is Medusa's locking module, with whichever provider the store
 * configured. Before 2.21.0 that module lets the lock lapse once the wait is over (see
 * platform/medusa-version.ts), so a pass longer than a second would overlap the next; there the
 * pass takes the plugin's own lease in Postgres instead (records/collection-locks.ts), which
 * every instance of the store shares through its database, for `passSeconds`.
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
  { waitSeconds, deadHolderSeconds, passSeconds }: AloneLimits,
  medusaLockHoldsForJob: boolean = holdsForJob,
): Promise<AloneRun<T>> {
  try {
    const value = medusaLockHoldsForJob
      ? await container
          .resolve(Modules.LOCKING)
          .execute(key, (signal) => work(signal ?? NEVER_LOST), {
            timeout: waitSeconds,
            expire: deadHolderSeconds,
          })
      : await withCollectionLock(db, key, () => work(NEVER_LOST), {
          waitMs: waitSeconds * 1000,
          leaseMs: passSeconds * 1000,
        });
    return { ran: true, value };
  } catch (error) {
    const held =
      isLockHeld(error) || (error instanceof PixCheckoutError && error.code === "collection_busy");
    if (held) return { ran: false };
    throw error;
  }
}
