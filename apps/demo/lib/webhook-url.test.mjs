import { describe, expect, it } from "vitest";
import { webhookUrl } from "./webhook-url.mjs";

describe("webhookUrl", () => {
  it("points the sandbox at the plugin's webhook route on the store", () => {
    expect(webhookUrl("http://127.0.0.1:9000")).toBe(
      "http://127.0.0.1:9000/hooks/pix-checkout/pix-checkout",
    );
  });

  it("carries the secret token in the query string, encoded", () => {
    expect(webhookUrl("http://127.0.0.1:9000", "a b&c")).toBe(
      "http://127.0.0.1:9000/hooks/pix-checkout/pix-checkout?token=a+b%26c",
    );
  });
});
