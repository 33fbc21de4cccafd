import { describe, expect, it } from "vitest";
import { chargeIdOf, tokenMatches, unstorableTextPath, type ParsedWebhook } from "./webhook-intake";

describe("tokenMatches", () => {
  it("accepts the configured secret", () => {
    expect(tokenMatches("whsec-0123456789abcdef", "whsec-0123456789abcdef")).toBe(true);
  });

  it("rejects a missing, shorter, longer or different token", () => {
    const secret = "whsec-0123456789abcdef";
    for (const given of [
      undefined,
      ["whsec-0123456789abcdef"],
      "whsec",
      `${secret}x`,
      "whsec-0123456789abcdeX",
    ]) {
      expect(tokenMatches(given, secret)).toBe(false);
    }
  });
});

describe("chargeIdOf", () => {
  const event = (data: Record<string, unknown>, name = "charge.paid") =>
    ({ event: name, data: { amount: 500, status: "paid", ...data } }) as ParsedWebhook;

  it("prefers Variant B's ch_svc_ id over the uuid", () => {
    expect(chargeIdOf(event({ uuid: "u-1", id: "ch_svc_1" }))).toBe("ch_svc_1");
  });

  it("uses the uuid in Variant A", () => {
    expect(chargeIdOf(event({ uuid: "u-1" }))).toBe("u-1");
  });

  it("names no charge for transfer events", () => {
    expect(chargeIdOf(event({ id: "wd_1" }, "transfer.completed"))).toBeNull();
  });
});

describe("unstorableTextPath", () => {
  it("names the field holding a NUL character", () => {
    expect(unstorableTextPath({ event: "charge.paid", data: { description: "a\u0000b" } })).toBe(
      "data.description",
    );
  });

  it("names the field holding an unpaired surrogate", () => {
    expect(unstorableTextPath({ data: { customer: { name: "x\ud800" } } })).toBe(
      "data.customer.name",
    );
  });

  it("accepts emoji, accents and right-to-left text", () => {
    expect(
      unstorableTextPath({ data: { description: "Café ☕ 🇧🇷 \u202eabc", tags: ["ação"] } }),
    ).toBeNull();
  });
});
