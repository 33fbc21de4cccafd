import { createServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { PixClient } from "../client.js";
import {
  AuthenticationError,
  ChargeOutcomeUnknownError,
  ConnectionError,
  NotFoundError,
  PermissionError,
  PixError,
  RequestAbortedError,
  ResponseValidationError,
  ServerError,
  TimeoutError,
} from "../errors.js";
import { FakeClock } from "../test-support/fake-clock.js";
import { chargeB, createdPixA, TEST_KEY } from "../test-support/fixtures.js";
import { capturingLogger, mockClient } from "../test-support/mock-api.js";

const statusBody = { id: "ch_svc_abc123", status: "pending", paid: false };

describe("error mapping", () => {
  it.each([
    [401, "invalid_api_key", AuthenticationError],
    [403, "api_key_revoked", PermissionError],
    [404, "charge_not_found", NotFoundError],
  ])("maps %i %s to its class with the code verbatim", async (status, code, Class) => {
    const { client, pool } = mockClient("b");
    pool
      .intercept({ path: "/v1/charges/ch_svc_x" })
      .reply(
        status,
        { error: { code, message: "nope" } },
        { headers: { "x-request-id": "req_42" } },
      );
    const error = (await client.charges.retrieve("ch_svc_x").catch((e: unknown) => e)) as PixError;
    expect(error).toBeInstanceOf(Class);
    expect(error).toMatchObject({ code, status, requestId: "req_42" });
  });

  it("maps an error body that is not JSON by its status", async () => {
    const { client, pool } = mockClient("b", { maxRetries: 0 });
    pool.intercept({ path: "/v1/balance" }).reply(502, "<html>Bad gateway</html>");
    const error = (await client.balance.retrieve().catch((e: unknown) => e)) as PixError;
    expect(error).toBeInstanceOf(ServerError);
    expect(error.code).toBe("api_error");
  });
});

describe("reads", () => {
  it("retry a 503 and return the later answer", async () => {
    const { client, pool } = mockClient("b");
    pool.intercept({ path: "/v1/charges/ch_svc_abc123/status" }).reply(503, {});
    pool.intercept({ path: "/v1/charges/ch_svc_abc123/status" }).reply(200, statusBody);
    expect((await client.charges.status("ch_svc_abc123")).status).toBe("pending");
  });

  it("give up with ServerError after maxRetries", async () => {
    const { client, pool } = mockClient("b", { maxRetries: 2 });
    let calls = 0;
    pool
      .intercept({ path: "/v1/charges/ch_svc_abc123/status" })
      .reply(() => (calls++, { statusCode: 500, data: {} }))
      .persist();
    await expect(client.charges.status("ch_svc_abc123")).rejects.toBeInstanceOf(ServerError);
    expect(calls).toBe(3);
  });

  it("back off with growing, jittered delays between retries", async () => {
    const { client, pool, clock } = mockClient("b", { maxRetries: 3 });
    pool.intercept({ path: "/v1/charges/ch_svc_abc123/status" }).reply(500, {}).persist();
    await client.charges.status("ch_svc_abc123").catch(() => undefined);
    const [first, second, third] = clock.sleeps;
    expect(first).toBeGreaterThanOrEqual(375);
    expect(first).toBeLessThanOrEqual(500);
    expect(second).toBeGreaterThanOrEqual(750);
    expect(third).toBeGreaterThanOrEqual(1500);
  });

  it("retry a connection reset", async () => {
    const { client, pool } = mockClient("b");
    pool
      .intercept({ path: "/v1/charges/ch_svc_abc123/status" })
      .replyWithError(new Error("ECONNRESET"));
    pool.intercept({ path: "/v1/charges/ch_svc_abc123/status" }).reply(200, statusBody);
    expect((await client.charges.status("ch_svc_abc123")).paid).toBe(false);
  });

  it("time out with TimeoutError", async () => {
    const { client, pool } = mockClient("b", { timeoutMs: 30, maxRetries: 0 });
    pool.intercept({ path: "/v1/charges/ch_svc_abc123/status" }).reply(200, statusBody).delay(300);
    const error = (await client.charges
      .status("ch_svc_abc123")
      .catch((e: unknown) => e)) as PixError;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.code).toBe("timeout");
  });

  it("reject a 200 that is not JSON", async () => {
    const { client, pool } = mockClient("b");
    pool.intercept({ path: "/v1/charges/ch_svc_abc123" }).reply(200, "<html>maintenance</html>");
    const error = (await client.charges
      .retrieve("ch_svc_abc123")
      .catch((e: unknown) => e)) as PixError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.code).toBe("invalid_response");
  });

  it("reject a status response whose paid flag contradicts its status", async () => {
    const { client, pool } = mockClient("b");
    pool
      .intercept({ path: "/v1/charges/ch_svc_abc123/status" })
      .reply(200, { id: "ch_svc_abc123", status: "pending", paid: true });
    await expect(client.charges.status("ch_svc_abc123")).rejects.toBeInstanceOf(
      ResponseValidationError,
    );
  });

  it("reject a charge whose status is not one of the four", async () => {
    const { client, pool } = mockClient("b");
    pool
      .intercept({ path: "/v1/charges/ch_svc_abc123" })
      .reply(200, chargeB({ status: "refunded" }));
    const error = (await client.charges
      .retrieve("ch_svc_abc123")
      .catch((e: unknown) => e)) as ResponseValidationError;
    expect(error.issues[0]?.path).toBe("status");
  });

  it("read the balance in cents and check the float summary", async () => {
    const { client, pool } = mockClient("b");
    pool.intercept({ path: "/v1/balance" }).reply(200, {
      object: "balance",
      available: [{ amount: 12345, currency: "brl" }],
      pending: [{ amount: 500, currency: "brl" }],
      summary: {
        available_balance: 123.45,
        pending_balance: 5,
        total_earned: 200,
        total_withdrawn: 0,
        currency: "BRL",
      },
      livemode: true,
    });
    expect(await client.balance.retrieve()).toMatchObject({
      availableCents: 12345,
      pendingCents: 500,
    });
  });
});

// Real sockets on loopback for what MockAgent cannot fake faithfully: a body cut short.
describe("a response body cut short", () => {
  let server: Server | undefined;
  afterEach(
    () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
  );

  async function truncatingServer(
    status: number,
  ): Promise<{ baseUrl: string; requests: () => number }> {
    let count = 0;
    server = createServer((socket) => {
      socket.once("data", () => {
        count++;
        socket.write(
          `HTTP/1.1 ${status} X\r\ncontent-type: application/json\r\ncontent-length: 500\r\n\r\n{"id":"ch_svc_abc123","sta`,
        );
        setImmediate(() => socket.destroy());
      });
    });
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : 0;
    return { baseUrl: `http://127.0.0.1:${port}/v1`, requests: () => count };
  }

  it("is a ConnectionError on a read, after retrying", async () => {
    const { baseUrl, requests } = await truncatingServer(200);
    const client = new PixClient({
      apiKey: TEST_KEY,
      baseUrl,
      variant: "b",
      maxRetries: 1,
      clock: new FakeClock(),
    });
    await expect(client.charges.status("ch_svc_abc123")).rejects.toBeInstanceOf(ConnectionError);
    expect(requests()).toBe(2);
  });

  it("is an unknown outcome on a Variant A create, sent once", async () => {
    const { baseUrl, requests } = await truncatingServer(201);
    const client = new PixClient({
      apiKey: TEST_KEY,
      baseUrl,
      variant: "a",
      clock: new FakeClock(),
    });
    const error = await client.charges
      .create({ method: "pix", amountCents: 1990 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChargeOutcomeUnknownError);
    expect(requests()).toBe(1);
  });
});

describe("a refused connection", () => {
  it("is retried even for a Variant A create, since nothing was sent", async () => {
    // Bind then close a port, so connecting to it is refused.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const address = probe.address();
    const port = typeof address === "object" && address ? address.port : 0;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const clock = new FakeClock();
    const client = new PixClient({
      apiKey: TEST_KEY,
      baseUrl: `http://127.0.0.1:${port}/v1`,
      variant: "a",
      maxRetries: 2,
      clock,
    });
    const error = (await client.charges
      .create({ method: "pix", amountCents: 1990 })
      .catch((e: unknown) => e)) as PixError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toContain("nothing was sent");
    expect(clock.sleeps).toHaveLength(2);
  });
});

describe("secrets", () => {
  it("never appear in an error or a log line", async () => {
    const logger = capturingLogger();
    const { client, pool } = mockClient("a", { logger, timeoutMs: 30, maxRetries: 1 });
    // Servers sometimes echo what they got; the client must still not pass it on.
    pool.intercept({ path: "/v1/charges/0b6e0c52-9a2d-4d5e-8f7a-1c2b3d4e5f60" }).reply(401, {
      error: { code: "invalid_api_key", message: `Unknown key ${TEST_KEY} (Bearer ${TEST_KEY})` },
    });
    pool
      .intercept({ path: "/v1/balance" })
      .replyWithError(new Error(`proxy said: Authorization: Bearer ${TEST_KEY}`))
      .persist();
    pool.intercept({ path: "/v1/charges", method: "POST" }).reply(201, createdPixA()).delay(300);
    const errors = await Promise.all([
      client.charges.retrieve("0b6e0c52-9a2d-4d5e-8f7a-1c2b3d4e5f60").catch((e: unknown) => e),
      client.balance.retrieve().catch((e: unknown) => e),
      client.charges.create({ method: "pix", amountCents: 1990 }).catch((e: unknown) => e),
    ]);
    const secretPart = TEST_KEY.slice("sk_live_".length);
    for (const error of errors) {
      expect(error).toBeInstanceOf(PixError);
      const pixError = error as PixError;
      const texts = [
        pixError.message,
        String(pixError),
        pixError.stack ?? "",
        JSON.stringify(pixError),
      ];
      for (let cause = pixError.cause; cause instanceof Error; cause = cause.cause) {
        texts.push(cause.message, cause.stack ?? "", JSON.stringify(cause));
      }
      expect(texts.join("\n")).not.toContain(secretPart);
    }
    expect(logger.lines.length).toBeGreaterThan(0);
    expect(logger.lines.join("\n")).not.toContain(secretPart);
    expect(logger.lines.join("\n").toLowerCase()).not.toContain("bearer sk_");
  });
});

describe("the caller's AbortSignal", () => {
  it("ends a read with RequestAbortedError", async () => {
    const { client, pool } = mockClient("b", { maxRetries: 0 });
    pool.intercept({ path: "/v1/charges/ch_svc_abc123/status" }).reply(200, statusBody).delay(500);
    const controller = new AbortController();
    const pending = client.charges.status("ch_svc_abc123", { signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    const error = (await pending.catch((e: unknown) => e)) as PixError;
    expect(error).toBeInstanceOf(RequestAbortedError);
    expect(error.code).toBe("request_aborted");
  });

  it("turns an abort after sending a Variant A create into an unknown outcome", async () => {
    const { client, pool } = mockClient("a");
    pool.intercept({ path: "/v1/charges", method: "POST" }).reply(201, createdPixA()).delay(500);
    const controller = new AbortController();
    const pending = client.charges.create(
      { method: "pix", amountCents: 1990 },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 10);
    const error = (await pending.catch((e: unknown) => e)) as ChargeOutcomeUnknownError;
    expect(error).toBeInstanceOf(ChargeOutcomeUnknownError);
    expect(error.cause).toBeInstanceOf(RequestAbortedError);
  });

  it("sends nothing when already aborted", async () => {
    const { client } = mockClient("a");
    const error = await client.charges
      .create({ method: "pix", amountCents: 1990 }, { signal: AbortSignal.abort() })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestAbortedError);
  });
});
