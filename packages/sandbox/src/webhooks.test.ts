import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  startHarness,
  startReceiver,
  type Harness,
  type Receiver,
} from "./test-support/harness.js";

describe.each(["a", "b"] as const)("webhooks, variant %s", (variant) => {
  let h: Harness;
  let receiver: Receiver;
  beforeAll(async () => {
    h = await startHarness({ variant, webhookRetryDelaysMs: [20, 40, 80], webhookTimeoutMs: 300 });
  });
  afterAll(() => h.close());
  beforeEach(async () => {
    receiver = await startReceiver();
    await h.control("POST", "/reset");
    await h.control("DELETE", "/webhook-urls");
    await h.control("POST", "/webhook-urls", { url: receiver.url });
  });
  afterEach(async () => {
    await h.sandbox.webhooksIdle();
    await receiver.close();
  });

  it("POSTs charge.paid with the documented fields as JSON", async () => {
    const created = await h.createPix(1990, {
      description: "T-shirt",
      customer: { name: "Ana", email: "ana@example.com" },
    });
    await h.control("POST", `/charges/${h.idOf(created)}/pay`);
    const [delivery] = await receiver.waitFor(1);
    expect(delivery?.headers["content-type"]).toBe("application/json");
    expect(delivery?.body).toEqual({
      event: "charge.paid",
      data: {
        uuid: created.uuid,
        ...(variant === "b" ? { id: created.id } : {}),
        amount: 1990,
        status: "paid",
        method: "pix",
        description: "T-shirt",
        customer: { name: "Ana", email: "ana@example.com" },
        created_at: created.created_at,
        paid_at: expect.stringMatching(/^\d{4}-/),
      },
    });
  });

  it("logs each attempt with its event, URL, attempt number, status and body", async () => {
    const created = await h.createPix();
    await h.control("POST", `/charges/${h.idOf(created)}/pay`);
    await receiver.waitFor(1);
    await h.sandbox.webhooksIdle();
    const [entry] = (await h.control("GET", "/webhooks")).body;
    expect(entry).toEqual({
      id: expect.stringMatching(/^whd_/),
      event_id: expect.stringMatching(/^evt_/),
      event: "charge.paid",
      url: receiver.url,
      attempt: 1,
      status_code: 200,
      error: null,
      delivered_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      next_retry_at: null,
      body: receiver.received[0]?.body,
    });
  });

  it("POSTs charge.expired with expired_at when the clock passes expires_at", async () => {
    const created = await h.createPix();
    h.sandbox.clock.advance(31 * 60_000);
    const [delivery] = await receiver.waitFor(1);
    expect(delivery?.body).toMatchObject({
      event: "charge.expired",
      data: { uuid: created.uuid, status: "expired", amount: 1990, expired_at: created.expires_at },
    });
  });

  it("POSTs charge.expired on its own once real time passes expires_at", async () => {
    const quick = await startHarness({ variant, pixExpirySeconds: 1, webhookUrls: [receiver.url] });
    try {
      const created = await quick.createPix();
      const [delivery] = await receiver.waitFor(1);
      expect(delivery?.body).toMatchObject({
        event: "charge.expired",
        data: { uuid: created.uuid },
      });
    } finally {
      await quick.close();
    }
  });

  it("POSTs charge.failed with failed_at and the failure reason", async () => {
    const created = await h.createPix();
    await h.control("POST", `/charges/${h.idOf(created)}/fail`, { reason: "bank_declined" });
    const [delivery] = await receiver.waitFor(1);
    expect(delivery?.body).toMatchObject({
      event: "charge.failed",
      data: {
        uuid: created.uuid,
        status: "failed",
        failure_reason: "bank_declined",
        failed_at: expect.any(String),
      },
    });
  });

  it.each([
    ["complete", "transfer.completed", "completed", "completed_at"],
    ["fail", "transfer.failed", "failed", "failed_at"],
  ])("POSTs %s of a withdrawal as %s", async (action, event, status, timeField) => {
    const withdrawal = (await h.control("POST", "/withdrawals", { amount: 700 })).body;
    const id = variant === "a" ? withdrawal.uuid : withdrawal.id;
    await h.control("POST", `/withdrawals/${id}/${action}`);
    const [delivery] = await receiver.waitFor(1);
    expect(delivery?.body).toMatchObject({
      event,
      data: {
        id,
        amount: 700,
        status,
        created_at: withdrawal.created_at,
        [timeField]: expect.any(String),
      },
    });
  });

  it("retries a receiver that answers 500 until it answers 200", async () => {
    receiver.script.push(500, 503);
    const created = await h.createPix();
    await h.control("POST", `/charges/${h.idOf(created)}/pay`);
    const received = await receiver.waitFor(3);
    expect(received.map((r) => r.body.event)).toEqual([
      "charge.paid",
      "charge.paid",
      "charge.paid",
    ]);
    await h.sandbox.webhooksIdle();
    const log = (await h.control("GET", "/webhooks")).body;
    expect(
      log.map((entry: { attempt: number; status_code: number }) => [
        entry.attempt,
        entry.status_code,
      ]),
    ).toEqual([
      [1, 500],
      [2, 503],
      [3, 200],
    ]);
    expect(new Set(log.map((entry: { event_id: string }) => entry.event_id)).size).toBe(1);
  });

  it("retries a receiver that does not answer within the timeout", async () => {
    const slow = await startSlowReceiver(1_000);
    await h.control("DELETE", "/webhook-urls");
    await h.control("POST", "/webhook-urls", { url: slow.url });
    try {
      await h.control("POST", `/charges/${h.idOf(await h.createPix())}/pay`);
      await h.sandbox.webhooksIdle();
      const log = h.sandbox.deliveries();
      expect(log.length).toBe(4);
      expect(log[0]?.error).toMatch(/no answer within 300 ms/);
    } finally {
      await slow.close();
    }
  });

  it("stops after the last retry and says so in the log", async () => {
    receiver.script.push(500, 500, 500, 500);
    await h.control("POST", `/charges/${h.idOf(await h.createPix())}/pay`);
    await receiver.waitFor(4);
    await h.sandbox.webhooksIdle();
    const log = h.sandbox.deliveries();
    expect(log.length).toBe(4);
    expect(log.at(-1)?.next_retry_at).toBeNull();
    expect(log[0]?.next_retry_at).not.toBeNull();
  });

  it("logs a refused connection as an error without a status code", async () => {
    await h.control("DELETE", "/webhook-urls");
    await h.control("POST", "/webhook-urls", { url: "http://127.0.0.1:9/unreachable" });
    await h.control("POST", `/charges/${h.idOf(await h.createPix())}/pay`);
    await h.sandbox.webhooksIdle();
    const entry = h.sandbox.deliveries()[0];
    expect(entry?.status_code).toBeNull();
    expect(entry?.error).toMatch(/could not connect/);
  });

  it("forgets pending retries on reset", async () => {
    receiver.script.push(500, 500, 500, 500);
    await h.control("POST", `/charges/${h.idOf(await h.createPix())}/pay`);
    await receiver.waitFor(1);
    await h.control("POST", "/reset");
    await h.sandbox.webhooksIdle();
    expect(h.sandbox.deliveries()).toHaveLength(0);
  });

  it("refuses a webhook URL that is not http(s)", async () => {
    const reply = await h.control("POST", "/webhook-urls", { url: "ftp://example.com" });
    expect(reply.status).toBe(400);
    expect(reply.body.error.param).toBe("url");
  });
});

async function startSlowReceiver(
  delayMs: number,
): Promise<{ url: string; close(): Promise<void> }> {
  const { createServer } = await import("node:http");
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((_req, res) => {
    const timer = setTimeout(() => res.writeHead(200).end(), delayMs);
    timers.add(timer);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/slow`,
    close: () =>
      new Promise((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

describe("spec-literal webhooks (Variant B)", () => {
  it("names the charge by uuid only, and the API reads the charge by that uuid", async () => {
    const receiver = await startReceiver();
    const h = await startHarness({
      variant: "b",
      webhookUrls: [receiver.url],
      webhookRetryDelaysMs: [],
      specLiteralWebhooks: true,
    });
    try {
      const created = await h.createPix(2500);
      await h.control("POST", `/charges/${h.idOf(created)}/pay`);
      const [delivery] = await receiver.waitFor(1);
      const data = (delivery!.body as { data: Record<string, unknown> }).data;
      expect(data).not.toHaveProperty("id");
      expect(data.uuid).toMatch(/^[0-9a-f-]{36}$/);
      const read = await h.call("GET", `/v1/charges/${String(data.uuid)}`);
      expect(read.status).toBe(200);
      expect(read.body.id).toBe(h.idOf(created));
    } finally {
      await h.close();
      await receiver.close();
    }
  });
});
