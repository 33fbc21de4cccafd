import { describe, expect, it } from "vitest";
import { takeRefresh, takeStreamSlot } from "./client-slots";

describe("what one client, or all of them, may hold or spend on an instance", () => {
  it("gives a client at most its streams, and a slot back when one ends", () => {
    const held = [1, 2, 3].map(() => takeStreamSlot("198.51.100.7", 3));
    expect(held.every(Boolean)).toBe(true);
    expect(takeStreamSlot("198.51.100.7", 3)).toBeUndefined();
    // Another client is not held to this one's count.
    expect(takeStreamSlot("203.0.113.9", 3)).toBeTypeOf("function");
    held[0]!();
    held[0]!(); // released twice: still one slot
    const again = takeStreamSlot("198.51.100.7", 3);
    expect(again).toBeTypeOf("function");
    expect(takeStreamSlot("198.51.100.7", 3)).toBeUndefined();
  });

  it("sends at most the minute's re-checks, then says when the next minute opens", () => {
    const minute = 1_800_000_000_000 - (1_800_000_000_000 % 60_000);
    for (let i = 0; i < 5; i += 1) expect(takeRefresh(5, minute + 1_000)).toBe(0);
    expect(takeRefresh(5, minute + 20_000)).toBe(40_000);
    expect(takeRefresh(5, minute + 60_000)).toBe(0);
  });
});
