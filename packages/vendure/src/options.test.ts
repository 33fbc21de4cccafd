import { describe, expect, it } from "vitest";
import { checkOptions } from "./options";

const valid = {
  apiKey: "sk_live_sandbox_default",
  baseUrl: "http://127.0.0.1:4010/v1",
  variant: "a" as const,
  webhookSecret: "vendure-webhook-token-1234",
};

describe("the plugin's options", () => {
  it("takes a boleto grace of 0 to 30 whole bank business days, or none (3)", () => {
    for (const boletoGraceBusinessDays of [undefined, 0, 3, 30]) {
      expect(checkOptions({ ...valid, boletoGraceBusinessDays })).toMatchObject(valid);
    }
  });

  it("stops the store at start on any other grace, naming the option and what to set", () => {
    for (const boletoGraceBusinessDays of [-1, 31, 1.5, Number.NaN]) {
      expect(() => checkOptions({ ...valid, boletoGraceBusinessDays })).toThrow(
        "PixCheckoutPlugin: boletoGraceBusinessDays must be a whole number of bank business days from 0 to 30 (default 3).",
      );
    }
  });

  it("names the webhook secret's rule without echoing the value given", () => {
    let message = "";
    try {
      checkOptions({ ...valid, webhookSecret: "short secret!" });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/webhookSecret must be 16 or more URL-safe characters/);
    expect(message).not.toContain("short secret!");
  });
});
