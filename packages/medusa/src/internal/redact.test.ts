import { describe, expect, it } from "vitest";
import { maskDocument, redact, redactString } from "./redact";

describe("redact", () => {
  it("removes API keys from any string", () => {
    expect(redactString("Bearer sk_live_abcDEF123 failed")).toBe(
      "Bearer sk_live_[redacted] failed",
    );
  });

  it("redacts secret fields and masks documents deep inside objects", () => {
    const out = redact({
      options: { apiKey: "sk_live_x", webhookSecret: "s".repeat(20) },
      customer: { document: "123.456.789-09", name: "Ana" },
      note: ["key sk_live_zzz"],
    });
    expect(out).toEqual({
      options: { apiKey: "[redacted]", webhookSecret: "[redacted]" },
      customer: { document: "*********09", name: "Ana" },
      note: ["key sk_live_[redacted]"],
    });
  });

  it("keeps only the message of an error, redacted", () => {
    expect(redact(new Error("auth sk_live_abc"))).toEqual({
      name: "Error",
      message: "auth sk_live_[redacted]",
    });
  });

  it("survives cycles", () => {
    const a: Record<string, unknown> = { x: 1 };
    a.self = a;
    expect(redact(a)).toEqual({ x: 1, self: "[circular]" });
  });
});

describe("maskDocument", () => {
  it("keeps only the last two characters of a CNPJ", () => {
    expect(maskDocument("12.ABC.345/01DE-35")).toBe("************35");
  });
});
