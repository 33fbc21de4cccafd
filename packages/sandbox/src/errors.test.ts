import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./test-support/harness.js";

describe.each(["a", "b"] as const)("error envelope, variant %s", (variant) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ variant });
  });
  afterAll(() => h.close());

  it("answers 400 invalid_json to a malformed body", async () => {
    const reply = await h.call("POST", "/v1/charges", {
      raw: '{"amount": 10',
      headers: { "content-type": "application/json" },
    });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ error: { code: "invalid_json", message: expect.any(String) } });
  });

  it("answers 415 unsupported_media_type to a body that is not declared JSON", async () => {
    const reply = await h.call("POST", "/v1/charges", {
      raw: "amount=10",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(reply.status).toBe(415);
    expect(reply.body.error.code).toBe("unsupported_media_type");
  });

  it("answers 404 not_found to an unknown route", async () => {
    const reply = await h.call("GET", "/v1/refunds");
    expect(reply.status).toBe(404);
    expect(reply.body.error.code).toBe("not_found");
  });

  it("answers 405 method_not_allowed with an Allow header to a wrong method", async () => {
    const reply = await h.call("PUT", "/v1/transactions", { body: {} });
    expect(reply.status).toBe(405);
    expect(reply.body.error.code).toBe("method_not_allowed");
    expect(reply.headers.get("allow")).toBe("GET");
  });

  it("answers 413 payload_too_large to an oversized body", async () => {
    const reply = await h.call("POST", "/v1/charges", {
      body: { amount: 1000, description: "x".repeat(200_000) },
    });
    expect(reply.status).toBe(413);
    expect(reply.body.error.code).toBe("payload_too_large");
  });

  it("answers 400 invalid_body to a JSON body that is not an object", async () => {
    const reply = await h.call("POST", "/v1/charges", { body: [1, 2] });
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe("invalid_body");
  });

  it("answers 404 in the envelope to an unknown control route and page", async () => {
    expect((await h.control("GET", "/nothing")).body.error.code).toBe("not_found");
    expect((await h.call("GET", "/nothing", { key: null })).body.error.code).toBe("not_found");
  });

  it("answers 404 charge_not_found to a percent-encoding that does not decode", async () => {
    const reply = await h.call("GET", "/v1/charges/%E0%A4%A/status");
    expect(reply.status).toBe(404);
    expect(reply.body.error.code).toBe("charge_not_found");
  });
});
