import { describe, expect, it } from "vitest";
import { redact, redactValue } from "./redact.js";

describe("redact", () => {
  it("removes secret and publishable keys, keeping their kind", () => {
    expect(redact("key sk_live_abc123XYZ and pk_live_def456")).toBe(
      "key sk_live_[redacted] and pk_live_[redacted]",
    );
  });

  it("removes Bearer credentials", () => {
    expect(redact("Authorization: Bearer abc.def-ghi")).toBe("Authorization: Bearer [redacted]");
  });

  it("blanks authorization headers in nested log fields whatever their value", () => {
    expect(redactValue({ headers: { Authorization: "opaque-token" } })).toEqual({
      headers: { Authorization: "[redacted]" },
    });
  });

  it("survives cycles", () => {
    const value: Record<string, unknown> = { a: "sk_live_x1" };
    value.self = value;
    expect(redactValue(value)).toEqual({ a: "sk_live_[redacted]", self: "[circular]" });
  });
});
