import { describe, expect, it } from "vitest";
import { maskDocument, redact, redactValue } from "./redact.js";

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

describe("redact, for every package", () => {
  it("removes test and restricted keys too", () => {
    expect(redact("sk_test_abc rk_live_def")).toBe("sk_test_[redacted] rk_live_[redacted]");
  });

  it("removes a webhook URL's token and keeps the rest of the URL", () => {
    expect(redact("POST /hooks/pix-checkout/pp_pix?token=s3cr3t-Value&x=1 200")).toBe(
      "POST /hooks/pix-checkout/pp_pix?token=[redacted]&x=1 200",
    );
  });

  it("removes a recovery link's token from its path, wherever the URL is printed, and keeps the rest", () => {
    const token = "Ab3_dE-fGhIjKlMnOpQrStUvWxYz0123";
    expect(redact(`GET /pix-checkout/recovery/${token} 200`)).toBe(
      "GET /pix-checkout/recovery/[redacted] 200",
    );
    expect(redact(`https://api.loja.example.com/pix-checkout/recovery/${token}/opt-out?x=1`)).toBe(
      "https://api.loja.example.com/pix-checkout/recovery/[redacted]/opt-out?x=1",
    );
    // Express routes paths case-insensitively: so does the pattern.
    expect(redact(`/Pix-Checkout/Recovery/${token}#top`)).toBe(
      "/Pix-Checkout/Recovery/[redacted]#top",
    );
    expect(redact(redact(`/pix-checkout/recovery/${token}`))).toBe(
      "/pix-checkout/recovery/[redacted]",
    );
    expect(redact("/pix-checkout/recovery/")).toBe("/pix-checkout/recovery/");
  });

  it("removes a URL's user info, wherever the URL is printed, and keeps e-mail addresses", () => {
    expect(redact("GET https://shop:s3cr3t@api.example.com/v1/charges failed")).toBe(
      "GET https://[redacted]@api.example.com/v1/charges failed",
    );
    expect(redact('{"baseUrl":"http://token@127.0.0.1:4010/v1"}')).toBe(
      '{"baseUrl":"http://[redacted]@127.0.0.1:4010/v1"}',
    );
    expect(redact("at https://user:p@ss@api.example.com/v1")).toBe(
      "at https://[redacted]@api.example.com/v1",
    );
    expect(redact("mail ana@example.com at https://api.example.com/v1?x=a@b")).toBe(
      "mail ana@example.com at https://api.example.com/v1?x=a@b",
    );
  });

  it("blanks credential fields and masks payer documents deep inside objects", () => {
    expect(
      redactValue({
        options: { apiKey: "opaque", webhookSecret: "s".repeat(20) },
        customer: { document: "123.456.789-09", name: "Ana" },
        note: ["key sk_live_zzz"],
      }),
    ).toEqual({
      options: { apiKey: "[redacted]", webhookSecret: "[redacted]" },
      customer: { document: "*********09", name: "Ana" },
      note: ["key sk_live_[redacted]"],
    });
  });

  it("keeps only the last two characters of a CNPJ", () => {
    expect(maskDocument("12.ABC.345/01DE-35")).toBe("************35");
  });

  it("keeps only an error's name and redacted message", () => {
    expect(redactValue(new Error("auth sk_live_abc"))).toEqual({
      name: "Error",
      message: "auth sk_live_[redacted]",
    });
  });
});
