import { describe, expect, it } from "vitest";
import { MemoryHits } from "./memory-hits";

describe("MemoryHits", () => {
  const window = 10 * 60_000;

  it("allows a key its limit per window, then refuses until the window ends", () => {
    const hits = new MemoryHits();
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++) {
      expect(hits.take([{ key: "page:a", limit: 3 }], window, t0 + i)).toEqual({ allowed: true });
    }
    expect(hits.take([{ key: "page:a", limit: 3 }], window, t0 + 60_000)).toEqual({
      allowed: false,
      retryAfterMs: window - 60_000,
    });
    // Another key has its own count.
    expect(hits.take([{ key: "page:b", limit: 3 }], window, t0 + 60_000)).toEqual({
      allowed: true,
    });
    // A new window starts with the first hit after the last one ended.
    expect(hits.take([{ key: "page:a", limit: 3 }], window, t0 + window)).toEqual({
      allowed: true,
    });
  });

  it("refuses when any key is past its limit, and says the longest wait", () => {
    const hits = new MemoryHits();
    hits.take([{ key: "address:x", limit: 1 }], window, 0);
    const verdict = hits.take(
      [
        { key: "page:new", limit: 10 },
        { key: "address:x", limit: 1 },
      ],
      window,
      5_000,
    );
    expect(verdict).toEqual({ allowed: false, retryAfterMs: window - 5_000 });
  });

  it("keeps at most `max` keys, however many ids a client makes up", () => {
    const hits = new MemoryHits({ max: 100 });
    for (let i = 0; i < 1_000; i++) hits.take([{ key: `page:${i}`, limit: 5 }], window, i);
    expect(hits.size).toBe(100);
  });
});
