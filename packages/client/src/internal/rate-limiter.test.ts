import { describe, expect, it } from "vitest";
import { RateLimitError, RequestAbortedError } from "../errors.js";
import { FakeClock } from "../test-support/fake-clock.js";
import { SlidingWindowLimiter } from "./rate-limiter.js";

describe("SlidingWindowLimiter", () => {
  it("grants up to the limit at once", async () => {
    const limiter = new SlidingWindowLimiter(3, 60_000, new FakeClock());
    const releases = await Promise.all([limiter.acquire(), limiter.acquire(), limiter.acquire()]);
    expect(releases).toHaveLength(3);
    expect(limiter.inWindow).toBe(3);
  });

  it("holds the next call until a window after the first response", async () => {
    const clock = new FakeClock();
    const limiter = new SlidingWindowLimiter(2, 60_000, clock);
    const start = clock.now();
    (await limiter.acquire())();
    (await limiter.acquire())();
    await limiter.acquire();
    expect(clock.now() - start).toBe(60_000);
  });

  it("counts calls still in flight, so none can overtake them", async () => {
    const clock = new FakeClock();
    const limiter = new SlidingWindowLimiter(1, 60_000, clock);
    const release = await limiter.acquire();
    let granted = false;
    const next = limiter.acquire().then(() => {
      granted = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(granted).toBe(false);
    release();
    await next;
    expect(granted).toBe(true);
  });

  it("refuses at once when the wait would exceed maxWaitMs", async () => {
    const clock = new FakeClock();
    const limiter = new SlidingWindowLimiter(1, 60_000, clock);
    (await limiter.acquire())();
    const before = clock.now();
    const error = await limiter.acquire(1_000).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).code).toBe("client_rate_limited");
    expect((error as RateLimitError).retryAfterMs).toBe(60_000);
    expect(clock.now()).toBe(before);
  });

  it("serves waiters first in, first out", async () => {
    const clock = new FakeClock();
    const limiter = new SlidingWindowLimiter(1, 1_000, clock);
    const order: number[] = [];
    const waits = [1, 2, 3].map((n) =>
      limiter.acquire().then((release) => {
        order.push(n);
        release();
      }),
    );
    await Promise.all(waits);
    expect(order).toEqual([1, 2, 3]);
  });

  it("pauses every waiter until the server's reset", async () => {
    const clock = new FakeClock();
    const limiter = new SlidingWindowLimiter(10, 60_000, clock);
    const start = clock.now();
    limiter.pauseUntil(start + 5_000);
    await limiter.acquire();
    expect(clock.now() - start).toBe(5_000);
  });

  it("lets a queued caller abort without taking a slot", async () => {
    const clock = new FakeClock();
    const limiter = new SlidingWindowLimiter(1, 60_000, clock);
    const release = await limiter.acquire();
    const controller = new AbortController();
    const waiting = limiter.acquire(undefined, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(RequestAbortedError);
    release();
    expect(limiter.inWindow).toBe(1);
  });
});
