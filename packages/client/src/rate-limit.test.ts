import { describe, expect, it } from "vitest";
import { RateLimitError } from "./errors.js";
import { chargeB } from "./test-support/fixtures.js";
import { mockClient } from "./test-support/mock-api.js";
import type { FakeClock } from "./test-support/fake-clock.js";
import type { MockAgent } from "undici";

/**
 * A strict server-side limiter on the fake clock: 60 arrivals per sliding minute, 429 beyond.
 * Counts what it answered so the tests can tell a paced burst from an unpaced one.
 */
function strictServer(
  pool: ReturnType<MockAgent["get"]>,
  clock: FakeClock,
): { created: number; limited: number } {
  const stats = { created: 0, limited: 0 };
  const arrivals: number[] = [];
  pool
    .intercept({ path: "/v1/charges", method: "POST" })
    .reply(() => {
      const now = clock.now();
      while (arrivals.length > 0 && (arrivals[0] as number) <= now - 60_000) arrivals.shift();
      const headers = {
        "x-ratelimit-limit": "60",
        "x-ratelimit-reset": String(Math.ceil(((arrivals[0] ?? now) + 60_000) / 1000)),
      };
      if (arrivals.length >= 60) {
        stats.limited++;
        return {
          statusCode: 429,
          data: {
            error: { code: "rate_limit_exceeded", message: "Too many requests, slow down." },
          },
          responseOptions: { headers: { ...headers, "x-ratelimit-remaining": "0" } },
        };
      }
      arrivals.push(now);
      stats.created++;
      return {
        statusCode: 201,
        data: chargeB({ id: `ch_svc_${stats.created}` }),
        responseOptions: {
          headers: { ...headers, "x-ratelimit-remaining": String(60 - arrivals.length) },
        },
      };
    })
    .persist();
  return stats;
}

const pix = { method: "pix" as const, amountCents: 1990 };

describe("create pacing", () => {
  it("turns a burst of 120 creates into zero 429s", async () => {
    const { client, pool, clock } = mockClient("b");
    const stats = strictServer(pool, clock);
    const start = clock.now();
    const charges = await Promise.all(
      Array.from({ length: 120 }, () => client.charges.create(pix)),
    );
    expect(new Set(charges.map((charge) => charge.id)).size).toBe(120);
    expect(stats).toEqual({ created: 120, limited: 0 });
    expect(clock.now() - start).toBeGreaterThanOrEqual(60_000);
    expect(clock.now() - start).toBeLessThan(61_000);
  });

  it("would draw 429s from the same server without pacing", async () => {
    const { client, pool, clock } = mockClient("b", {
      createRateLimit: { perMinute: 1000 },
      maxRetries: 0,
    });
    const stats = strictServer(pool, clock);
    const results = await Promise.allSettled(
      Array.from({ length: 120 }, () => client.charges.create(pix)),
    );
    expect(stats.limited).toBeGreaterThan(0);
    expect(
      results
        .filter((r) => r.status === "rejected")
        .every((r) => (r as PromiseRejectedResult).reason instanceof RateLimitError),
    ).toBe(true);
  });

  it("fails fast with RateLimitError when the wait would pass maxWaitMs", async () => {
    const { client, pool, clock } = mockClient("b", {
      createRateLimit: { perMinute: 2, maxWaitMs: 1_000 },
    });
    const stats = strictServer(pool, clock);
    const results = await Promise.allSettled([1, 2, 3].map(() => client.charges.create(pix)));
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "rejected"]);
    const reason = (results[2] as PromiseRejectedResult).reason as RateLimitError;
    expect(reason).toBeInstanceOf(RateLimitError);
    expect(reason.retryAfterMs).toBeGreaterThan(1_000);
    expect(stats.created).toBe(2);
  });

  it("remembers the last X-RateLimit headers", async () => {
    const { client, pool, clock } = mockClient("b");
    strictServer(pool, clock);
    await client.charges.create(pix);
    expect(client.lastRateLimit).toMatchObject({ limit: 60, remaining: 59 });
  });
});

describe("lastRateLimit under concurrent answers", () => {
  const reset = String(Math.ceil(Date.now() / 1000) + 60);
  function answer(pool: ReturnType<MockAgent["get"]>, remaining: number, resetAt: string) {
    return pool.intercept({ path: "/v1/charges", method: "POST" }).reply(201, chargeB(), {
      headers: {
        "x-ratelimit-limit": "60",
        "x-ratelimit-remaining": String(remaining),
        "x-ratelimit-reset": resetAt,
      },
    });
  }

  it("keeps the fewest left of a window when an older answer arrives last", async () => {
    const { client, pool } = mockClient("b");
    // The server answered the first create with 58 left and the second with 57, but the
    // first answer is the one that arrives last.
    answer(pool, 58, reset).delay(40);
    answer(pool, 57, reset);
    await Promise.all([client.charges.create(pix), client.charges.create(pix)]);
    expect(client.lastRateLimit?.remaining).toBe(57);
  });

  it("takes a new window's word even with more left", async () => {
    const { client, pool } = mockClient("b");
    answer(pool, 3, reset);
    await client.charges.create(pix);
    answer(pool, 59, String(Number(reset) + 60));
    await client.charges.create(pix);
    expect(client.lastRateLimit?.remaining).toBe(59);
  });
});
