import { describe, expect, it } from "vitest";
import type { MedusaContainer } from "@medusajs/framework/types";
import { Modules } from "@medusajs/framework/utils";
import { isLockHeld } from "../platform/lock-held";
import { underCartLock } from "./cart-lock";

/**
 * A locking module as `locking-postgres` behaves: `acquire` takes a row that another owner's
 * `acquire` is refused (at once, as every provider does), and `execute` is a lock of its own
 * that never meets those rows.
 */
function postgresLikeLocking() {
  const rows = new Map<string, string | null>();
  const locking = {
    failNext: undefined as Error | undefined,
    released: [] as string[],
    async acquire(key: string, args?: { ownerId?: string }) {
      if (locking.failNext) {
        const error = locking.failNext;
        locking.failNext = undefined;
        throw error;
      }
      if (rows.has(key) && rows.get(key) !== (args?.ownerId ?? null)) {
        throw new Error(`Failed to acquire lock for key "${key}"`);
      }
      rows.set(key, args?.ownerId ?? null);
    },
    async release(key: string, args?: { ownerId?: string }) {
      if (rows.get(key) !== (args?.ownerId ?? null)) return false;
      rows.delete(key);
      locking.released.push(key);
      return true;
    },
    async execute<T>(_key: string, job: () => Promise<T>) {
      return job();
    },
  };
  const container = {
    hasRegistration: (key: string) => key === Modules.LOCKING,
    resolve: () => locking,
  } as unknown as MedusaContainer;
  return { locking, container, rows };
}

describe("underCartLock", () => {
  it("waits while cart completion holds the cart through acquire, and runs once it is released", async () => {
    const { locking, container } = postgresLikeLocking();
    // What Medusa's acquireLockStep does for cart completion: no owner id.
    await locking.acquire("cart_1");
    const order: string[] = [];
    const waiting = underCartLock(container, "cart_1", async () => {
      order.push("plugin");
      return "done";
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    order.push("completion ends");
    await locking.release("cart_1");
    await expect(waiting).resolves.toBe("done");
    expect(order).toEqual(["completion ends", "plugin"]);
  });

  it("holds the cart against cart completion while its work runs, and lets it go after", async () => {
    const { locking, container } = postgresLikeLocking();
    await underCartLock(container, "cart_1", async () => {
      await expect(locking.acquire("cart_1")).rejects.toThrow("Failed to acquire lock");
    });
    await expect(locking.acquire("cart_1")).resolves.toBeUndefined();
  });

  it("rejects with the providers' timeout message when the cart stays locked", async () => {
    const { locking, container } = postgresLikeLocking();
    await locking.acquire("cart_1");
    const error = await underCartLock(container, "cart_1", async () => "never", 1).catch(
      (e: unknown) => e,
    );
    expect(isLockHeld(error)).toBe(true);
  });

  it("rethrows a failure of the provider that is not a held lock", async () => {
    const { locking, container } = postgresLikeLocking();
    locking.failNext = new Error("connect ECONNREFUSED 127.0.0.1:6379");
    const error = await underCartLock(container, "cart_1", async () => "never").catch(
      (e: unknown) => e,
    );
    expect((error as Error).message).toBe("connect ECONNREFUSED 127.0.0.1:6379");
    expect(isLockHeld(error)).toBe(false);
  });

  it("releases the cart when its work fails", async () => {
    const { locking, container } = postgresLikeLocking();
    await expect(
      underCartLock(container, "cart_1", async () => {
        throw new Error("workflow failed");
      }),
    ).rejects.toThrow("workflow failed");
    expect(locking.released).toEqual(["cart_1"]);
  });

  it("runs the work as it is when no locking module is registered", async () => {
    const container = { hasRegistration: () => false } as unknown as MedusaContainer;
    await expect(underCartLock(container, "cart_1", async () => 42)).resolves.toBe(42);
  });
});
