import { describe, expect, it } from "vitest";
import { WarnOnce } from "./warn-once";

describe("a warning said once per key", () => {
  it("says each key once, and forgets the oldest past its bound, counting them", () => {
    const warn = new WarnOnce({ max: 100, everyMs: 60 * 60_000 });
    const said: [string, number][] = [];
    // An IPv6 client rotating inside its /64: a new peer address on every request.
    for (let i = 0; i < 10_000; i++) {
      warn.warn(`2001:db8::${i.toString(16)}`, (forgotten) => said.push([`${i}`, forgotten]));
    }
    expect(warn.size).toBe(100);
    expect(said).toHaveLength(10_000);
    // From the 101st on, each warning says one peer was forgotten to make room for it.
    expect(said[99]?.[1]).toBe(0);
    expect(said[100]?.[1]).toBe(1);
    warn.warn("2001:db8::270f", () => said.push(["again", 0]));
    expect(said).toHaveLength(10_000);
  });
});
