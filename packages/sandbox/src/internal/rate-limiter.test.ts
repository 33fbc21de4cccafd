import { describe, expect, it } from "vitest";
import { RateLimiter } from "./rate-limiter.js";

describe("rate limiter windows", () => {
  const start = 1_800_000_000_000;

  it("opens a window at the first request and reports its reset in Unix seconds", () => {
    const limiter = new RateLimiter();
    const { info } = limiter.hit("key", "createCharge", start);
    expect(info).toEqual({ limit: 60, remaining: 59, reset: (start + 60_000) / 1000 });
  });

  it("refuses the 61st request within the window", () => {
    const limiter = new RateLimiter();
    for (let i = 0; i < 60; i++)
      expect(limiter.hit("key", "createCharge", start + i).allowed).toBe(true);
    expect(limiter.hit("key", "createCharge", start + 59_999).allowed).toBe(false);
  });

  it("starts a fresh window once a minute has passed", () => {
    const limiter = new RateLimiter();
    for (let i = 0; i < 61; i++) limiter.hit("key", "createCharge", start);
    const next = limiter.hit("key", "createCharge", start + 60_000);
    expect(next.allowed).toBe(true);
    expect(next.info.remaining).toBe(59);
  });

  it("keeps the charge and withdrawal buckets apart", () => {
    const limiter = new RateLimiter();
    for (let i = 0; i < 30; i++) limiter.hit("key", "createWithdrawal", start);
    expect(limiter.hit("key", "createWithdrawal", start).allowed).toBe(false);
    expect(limiter.hit("key", "createCharge", start).allowed).toBe(true);
  });

  it("peeks without counting", () => {
    const limiter = new RateLimiter();
    limiter.hit("key", "createCharge", start);
    expect(limiter.peek("key", "createCharge", start).remaining).toBe(59);
    expect(limiter.peek("key", "createCharge", start).remaining).toBe(59);
  });
});
