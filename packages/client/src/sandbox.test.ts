import { isValidBoleto } from "@brazilian-utils/brazilian-utils";
import { startSandbox, type Sandbox } from "@pix-checkout/sandbox";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PixClient } from "./client.js";
import {
  AuthenticationError,
  ChargeOutcomeUnknownError,
  InvalidRequestError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  VariantMismatchError,
} from "./errors.js";
import type { Charge } from "./models.js";
import { boletoInput } from "./test-support/fixtures.js";
import { startLossyProxy } from "./test-support/lossy-proxy.js";
import { control, startReceiver, type Receiver } from "./test-support/sandbox.js";
import { parseWebhook } from "./webhooks.js";

const DAY_MS = 86_400_000;

describe.each(["a", "b"] as const)("against the sandbox, Variant %s", (variant) => {
  let sandbox: Sandbox;
  let receiver: Receiver;
  let client: PixClient;

  beforeAll(async () => {
    receiver = await startReceiver();
    sandbox = await startSandbox({ variant, webhookUrls: [receiver.url] });
  });
  afterAll(async () => {
    await sandbox.close();
    await receiver.close();
  });
  beforeEach(() => {
    sandbox.reset();
    client = new PixClient({ apiKey: sandbox.defaultKey, baseUrl: sandbox.baseUrl, variant });
  });

  const pix = { method: "pix" as const, amountCents: 1990, description: "Order 1001" };
  const uuidOf = (charge: Charge): string =>
    variant === "a" ? charge.id : (charge.raw as { uuid: string }).uuid;

  it("creates a Pix charge and reads the same charge back", async () => {
    const created = await client.charges.create(pix);
    const read = await client.charges.retrieve(created.id);
    expect(created).toMatchObject({
      method: "pix",
      status: "pending",
      amountCents: 1990,
      currency: "BRL",
    });
    expect(created.pix?.copyPaste).toMatch(/^000201/);
    expect(read).toMatchObject({
      id: created.id,
      amountCents: 1990,
      status: "pending",
      pix: { copyPaste: created.pix?.copyPaste },
    });
  });

  it("sees a payment through the status call", async () => {
    const charge = await client.charges.create(pix);
    expect(await client.charges.status(charge.id)).toMatchObject({
      status: "pending",
      paid: false,
    });
    await control(sandbox.url, `charges/${charge.id}/pay`);
    expect(await client.charges.status(charge.id)).toMatchObject({
      id: charge.id,
      status: "paid",
      paid: true,
    });
  });

  it("verifies a delivered charge.paid webhook by fetching the status back", async () => {
    const charge = await client.charges.create(pix);
    const delivery = receiver.next("charge.paid", uuidOf(charge));
    await control(sandbox.url, `charges/${charge.id}/pay`);
    const event = parseWebhook(await delivery);
    expect(event.event).toBe("charge.paid");
    expect(await client.verifyWebhook(event)).toMatchObject({
      chargeId: charge.id,
      status: "paid",
      paid: true,
      verified: true,
    });
  });

  it("reports a replayed charge.paid for an expired charge as unverified", async () => {
    const charge = await client.charges.create(pix);
    await control(sandbox.url, `charges/${charge.id}/expire`);
    const forged = parseWebhook({
      event: "charge.paid",
      data: { uuid: uuidOf(charge), amount: 1990, status: "paid" },
    });
    expect(await client.verifyWebhook(forged)).toMatchObject({
      status: "expired",
      paid: false,
      verified: false,
    });
  });

  it("maps an unknown charge id to NotFoundError charge_not_found", async () => {
    const error = await client.charges
      .retrieve("00000000-0000-4000-8000-000000000000")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).code).toBe("charge_not_found");
  });

  it("maps an unknown key to AuthenticationError invalid_api_key", async () => {
    const stranger = new PixClient({
      apiKey: "sk_live_not_known_here",
      baseUrl: sandbox.baseUrl,
      variant,
    });
    const error = await stranger.balance.retrieve().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).code).toBe("invalid_api_key");
  });

  it.each(["disabled", "revoked"] as const)("maps a %s key to PermissionError", async (state) => {
    await control(sandbox.url, "keys", { key: sandbox.defaultKey, state });
    try {
      const error = await client.charges.create(pix).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PermissionError);
      expect((error as PermissionError).code).toBe(`api_key_${state}`);
    } finally {
      await control(sandbox.url, "keys", { key: sandbox.defaultKey, state: "active" });
    }
  });

  it("walks every page of the transaction list", async () => {
    const created: Charge[] = [];
    for (let i = 0; i < 5; i++)
      created.push(await client.charges.create({ ...pix, amountCents: 1000 + i }));
    const first = await client.transactions.list({ limit: 2, type: "charge" });
    expect(first.data).toHaveLength(2);
    expect(first.hasMore).toBe(true);
    const all: string[] = [];
    for await (const tx of client.transactions.list({ limit: 2, type: "charge" })) all.push(tx.id);
    expect(all.sort()).toEqual(created.map((charge) => charge.id).sort());
  });

  it("moves a paid charge's net amount from pending to available", async () => {
    const charge = await client.charges.create(pix);
    await control(sandbox.url, `charges/${charge.id}/pay`);
    const [tx] = (await client.transactions.list({ type: "charge", status: "paid" })).data;
    const net = tx?.type === "charge" ? tx.netAmountCents : undefined;
    expect(net).toBeGreaterThan(0);
    expect(net).toBeLessThanOrEqual(1990);
    expect(await client.balance.retrieve()).toMatchObject({ pendingCents: net, availableCents: 0 });
    await control(sandbox.url, "clock", { advance_ms: DAY_MS + 1000 });
    expect(await client.balance.retrieve()).toMatchObject({ pendingCents: 0, availableCents: net });
  });

  it("reads the rate-limit headers of a create", async () => {
    await client.charges.create(pix);
    expect(client.lastRateLimit).toMatchObject({ limit: 60, remaining: 59 });
  });

  it("refuses a 61st create within the minute without sending it when maxWaitMs is short", async () => {
    const paced = new PixClient({
      apiKey: sandbox.defaultKey,
      baseUrl: sandbox.baseUrl,
      variant,
      createRateLimit: { maxWaitMs: 1_000 },
    });
    await Promise.all(Array.from({ length: 60 }, () => paced.charges.create(pix)));
    const error = await paced.charges.create(pix).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).code).toBe("client_rate_limited");
    expect(paced.lastRateLimit?.remaining).toBe(0);
    expect((await control(sandbox.url, "charges", undefined, "GET")) as unknown[]).toHaveLength(60);
  });

  it("gets the server's 429 when a burst outruns the server's window and pacing is off", async () => {
    const unpaced = new PixClient({
      apiKey: sandbox.defaultKey,
      baseUrl: sandbox.baseUrl,
      variant,
      maxRetries: 0,
      createRateLimit: { perMinute: 1_000 },
    });
    const results = await Promise.allSettled(
      Array.from({ length: 61 }, () => unpaced.charges.create(pix)),
    );
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(rejected).toHaveLength(1);
    const error = rejected[0]?.reason as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ code: "rate_limit_exceeded", status: 429 });
    expect(error.resetAt?.getTime()).toBeGreaterThan(Date.now());
  });

  it("finds nothing after a create that timed out before the sandbox took it", async () => {
    await control(sandbox.url, "faults", { latency_ms: [300, 300] });
    const impatient = new PixClient({
      apiKey: sandbox.defaultKey,
      baseUrl: sandbox.baseUrl,
      variant,
      timeoutMs: 50,
      maxRetries: 0,
    });
    const error = (await impatient.charges
      .create(pix)
      .catch((e: unknown) => e)) as ChargeOutcomeUnknownError;
    expect(error).toBeInstanceOf(ChargeOutcomeUnknownError);
    await control(sandbox.url, "faults", undefined, "DELETE");
    expect(await client.charges.findAfterUnknownOutcome(error)).toBeNull();
  });

  it("finds the charge whose response was lost after the sandbox created it", async () => {
    const proxy = await startLossyProxy(sandbox.url, 1);
    try {
      const lossy = new PixClient({
        apiKey: sandbox.defaultKey,
        baseUrl: proxy.baseUrl,
        variant,
        maxRetries: 0,
      });
      const input = {
        ...pix,
        description: "Order lost-response",
        customer: { email: "maria@example.com" },
      };
      const error = (await lossy.charges
        .create(input)
        .catch((e: unknown) => e)) as ChargeOutcomeUnknownError;
      expect(error).toBeInstanceOf(ChargeOutcomeUnknownError);
      const [stored] = (await control(sandbox.url, "charges", undefined, "GET")) as Array<
        Record<string, unknown>
      >;
      const found = await client.charges.findAfterUnknownOutcome(error);
      expect(found?.id).toBe(variant === "a" ? stored?.uuid : stored?.id);
    } finally {
      await proxy.close();
    }
  });

  it("finds only the charge carrying its reference when another shopper paid the same amount", async () => {
    // The first shopper's create succeeded; the second one's response is lost.
    const first = await client.charges.create({ ...pix, description: "Pedido ref payses_first" });
    const proxy = await startLossyProxy(sandbox.url, 1);
    try {
      const lossy = new PixClient({
        apiKey: sandbox.defaultKey,
        baseUrl: proxy.baseUrl,
        variant,
        maxRetries: 0,
      });
      const error = (await lossy.charges
        .create({ ...pix, description: "Pedido ref payses_second" })
        .catch((e: unknown) => e)) as ChargeOutcomeUnknownError;
      expect(error).toBeInstanceOf(ChargeOutcomeUnknownError);
      const found = await client.charges.findAfterUnknownOutcome(error, {
        reference: "payses_second",
      });
      expect(found).not.toBeNull();
      expect(found?.id).not.toBe(first.id);
      // A create that never reached the service is not matched to the other shopper's charge.
      expect(
        await client.charges.findAfterUnknownOutcome(error, { reference: "payses_never" }),
      ).toBeNull();
    } finally {
      await proxy.close();
    }
  });

  if (variant === "a") {
    it("creates a boleto with a valid barcode and linha digitável", async () => {
      const charge = await client.charges.create(boletoInput());
      expect(charge.method).toBe("boleto");
      expect(charge.boleto?.barcode).toMatch(/^\d{44}$/);
      expect(isValidBoleto(charge.boleto?.digitableLine ?? "")).toBe(true);
      expect(charge.boleto?.url).toContain(charge.id);
      expect((await client.charges.retrieve(charge.id)).boleto).toEqual(charge.boleto);
    });

    it("refuses a Variant A create under 500 cents before sending", async () => {
      const error = await client.charges
        .create({ method: "pix", amountCents: 499 })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidRequestError);
      expect((await control(sandbox.url, "charges", undefined, "GET")) as unknown[]).toHaveLength(
        0,
      );
    });
  }

  if (variant === "b") {
    it("returns the first charge when a create is repeated with the same key", async () => {
      const first = await client.charges.create(pix, { idempotencyKey: "checkout-42" });
      const again = await client.charges.create(pix, { idempotencyKey: "checkout-42" });
      expect(again.id).toBe(first.id);
      expect((await control(sandbox.url, "charges", undefined, "GET")) as unknown[]).toHaveLength(
        1,
      );
    });

    it("creates once when the first response is lost and the retry reuses the key", async () => {
      const proxy = await startLossyProxy(sandbox.url, 1);
      try {
        const lossy = new PixClient({
          apiKey: sandbox.defaultKey,
          baseUrl: proxy.baseUrl,
          variant,
        });
        const charge = await lossy.charges.create(pix);
        expect(proxy.forwarded()).toBe(2);
        const stored = (await control(sandbox.url, "charges", undefined, "GET")) as Array<{
          id: string;
        }>;
        expect(stored.map((c) => c.id)).toEqual([charge.id]);
      } finally {
        await proxy.close();
      }
    });

    it("creates once when every attempt meets a 5xx and the caller retries with the key", async () => {
      await control(sandbox.url, "faults", { http_5xx_rate: 1 });
      const error = (await client.charges
        .create(pix)
        .catch((e: unknown) => e)) as ChargeOutcomeUnknownError;
      expect(error).toBeInstanceOf(ChargeOutcomeUnknownError);
      await control(sandbox.url, "faults", undefined, "DELETE");
      const key = error.details.idempotencyKey;
      const charge = await client.charges.create(
        pix,
        key === undefined ? {} : { idempotencyKey: key },
      );
      const again = await client.charges.create(
        pix,
        key === undefined ? {} : { idempotencyKey: key },
      );
      expect(again.id).toBe(charge.id);
      expect((await control(sandbox.url, "charges", undefined, "GET")) as unknown[]).toHaveLength(
        1,
      );
    });

    it("carries fee and net amount in cents on a read", async () => {
      const charge = await client.charges.retrieve((await client.charges.create(pix)).id);
      expect((charge.feeCents ?? -1) + (charge.netAmountCents ?? -1)).toBe(1990);
    });
  }

  it("requests a withdrawal and finds it in the list", async () => {
    const charge = await client.charges.create({ ...pix, amountCents: 10_000 });
    await control(sandbox.url, `charges/${charge.id}/pay`);
    await control(sandbox.url, "clock", { advance_ms: DAY_MS + 1000 });
    const withdrawal = await client.withdrawals.create({
      amountCents: 5_000,
      pixKey: "maria@example.com",
    });
    expect(withdrawal).toMatchObject({ status: "processing", amountCents: 5_000 });
    const listed: string[] = [];
    for await (const tx of client.withdrawals.list()) listed.push(tx.id);
    expect(listed).toEqual([withdrawal.id]);
  });
});

describe("a client configured with the other variant", () => {
  it.each([
    ["a", "b"],
    ["b", "a"],
  ] as const)(
    "configured %s against a Variant %s service: variant_mismatch naming the value to set",
    async (configured, actual) => {
      const sandbox = await startSandbox({ variant: actual });
      try {
        const client = new PixClient({
          apiKey: sandbox.defaultKey,
          baseUrl: sandbox.baseUrl,
          variant: configured,
        });
        const error = await client.charges
          .create({ method: "pix", amountCents: 1000 })
          .catch((e: unknown) => e);
        expect(error).toBeInstanceOf(VariantMismatchError);
        expect((error as VariantMismatchError).code).toBe("variant_mismatch");
        expect((error as Error).message).toContain(`Set variant: "${actual}"`);
      } finally {
        await sandbox.close();
      }
    },
  );
});
