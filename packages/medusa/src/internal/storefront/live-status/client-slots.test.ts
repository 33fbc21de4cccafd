import { describe, expect, it } from "vitest";
import { takeStreamSlot } from "./client-slots";

describe("what one client may hold on an instance", () => {
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
});
