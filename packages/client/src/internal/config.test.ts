import { describe, expect, it } from "vitest";
import { ConfigurationError, PixClient } from "../index.js";

const ok = {
  apiKey: "sk_live_abc123",
  baseUrl: "https://api.example.com/v1",
  variant: "b" as const,
};

function refusal(options: Record<string, unknown>): ConfigurationError {
  try {
    new PixClient({ ...ok, ...options } as never);
  } catch (error) {
    return error as ConfigurationError;
  }
  throw new Error("constructor accepted the options");
}

describe("PixClient construction", () => {
  it("refuses a publishable key and says it is one", () => {
    const error = refusal({ apiKey: "pk_live_shopfront_9f8e7d" });
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.code).toBe("invalid_configuration");
    expect(error.message).toContain("publishable key");
    expect(error.message).not.toContain("shopfront_9f8e7d");
  });

  it("refuses a key without the sk_live_ prefix without echoing it", () => {
    const error = refusal({ apiKey: "sk_test_secretvalue42" });
    expect(error.message).toContain("sk_live_");
    expect(error.message).not.toContain("secretvalue42");
  });

  it("refuses a missing key", () => {
    expect(refusal({ apiKey: "" }).message).toContain("apiKey is required");
  });

  it("refuses plain http to a remote host", () => {
    expect(refusal({ baseUrl: "http://api.example.com/v1" }).message).toContain("https");
  });

  it.each(["http://127.0.0.1:4010/v1", "http://localhost:4010/v1", "http://[::1]:4010/v1"])(
    "allows plain http on loopback (%s)",
    (baseUrl) => {
      expect(new PixClient({ ...ok, baseUrl }).variant).toBe("b");
    },
  );

  it("refuses an unknown variant", () => {
    expect(refusal({ variant: "c" }).message).toContain('variant must be "a"');
  });

  it("refuses a negative retry count", () => {
    expect(refusal({ maxRetries: -1 }).message).toContain("maxRetries");
  });

  it("does not expose the key on the client object", () => {
    const client = new PixClient({ ...ok, apiKey: "sk_live_hidden_value" });
    expect(JSON.stringify(client)).not.toContain("hidden_value");
    expect(Object.values(client).some((value) => String(value).includes("hidden_value"))).toBe(
      false,
    );
  });
});
