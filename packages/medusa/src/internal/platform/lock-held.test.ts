import { describe, expect, it } from "vitest";
import { isLockHeld } from "./lock-held";

describe("isLockHeld", () => {
  it("is true only for the locking module's own wait-ran-out error", () => {
    expect(isLockHeld(new Error("Timed-out acquiring lock."))).toBe(true);
    // A failure whose words merely mention a lock or a timeout is a real failure, and is seen.
    expect(isLockHeld(new Error("Knex: Timeout acquiring a connection. The pool is full."))).toBe(
      false,
    );
    expect(isLockHeld(new Error('deadlock detected while waiting for lock "x"'))).toBe(false);
    expect(isLockHeld(undefined)).toBe(false);
  });
});
