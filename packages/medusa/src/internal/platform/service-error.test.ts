import { MedusaError } from "@medusajs/framework/utils";
import { describe, expect, it } from "vitest";
import { toServiceError } from "./service-error";

describe("toServiceError", () => {
  it.each([
    { code: "charge_outcome_unknown", status: 500 },
    { code: "server_error", status: 503 },
    { code: "connection_error", status: undefined },
    { code: "timeout", status: undefined },
    { code: "rate_limit_exceeded", status: 429 },
    { code: "client_rate_limited", status: undefined },
  ])("asks the shopper to try again, not a 500, after $code", ({ code, status }) => {
    const error = toServiceError(Object.assign(new Error("upstream trouble"), { code, status }));
    expect(error.type).toBe(MedusaError.Types.CONFLICT); // 409 through Medusa's handler
    expect(error.status).toBe(503); // in the plugin's own routes
    expect(error.code).toBe(code);
    expect(error.message).toMatch(/Try again/);
  });

  it("keeps a refused charge the shopper can fix as invalid data", () => {
    const error = toServiceError(
      Object.assign(new Error("amount too small"), { code: "invalid_amount", status: 400 }),
    );
    expect(error.type).toBe(MedusaError.Types.INVALID_DATA);
    expect(error.status).toBe(400);
    expect(error.code).toBe("invalid_amount");
  });

  it("tells the merchant to check the key, without the key, when it is refused", () => {
    const error = toServiceError(
      Object.assign(new Error("bad key sk_live_abcdefghijkl"), {
        code: "invalid_api_key",
        status: 401,
      }),
    );
    expect(error.message).toMatch(/apiKey in medusa-config/);
    expect(error.status).toBe(502); // the merchant's configuration, not the caller's input
    expect(error.message).not.toContain("sk_live_abcdefghijkl");
  });

  it("turns a variant mismatch into a message that names the variant option to set", () => {
    const error = toServiceError({
      code: "variant_mismatch",
      message:
        'The payment service answers like Variant B (charge ids like ch_svc_ab...), but the client is configured with variant "a". Set variant: "b".',
    });
    expect(error.code).toBe("variant_mismatch");
    expect(error.message).toMatch(/Set variant: "b"/);
    expect(error.message).toMatch(/provider option `variant` in medusa-config/);
  });
});
