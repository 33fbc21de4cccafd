import { describe, expect, it } from "vitest";
import { BackgroundQueue } from "./background";

describe("BackgroundQueue", () => {
  it("never runs more than its concurrency at once and runs everything", async () => {
    const queue = new BackgroundQueue(2);
    let active = 0;
    let peak = 0;
    const done: number[] = [];
    const finished = new Promise<void>((resolve) => {
      for (let i = 0; i < 6; i += 1) {
        queue.push(async () => {
          active += 1;
          peak = Math.max(peak, active);
          await new Promise((r) => setImmediate(r));
          active -= 1;
          done.push(i);
          if (done.length === 6) resolve();
        });
      }
    });
    await finished;
    expect(peak).toBe(2);
    expect(done.sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("keeps going after a job fails", async () => {
    const queue = new BackgroundQueue(1);
    const ran = new Promise<string>((resolve) => {
      queue.push(async () => {
        throw new Error("boom");
      });
      queue.push(async () => resolve("second ran"));
    });
    await expect(ran).resolves.toBe("second ran");
  });

  it("refuses work past its waiting cap instead of growing without bound", async () => {
    const queue = new BackgroundQueue(1, 2);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    expect(queue.push(() => gate)).toBe(true); // running
    expect(queue.push(async () => undefined)).toBe(true); // waiting 1
    expect(queue.push(async () => undefined)).toBe(true); // waiting 2
    expect(queue.push(async () => undefined)).toBe(false); // over the cap: left to reconciliation
    expect(queue.size).toBe(3);
    release();
  });
});
