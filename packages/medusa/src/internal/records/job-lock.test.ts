import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import type { MedusaContainer } from "@medusajs/framework/types";
import { randomUUID } from "node:crypto";
import { RedisLockingProvider } from "@medusajs/locking-redis/dist/services/redis-lock";
import Redis from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { runAlone } from "./job-lock";

// Medusa's locking module from 2.21 hands the job an AbortSignal it aborts when the lock's
// lease is lost. A lost lease cannot be produced on one machine with the in-memory provider,
// so the module is played here by a stand-in that calls the job as Medusa does.
function lockingThatLoses(when: "before" | "during") {
  return {
    resolve: () => ({
      async execute<T>(_key: string, job: (signal?: AbortSignal) => Promise<T>) {
        const lease = new AbortController();
        if (when === "before") lease.abort(new Error("lock lost"));
        else setTimeout(() => lease.abort(new Error("lock lost")), 20);
        const result = await job(lease.signal);
        lease.signal.throwIfAborted(); // as Medusa does once the job returns
        return result;
      },
    }),
  } as unknown as MedusaContainer;
}

const limits = { waitSeconds: 1, deadHolderSeconds: 30, passSeconds: 30 };

describe("runAlone", () => {
  it("hands the pass the lock's signal, and a pass that heeds it takes nothing more", async () => {
    const taken: number[] = [];
    const pass = runAlone(
      lockingThatLoses("during"),
      {} as Knex,
      "k",
      async (signal) => {
        for (let item = 0; item < 100; item += 1) {
          signal.throwIfAborted();
          taken.push(item);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        return taken.length;
      },
      limits,
      true,
    );
    await expect(pass).rejects.toThrow("lock lost");
    expect(taken.length).toBeGreaterThan(0);
    expect(taken.length).toBeLessThan(100);
  });

  it("gives a signal that never fires where the lock cannot be lost (a provider without one)", async () => {
    const container = {
      resolve: () => ({
        execute: <T>(_key: string, job: (signal?: AbortSignal) => Promise<T>) => job(undefined),
      }),
    } as unknown as MedusaContainer;
    const run = await runAlone(
      container,
      {} as Knex,
      "k",
      async (signal) => signal.aborted,
      limits,
      true,
    );
    expect(run).toEqual({ ran: true, value: false });
  });
});

// The same lock as a store with `locking-redis` runs it: Medusa's Redis provider on the
// machine's Redis (127.0.0.1:6379, or PIX_TEST_REDIS_URL), renewing the key under the pass.
describe("runAlone on locking-redis", () => {
  const url = process.env.PIX_TEST_REDIS_URL ?? "redis://127.0.0.1:6379/7";
  const clients: Redis[] = [];
  async function instance() {
    const redisClient = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0 });
    clients.push(redisClient);
    await redisClient.connect();
    // The provider defines its Lua commands on the client it is given; Medusa's loader passes an
    // ioredis client the same way, and its logger only warns of a renewal that failed.
    type ProviderDeps = ConstructorParameters<typeof RedisLockingProvider>[0];
    const provider = new RedisLockingProvider(
      { redisClient, logger: { warn() {} } } as unknown as ProviderDeps,
      {},
    );
    const container = { resolve: () => provider } as unknown as MedusaContainer;
    return { redisClient, container };
  }
  afterAll(() => clients.forEach((client) => client.disconnect()));

  it("keeps a live pass alone past the dead-holder time, and lets the next pass in soon after its holder dies", async () => {
    const key = `pix-checkout:test-dead-holder:${randomUUID()}`;
    // A pass may take 300 s; a holder that dies keeps the key 1 s (a short stand-in for 30 s).
    const shortLimits = { waitSeconds: 1, deadHolderSeconds: 1, passSeconds: 300 };
    const dying = await instance();
    const other = await instance();
    let begun!: () => void;
    const hasBegun = new Promise<void>((resolve) => (begun = resolve));
    const first = runAlone(
      dying.container,
      {} as Knex,
      key,
      (signal) =>
        new Promise<never>((_, reject) => {
          begun();
          signal.addEventListener("abort", () => reject(signal.reason));
        }),
      shortLimits,
      true,
    );
    void first.catch(() => undefined); // A dead holder's pass never ends; nothing waits for it.
    await hasBegun;
    // Three dead-holder times in, the live holder has renewed its key: the other instance skips.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(
      await runAlone(other.container, {} as Knex, key, async () => "second", shortLimits, true),
    ).toEqual({ ran: false });

    // The holder dies (its connection gone, as when its process is killed): no more renewals.
    dying.redisClient.disconnect();
    const diedAt = Date.now();
    let run: Awaited<ReturnType<typeof runAlone<string>>> = { ran: false };
    while (!run.ran && Date.now() - diedAt < 20_000) {
      run = await runAlone(other.container, {} as Knex, key, async () => "next", shortLimits, true);
    }
    // Well within the pass's 300 s: the key lapsed a dead-holder time after the last renewal.
    expect(run).toEqual({ ran: true, value: "next" });
    expect(Date.now() - diedAt).toBeLessThan(20_000);
  }, 40_000);
});
