import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import type { MedusaContainer } from "@medusajs/framework/types";
import { describe, expect, it } from "vitest";
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

const limits = { waitSeconds: 1, expireSeconds: 30 };

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
