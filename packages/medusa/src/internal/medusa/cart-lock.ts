import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { MedusaContainer } from "@medusajs/framework/types";
import { Modules } from "@medusajs/framework/utils";

/** How long a cart lock we hold lives if this process dies holding it (Medusa's own: 120 s). */
const CART_LOCK_TTL_S = 120;
/** The pause between two tries, as Medusa's `acquireLockStep` (0.3 s). */
const RETRY_MS = 300;

/** The message every locking provider rejects a wait with; `isLockHeld` reads it. */
const TIMED_OUT = "Timed-out acquiring lock.";

/**
 * Runs `work` holding Medusa's lock on the cart `cartId`, the one its cart workflows take
 * (`acquireLockStep`: cart completion holds it from its start to its end), waiting up to
 * `timeoutSeconds` for it. It takes the lock as they do, with `acquire` and `release`, not with
 * `execute`: the Redis provider keeps both on one key, but `locking-postgres` keeps `execute` as
 * a Postgres advisory lock and `acquire` as a row of its `locking` table, which never wait for
 * each other (with it, the chaos run saw a capture counted twice on an order's summary). A wait
 * that runs out rejects with the providers' own "Timed-out acquiring lock.", so `isLockHeld`
 * still tells a busy cart from a failure; any other error of `acquire` (Redis or Postgres
 * unreachable) is rethrown as it is.
 */
export async function underCartLock<T>(
  container: MedusaContainer,
  cartId: string,
  work: () => Promise<T>,
  timeoutSeconds = 5,
): Promise<T> {
  if (!container.hasRegistration(Modules.LOCKING)) return work();
  const locking = container.resolve(Modules.LOCKING);
  const ownerId = `pix-checkout:${randomUUID()}`;
  const until = Date.now() + timeoutSeconds * 1000;
  for (;;) {
    try {
      await locking.acquire(cartId, { ownerId, expire: CART_LOCK_TTL_S });
      break;
    } catch (error) {
      if (!isHeldByAnother(error)) throw error;
      if (Date.now() >= until) throw new Error(TIMED_OUT);
    }
    await sleep(RETRY_MS);
  }
  try {
    return await work();
  } finally {
    // A lock left behind holds the cart until its expiry (with locking-postgres, until a row
    // nobody else may take is deleted): a release that fails in passing is tried again.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const released = await locking.release(cartId, { ownerId }).then(
        () => true,
        () => false,
      );
      if (released) break;
      await sleep(1_000);
    }
  }
}

/**
 * Whether another owner holds Medusa's lock on the cart now (a completion, an edit): one try to
 * take it, let go at once. No locking module, or a lock free now: false. An error of `acquire`
 * other than a held lock (Redis or Postgres unreachable) is rethrown.
 */
export async function cartLockHeld(container: MedusaContainer, cartId: string): Promise<boolean> {
  if (!container.hasRegistration(Modules.LOCKING)) return false;
  const locking = container.resolve(Modules.LOCKING);
  const ownerId = `pix-checkout:${randomUUID()}`;
  try {
    await locking.acquire(cartId, { ownerId, expire: 5 });
  } catch (error) {
    if (isHeldByAnother(error)) return true;
    throw error;
  }
  await locking.release(cartId, { ownerId }).catch(() => {});
  return false;
}

/**
 * Whether `acquire` refused because another owner holds the key: the Redis, Postgres and
 * in-memory providers say `Failed to acquire lock for key "…"`, and Postgres, losing a race
 * to insert the row, `"…" is already locked.`
 */
function isHeldByAnother(error: unknown): boolean {
  const message = (error as Error | undefined)?.message ?? "";
  return (
    message.startsWith("Failed to acquire lock for key") || message.endsWith("is already locked.")
  );
}
