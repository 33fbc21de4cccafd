import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./test-support/harness.js";

const SECURITY = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "strict-transport-security": "max-age=63072000; includeSubDomains; preload",
  "cache-control": "no-store, no-cache, must-revalidate",
  "access-control-allow-origin": "*",
  "access-control-allow-headers": "authorization, content-type, x-idempotency-key",
  "access-control-allow-methods": "GET, POST, OPTIONS",
};

describe.each(["a", "b"] as const)(
  "cross-cutting headers and rate limits, variant %s",
  (variant) => {
    let h: Harness;
    beforeAll(async () => {
      h = await startHarness({
        variant,
        keys: ["sk_live_sandbox_default", "sk_live_other_key_0001"],
      });
    });
    afterAll(() => h.close());
    beforeEach(async () => {
      await h.control("POST", "/reset");
    });

    it.each([
      ["a success", "GET", "/v1/balance", {}],
      ["an auth error", "GET", "/v1/balance", { key: null }],
      ["an unknown route", "GET", "/v1/nowhere", {}],
      ["a wrong method", "DELETE", "/v1/balance", {}],
      ["a validation error", "POST", "/v1/charges", { body: { amount: -1 } }],
      ["a control route", "GET", "/__sandbox/webhooks", { key: null }],
      ["the human page", "GET", "/", { key: null }],
      ["a CORS preflight", "OPTIONS", "/v1/charges", { key: null }],
    ] as const)(
      "sends the security, CORS and X-RateLimit headers on %s",
      async (_label, method, path, options) => {
        const reply = await h.call(method, path, options);
        for (const [name, value] of Object.entries(SECURITY))
          expect(reply.headers.get(name)).toBe(value);
        expect(Number(reply.headers.get("x-ratelimit-limit"))).toBeGreaterThan(0);
        expect(reply.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);
        expect(Number(reply.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000);
      },
    );

    it("gives every response its own X-Request-Id", async () => {
      const first = await h.call("GET", "/v1/balance");
      const second = await h.call("GET", "/v1/balance", { key: null });
      expect(first.headers.get("x-request-id")).toMatch(/^req_[0-9a-f-]{36}$/);
      expect(second.headers.get("x-request-id")).toMatch(/^req_/);
      expect(first.headers.get("x-request-id")).not.toBe(second.headers.get("x-request-id"));
    });

    it("answers JSON with content type application/json", async () => {
      const reply = await h.call("GET", "/v1/balance");
      expect(reply.headers.get("content-type")).toMatch(/^application\/json/);
    });

    it("counts POST /v1/charges down from 60 and answers 429 rate_limit_exceeded on the 61st", async () => {
      const remaining: number[] = [];
      for (let i = 0; i < 60; i++) {
        const reply = await h.call("POST", "/v1/charges", { body: { amount: 0 } });
        remaining.push(Number(reply.headers.get("x-ratelimit-remaining")));
      }
      expect(remaining[0]).toBe(59);
      expect(remaining[59]).toBe(0);
      const over = await h.call("POST", "/v1/charges", { body: { amount: 0 } });
      expect(over.status).toBe(429);
      expect(over.body.error.code).toBe("rate_limit_exceeded");
      expect(over.body.error.message).toMatch(/slow down/i);
      expect(over.headers.get("x-ratelimit-limit")).toBe("60");
      expect(over.headers.get("x-ratelimit-remaining")).toBe("0");
      expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    });

    it("counts the charge limit per key, so another key still has its full window", async () => {
      for (let i = 0; i < 61; i++) await h.call("POST", "/v1/charges", { body: { amount: 0 } });
      const other = await h.call("POST", "/v1/charges", {
        key: "sk_live_other_key_0001",
        body: { amount: 0 },
      });
      expect(other.status).toBe(400);
      expect(other.headers.get("x-ratelimit-remaining")).toBe("59");
    });

    it("does not limit reads, which report the key's charge window", async () => {
      for (let i = 0; i < 61; i++) await h.call("POST", "/v1/charges", { body: { amount: 0 } });
      const read = await h.call("GET", "/v1/balance");
      expect(read.status).toBe(200);
      expect(read.headers.get("x-ratelimit-remaining")).toBe("0");
    });

    it("limits POST /v1/withdrawals to 30 a minute per key", async () => {
      for (let i = 0; i < 30; i++) {
        const reply = await h.call("POST", "/v1/withdrawals", { body: { amount: 100 } });
        expect(reply.headers.get("x-ratelimit-limit")).toBe("30");
      }
      const over = await h.call("POST", "/v1/withdrawals", { body: { amount: 100 } });
      expect(over.status).toBe(429);
      expect(over.body.error.code).toBe("rate_limit_exceeded");
    });

    it("forgets rate-limit windows on reset", async () => {
      for (let i = 0; i < 61; i++) await h.call("POST", "/v1/charges", { body: { amount: 0 } });
      await h.control("POST", "/reset");
      const reply = await h.call("POST", "/v1/charges", { body: { amount: 0 } });
      expect(reply.status).toBe(400);
    });
  },
);
