import { describe, expect, it } from "vitest";
import {
  ChargeOutcomeUnknownError,
  ConnectionError,
  InvalidRequestError,
  ResponseValidationError,
  TimeoutError,
} from "../errors.js";
import {
  boletoInput,
  BOLETO_BARCODE,
  BOLETO_LINE,
  chargeB,
  createdPixA,
} from "../test-support/fixtures.js";
import { mockClient, record, type SeenRequest } from "../test-support/mock-api.js";

const JSON_HEADERS = { headers: { "content-type": "application/json" } };
const pix = { method: "pix" as const, amountCents: 1990, description: "Order 1001" };

describe("charges.create in Variant B", () => {
  it("returns the normalized charge with cents and Pix data", async () => {
    const { client, pool } = mockClient("b");
    pool.intercept({ path: "/v1/charges", method: "POST" }).reply(201, chargeB(), JSON_HEADERS);
    const charge = await client.charges.create(pix);
    expect(charge).toMatchObject({
      id: "ch_svc_abc123",
      method: "pix",
      status: "pending",
      amountCents: 1990,
      currency: "BRL",
      pix: { copyPaste: expect.stringContaining("br.gov.bcb.pix"), qrCodePng: "iVBORw0KGgo=" },
    });
  });

  it("sends the caller's Idempotency-Key", async () => {
    const { client, pool } = mockClient("b");
    const seen: SeenRequest[] = [];
    pool
      .intercept({ path: "/v1/charges", method: "POST" })
      .reply((opts) => (record(seen, opts), { statusCode: 201, data: chargeB() }));
    await client.charges.create(pix, { idempotencyKey: "order-1001" });
    expect(seen[0]?.headers["idempotency-key"]).toBe("order-1001");
  });

  it("reuses one generated key across retries after a reset", async () => {
    const { client, pool } = mockClient("b");
    const keys: string[] = [];
    const keyMatcher = (value: string): boolean => (keys.push(value), true);
    pool
      .intercept({
        path: "/v1/charges",
        method: "POST",
        headers: { "idempotency-key": keyMatcher },
      })
      .replyWithError(new Error("socket hang up"));
    pool
      .intercept({
        path: "/v1/charges",
        method: "POST",
        headers: { "idempotency-key": keyMatcher },
      })
      .reply(201, chargeB());
    await client.charges.create(pix);
    const distinct = [...new Set(keys)];
    expect(distinct).toHaveLength(1);
    expect(distinct[0]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("hands back the key when retries run out, so a later retry stays safe", async () => {
    const { client, pool } = mockClient("b", { maxRetries: 1 });
    pool.intercept({ path: "/v1/charges", method: "POST" }).reply(503, {}).times(2);
    const error = await client.charges
      .create(pix, { idempotencyKey: "k-1" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChargeOutcomeUnknownError);
    expect((error as ChargeOutcomeUnknownError).details.idempotencyKey).toBe("k-1");
  });

  it("rejects a float amount that disagrees with amount_cents", async () => {
    const { client, pool } = mockClient("b");
    pool
      .intercept({ path: "/v1/charges", method: "POST" })
      .reply(201, chargeB({ amount: 19.99, amount_cents: 1990 }));
    const error = await client.charges.create(pix).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues[0]?.path).toBe("amount");
  });

  it("accepts a float whose rounding noise still names the same cents", async () => {
    const { client, pool } = mockClient("b");
    // 0.1 + 0.2 style noise: 1.005 * 100 is 100.49999, yet amount_cents 100 is not it; 0.29 is 28.999...
    pool
      .intercept({ path: "/v1/charges", method: "POST" })
      .reply(201, chargeB({ amount: 0.29, amount_cents: 29 }));
    expect((await client.charges.create({ method: "pix", amountCents: 29 })).amountCents).toBe(29);
  });

  it("refuses boleto before sending anything", async () => {
    const { client } = mockClient("b");
    const error = await client.charges.create(boletoInput()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).issues[0]?.path).toBe("method");
  });
});

describe("charges.create in Variant A", () => {
  it("sends no Idempotency-Key and payment_method in the body", async () => {
    const { client, pool } = mockClient("a");
    const seen: SeenRequest[] = [];
    pool
      .intercept({ path: "/v1/charges", method: "POST" })
      .reply((opts) => (record(seen, opts), { statusCode: 201, data: createdPixA() }));
    await client.charges.create(pix);
    expect(seen[0]?.headers).not.toHaveProperty("idempotency-key");
    expect(seen[0]?.body).toEqual({
      amount: 1990,
      payment_method: "pix",
      description: "Order 1001",
    });
  });

  it("refuses an idempotency key instead of sending it", async () => {
    const { client } = mockClient("a");
    const error = await client.charges
      .create(pix, { idempotencyKey: "x" })
      .catch((e: unknown) => e);
    expect((error as InvalidRequestError).issues[0]?.path).toBe("idempotencyKey");
  });

  it("maps a boleto to barcode and linha digitável", async () => {
    const { client, pool } = mockClient("a");
    const seen: SeenRequest[] = [];
    pool.intercept({ path: "/v1/charges", method: "POST" }).reply((opts) => {
      record(seen, opts);
      return {
        statusCode: 201,
        data: {
          success: true,
          uuid: "4b7c1f7e-6a1e-4a53-9f3e-2f8f0c1d2e3f",
          boleto_url: "https://api.pix.test/boleto/4b7c",
          barcode: BOLETO_BARCODE,
          amount: 15000,
          expires_at: "2026-03-04T12:00:00Z",
        },
      };
    });
    const charge = await client.charges.create(boletoInput());
    expect(charge.boleto).toEqual({
      url: "https://api.pix.test/boleto/4b7c",
      barcode: BOLETO_BARCODE,
      digitableLine: BOLETO_LINE,
    });
    expect(seen[0]?.body).toMatchObject({
      payment_method: "boleto",
      customer: { document: "52998224725", phone: "11987654321" },
      billing_address: { zip: "01310100", state: "SP" },
    });
  });

  it("does not retry a create that was reset after sending", async () => {
    const { client, pool } = mockClient("a");
    let calls = 0;
    pool
      .intercept({ path: "/v1/charges", method: "POST" })
      .reply(() => {
        calls++;
        throw new Error("socket hang up");
      })
      .persist();
    const error = await client.charges.create(pix).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChargeOutcomeUnknownError);
    expect((error as ChargeOutcomeUnknownError).cause).toBeInstanceOf(ConnectionError);
    expect(calls).toBe(1);
  });

  it("does not retry a create that timed out, and says what to reconcile", async () => {
    const { client, pool } = mockClient("a", { timeoutMs: 50 });
    let calls = 0;
    pool
      .intercept({ path: "/v1/charges", method: "POST" })
      .reply(() => (calls++, { statusCode: 201, data: createdPixA() }))
      .delay(500)
      .persist();
    const error = (await client.charges
      .create({ ...pix, customer: { email: "maria@example.com", document: "52998224725" } })
      .catch((e: unknown) => e)) as ChargeOutcomeUnknownError;
    expect(error).toBeInstanceOf(ChargeOutcomeUnknownError);
    expect(error.code).toBe("charge_outcome_unknown");
    expect(error.cause).toBeInstanceOf(TimeoutError);
    expect(error.details).toMatchObject({
      method: "pix",
      amountCents: 1990,
      description: "Order 1001",
      customer: { email: "maria@example.com", documentMasked: "*********25" },
    });
    expect(Date.parse(error.details.window.to)).toBeGreaterThanOrEqual(
      Date.parse(error.details.window.from),
    );
    expect(calls).toBe(1);
  });

  it("treats a 5xx on create as an unknown outcome, not retried", async () => {
    const { client, pool } = mockClient("a");
    let calls = 0;
    pool
      .intercept({ path: "/v1/charges", method: "POST" })
      .reply(() => (calls++, { statusCode: 502, data: "<html>bad gateway</html>" }))
      .persist();
    const error = await client.charges.create(pix).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChargeOutcomeUnknownError);
    expect((error as ChargeOutcomeUnknownError).status).toBe(502);
    expect(calls).toBe(1);
  });

  it("treats an unreadable 201 as an unknown outcome", async () => {
    const { client, pool } = mockClient("a");
    pool.intercept({ path: "/v1/charges", method: "POST" }).reply(201, '{"success":true,"uu');
    const error = await client.charges.create(pix).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChargeOutcomeUnknownError);
    expect((error as ChargeOutcomeUnknownError).cause).toBeInstanceOf(ResponseValidationError);
  });

  it("treats a 201 with a drifted schema as an unknown outcome", async () => {
    const { client, pool } = mockClient("a");
    pool
      .intercept({ path: "/v1/charges", method: "POST" })
      .reply(201, { ...createdPixA(), uuid: undefined, charge_id: "abc" });
    const error = (await client.charges
      .create(pix)
      .catch((e: unknown) => e)) as ChargeOutcomeUnknownError;
    expect(error).toBeInstanceOf(ChargeOutcomeUnknownError);
    expect((error.cause as ResponseValidationError).issues[0]?.path).toBe("uuid");
  });

  it("retries a create after a 429, which the service did not process", async () => {
    const { client, pool, clock } = mockClient("a");
    const resetSeconds = Math.floor(clock.now() / 1000) + 7;
    pool.intercept({ path: "/v1/charges", method: "POST" }).reply(
      429,
      { error: { code: "rate_limit_exceeded", message: "Slow down." } },
      {
        headers: {
          "x-ratelimit-limit": "60",
          "x-ratelimit-remaining": "0",
          "x-ratelimit-reset": String(resetSeconds),
        },
      },
    );
    pool.intercept({ path: "/v1/charges", method: "POST" }).reply(201, createdPixA());
    const before = clock.now();
    const charge = await client.charges.create(pix);
    expect(charge.amountCents).toBe(1990);
    expect(clock.now()).toBeGreaterThanOrEqual(resetSeconds * 1000);
    expect(clock.now() - before).toBeLessThan(8_000);
  });
});

describe("schema drift on reads", () => {
  it("names the missing Pix code of a Variant B charge", async () => {
    const { client, pool } = mockClient("b");
    pool
      .intercept({ path: "/v1/charges/ch_svc_abc123" })
      .reply(200, chargeB({ pix: { qr_code: "iVBORw0KGgo=" } }));
    const error = (await client.charges
      .retrieve("ch_svc_abc123")
      .catch((e: unknown) => e)) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.issues.map((issue) => issue.path)).toContain("pix.copy_paste");
  });

  it("rejects a Variant A boleto whose digitable_line belongs to another barcode", async () => {
    const { client, pool } = mockClient("a");
    const uuid = "4b7c1f7e-6a1e-4a53-9f3e-2f8f0c1d2e3f";
    pool.intercept({ path: `/v1/charges/${uuid}` }).reply(200, {
      success: true,
      uuid,
      payment_method: "boleto",
      amount: 15000,
      status: "pending",
      expires_at: "2026-03-04T12:00:00Z",
      boleto_url: "https://api.pix.test/boleto/x",
      barcode: BOLETO_BARCODE,
      digitable_line: BOLETO_LINE.slice(0, 46) + "7",
    });
    const error = (await client.charges
      .retrieve(uuid)
      .catch((e: unknown) => e)) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.issues[0]?.path).toBe("digitable_line");
  });

  it("rejects a Variant A amount sent in reais", async () => {
    const { client, pool } = mockClient("a");
    const uuid = "4b7c1f7e-6a1e-4a53-9f3e-2f8f0c1d2e3f";
    pool
      .intercept({ path: `/v1/charges/${uuid}` })
      .reply(200, { ...createdPixA({ uuid, amount: 19.9 }), status: "pending" });
    const error = (await client.charges
      .retrieve(uuid)
      .catch((e: unknown) => e)) as ResponseValidationError;
    expect(error.issues[0]?.path).toBe("amount");
  });
});
