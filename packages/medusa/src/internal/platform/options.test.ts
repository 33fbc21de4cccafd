import { describe, expect, it } from "vitest";
import { parseOptions } from "./options";

const valid = {
  apiKey: "sk_live_abc123",
  baseUrl: "https://api.example.com/v1/",
  variant: "a",
};

describe("parseOptions", () => {
  it("applies defaults and trims a trailing slash from baseUrl", () => {
    const options = parseOptions(valid);
    expect(options.baseUrl).toBe("https://api.example.com/v1");
    expect(options.boletoDueDays).toBe(3);
    expect(options.reconcileIntervalMinutes).toBe(5);
    expect(options.cancelOrderOnExpiry).toBe(true);
    expect(options.boletoGraceBusinessDays).toBe(3);
  });

  it("keeps finished charges' history 90 days unless told a number of days or false", () => {
    expect(parseOptions(valid).retentionDays).toBe(90);
    expect(parseOptions({ ...valid, retentionDays: 30 }).retentionDays).toBe(30);
    expect(parseOptions({ ...valid, retentionDays: false }).retentionDays).toBe(false);
    expect(() => parseOptions({ ...valid, retentionDays: 0 })).toThrow(/retentionDays/);
    expect(() => parseOptions({ ...valid, retentionDays: true })).toThrow(/retentionDays/);
  });

  it("lets a merchant keep expired orders and choose the boleto grace period", () => {
    const options = parseOptions({
      ...valid,
      cancelOrderOnExpiry: false,
      boletoGraceBusinessDays: 0,
    });
    expect(options).toMatchObject({ cancelOrderOnExpiry: false, boletoGraceBusinessDays: 0 });
    expect(() => parseOptions({ ...valid, boletoGraceBusinessDays: 2.5 })).toThrow(
      /boletoGraceBusinessDays/,
    );
  });

  it("rejects a publishable key and says to use the secret key", () => {
    expect(() => parseOptions({ ...valid, apiKey: "pk_live_abc" })).toThrow(
      /apiKey: apiKey is a publishable key \(pk_live_\.\.\.\); use the secret key/,
    );
  });

  it("never echoes the key it rejects", () => {
    let message = "";
    try {
      parseOptions({ ...valid, apiKey: "sk_test_very_secret_value" });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/apiKey must be a secret key starting with sk_live_/);
    expect(message).not.toContain("very_secret_value");
  });

  it("names every wrong field at once", () => {
    expect(() =>
      parseOptions({ apiKey: "sk_live_x", baseUrl: "ftp://x/v1", variant: "c" }),
    ).toThrow(/baseUrl: .*; variant: variant must be "a"/);
  });

  it("refuses a baseUrl with user info, without repeating it", () => {
    const attempt = () =>
      parseOptions({ ...valid, baseUrl: "https://shop:s3cr3t@api.example.com/v1" });
    expect(attempt).toThrow(/baseUrl must not carry a user name or password/);
    expect(attempt).not.toThrow(/s3cr3t/);
  });

  it("requires baseUrl to end in /v1", () => {
    expect(() => parseOptions({ ...valid, baseUrl: "https://api.example.com" })).toThrow(
      /baseUrl must end in the version segment \/v1/,
    );
  });

  it("rejects boleto against Variant B and names the pix-only provider", () => {
    expect(() => parseOptions({ ...valid, variant: "b" }, ["boleto"])).toThrow(
      /boleto exists only in Variant A.*providers\/pix-only/,
    );
  });

  it("rejects a short webhook secret", () => {
    expect(() => parseOptions({ ...valid, webhookSecret: "short" })).toThrow(
      /webhookSecret must be at least 16 characters/,
    );
  });

  it("has code invalid_options", () => {
    expect(() => parseOptions({})).toThrow(expect.objectContaining({ code: "invalid_options" }));
  });

  it("refuses to start without a webhookSecret in production, and starts without one elsewhere", () => {
    const valid = {
      apiKey: "sk_live_abc123",
      baseUrl: "https://api.example.com/v1",
      variant: "a",
    };
    const before = process.env.NODE_ENV;
    try {
      process.env.NODE_ENV = "production";
      expect(() => parseOptions(valid)).toThrow(/webhookSecret: required in production/);
      expect(parseOptions({ ...valid, webhookSecret: "a-random-token-0123456789" }).variant).toBe(
        "a",
      );
      process.env.NODE_ENV = "development";
      expect(parseOptions(valid).webhookSecret).toBeUndefined();
    } finally {
      process.env.NODE_ENV = before;
    }
  });
});
