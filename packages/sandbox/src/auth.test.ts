import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./test-support/harness.js";

describe.each(["a", "b"] as const)("auth, variant %s", (variant) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      variant,
      keys: ["sk_live_sandbox_default", "sk_live_second_key_1234"],
    });
  });
  afterAll(() => h.close());

  // The spec's charge pages name `unauthorized` for an absent header; its auth table names
  // `missing_authorization` for "any" endpoint. Our choice: the charge endpoints answer the
  // former, every other endpoint the latter.
  it.each([
    ["POST", "/v1/charges", "unauthorized"],
    ["GET", "/v1/charges/00000000-0000-4000-8000-000000000000", "unauthorized"],
    ["GET", "/v1/charges/00000000-0000-4000-8000-000000000000/status", "unauthorized"],
    ["GET", "/v1/balance", "missing_authorization"],
    ["GET", "/v1/transactions", "missing_authorization"],
    ["POST", "/v1/withdrawals", "missing_authorization"],
  ])("answers 401 when %s %s has no Authorization header", async (method, path, code) => {
    const reply = await h.call(method, path, {
      key: null,
      ...(method === "POST" ? { body: {} } : {}),
    });
    expect(reply.status).toBe(401);
    expect(reply.body.error.code).toBe(code);
  });

  it.each([
    "Basic c2tfbGl2ZV94",
    "Bearer",
    "Bearer  sk_live_sandbox_default",
    "sk_live_sandbox_default",
    "Bearer a b",
  ])("answers 401 invalid_authorization for the malformed header %j", async (header) => {
    const reply = await h.call("GET", "/v1/balance", { headers: { authorization: header } });
    expect(reply.status).toBe(401);
    expect(reply.body.error.code).toBe("invalid_authorization");
  });

  it("refuses a publishable pk_live_ key with 401 invalid_api_key", async () => {
    const reply = await h.call("GET", "/v1/balance", { key: "pk_live_sandbox_default" });
    expect(reply.status).toBe(401);
    expect(reply.body.error.code).toBe("invalid_api_key");
    expect(reply.body.error.message).toMatch(/publishable/);
  });

  it("refuses an unknown secret key with 401 invalid_api_key without echoing it", async () => {
    const reply = await h.call("GET", "/v1/balance", { key: "sk_live_not_a_real_key_987" });
    expect(reply.status).toBe(401);
    expect(reply.body.error.code).toBe("invalid_api_key");
    expect(reply.text).not.toContain("sk_live_not_a_real_key_987");
  });

  it("answers 403 api_key_disabled for a disabled key, and accepts it again once active", async () => {
    await h.control("POST", "/keys", { key: "sk_live_second_key_1234", state: "disabled" });
    const disabled = await h.call("GET", "/v1/balance", { key: "sk_live_second_key_1234" });
    expect(disabled.status).toBe(403);
    expect(disabled.body.error.code).toBe("api_key_disabled");
    await h.control("POST", "/keys", { key: "sk_live_second_key_1234", state: "active" });
    expect((await h.call("GET", "/v1/balance", { key: "sk_live_second_key_1234" })).status).toBe(
      200,
    );
  });

  it("answers 403 api_key_revoked for a revoked key", async () => {
    await h.control("POST", "/keys", { key: "sk_live_revoked_key_5678", state: "revoked" });
    const reply = await h.call("GET", "/v1/balance", { key: "sk_live_revoked_key_5678" });
    expect(reply.status).toBe(403);
    expect(reply.body.error.code).toBe("api_key_revoked");
  });

  it("accepts a key added at run time through the control route", async () => {
    const added = await h.control("POST", "/keys", {
      key: "sk_live_added_later_0001",
      state: "active",
    });
    expect(added.body.key).not.toBe("sk_live_added_later_0001");
    expect((await h.call("GET", "/v1/balance", { key: "sk_live_added_later_0001" })).status).toBe(
      200,
    );
  });

  it("lets the default key be replaced by the keys option", async () => {
    const other = await startHarness({ variant, keys: ["sk_live_only_this_one_42"] });
    try {
      expect((await other.call("GET", "/v1/balance")).body.error.code).toBe("invalid_api_key");
      expect(
        (await other.call("GET", "/v1/balance", { key: "sk_live_only_this_one_42" })).status,
      ).toBe(200);
    } finally {
      await other.close();
    }
  });
});
