import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./test-support/harness.js";

describe("Idempotency-Key, variant B", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      variant: "b",
      keys: ["sk_live_sandbox_default", "sk_live_other_key_0002"],
    });
  });
  afterAll(() => h.close());

  const create = (key: string, body: unknown, apiKey?: string) =>
    h.call("POST", "/v1/charges", {
      body,
      headers: { "idempotency-key": key },
      ...(apiKey ? { key: apiKey } : {}),
    });

  it("returns the same charge for the same key and body", async () => {
    const first = await create("order-1", { amount: 1990, description: "a" });
    const second = await create("order-1", { description: "a", amount: 1990 });
    expect(second.status).toBe(201);
    expect(second.body.id).toBe(first.body.id);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    const listed = await h.call("GET", "/v1/transactions?limit=100");
    expect(
      listed.body.data.filter((item: { id: string }) => item.id === first.body.id),
    ).toHaveLength(1);
  });

  it("answers 422 idempotency_key_reused for the same key with a different body", async () => {
    await create("order-2", { amount: 1990 });
    const reply = await create("order-2", { amount: 2990 });
    expect(reply.status).toBe(422);
    expect(reply.body.error.code).toBe("idempotency_key_reused");
  });

  it("creates distinct charges for distinct keys", async () => {
    const first = await create("order-3", { amount: 1990 });
    const second = await create("order-4", { amount: 1990 });
    expect(first.body.id).not.toBe(second.body.id);
  });

  it("scopes keys per API key", async () => {
    const first = await create("order-5", { amount: 1990 });
    const second = await create("order-5", { amount: 1990 }, "sk_live_other_key_0002");
    expect(second.body.id).not.toBe(first.body.id);
  });

  it("accepts X-Idempotency-Key as well", async () => {
    const first = await h.call("POST", "/v1/charges", {
      body: { amount: 500 },
      headers: { "x-idempotency-key": "order-6" },
    });
    const second = await h.call("POST", "/v1/charges", {
      body: { amount: 500 },
      headers: { "x-idempotency-key": "order-6" },
    });
    expect(second.body.id).toBe(first.body.id);
  });

  it("refuses a key longer than 255 characters with 400 invalid_idempotency_key", async () => {
    const reply = await create("k".repeat(256), { amount: 1990 });
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe("invalid_idempotency_key");
  });

  it("does not remember a key whose create failed validation", async () => {
    await create("order-7", { amount: -1 });
    const reply = await create("order-7", { amount: 1990 });
    expect(reply.status).toBe(201);
  });
});
