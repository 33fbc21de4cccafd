import type { Sandbox } from "@pix-checkout/sandbox" with { "resolution-mode": "import" };
import { createScaledApp, freePort, type ScaledApp, type ScaledSeed } from "../helpers/scaled-app";
import { openSse, type SseReader } from "../helpers/sse";
import { waitFor } from "../helpers/wait-for";

const API_KEY = "sk_live_live_status_scale_key";
// A Redis database of its own, so other suites' queues are not touched.
const REDIS_URL = process.env.PIX_TEST_LIVE_REDIS_URL ?? "redis://127.0.0.1:6379/8";

type Checkout = Pick<ScaledSeed, "cartId" | "sessionId" | "chargeId">;

// Two carts with a Pix session each: one paid through the server-only instances, one through an
// instance that captures inline.
const SEED_BODY = `
  const checkout = async (email) => {
    const cart = await newCart(email, "Camiseta", 49.9);
    const session = await pixSession(cart.id);
    return { cartId: cart.id, sessionId: session.id, chargeId: session.data.charge_id };
  };
  const first = await checkout("ana@example.com");
  const inline = await checkout("bia@example.com");
  fs.writeFileSync(process.env.SCALE_SEED_OUT, JSON.stringify({ publishableKey, ...first, inline }));
`;

describe("live status across two built server instances", () => {
  let sandbox: Sandbox;
  let app: ScaledApp;
  let servers: string[];
  /** An instance that takes webhooks and captures inline, as a single-process store does. */
  let shared: string;

  /** Sends the sandbox's webhooks to `base` only. */
  const webhooksTo = async (base: string) => {
    await fetch(`${sandbox.url}/__sandbox/webhook-urls`, { method: "DELETE" });
    await fetch(`${sandbox.url}/__sandbox/webhook-urls`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: `${base}/hooks/pix-checkout/a?token=${app.webhookSecret}` }),
    });
  };

  beforeAll(async () => {
    const { startSandbox } = await import("@pix-checkout/sandbox");
    sandbox = await startSandbox({ variant: "a", keys: [API_KEY], webhookRetryDelaysMs: [300] });
    app = await createScaledApp({
      apiKey: API_KEY,
      baseUrl: sandbox.baseUrl,
      redisUrl: REDIS_URL,
      seedBody: SEED_BODY,
    });
    const ports = await Promise.all([freePort(), freePort(), freePort()]);
    [servers, shared] = await Promise.all([
      Promise.all([app.start("server", ports[0]!), app.start("server", ports[1]!)]),
      app.start("shared", ports[2]!),
    ]);
    // Webhooks reach instance 1 only; the shopper streams from instance 2.
    await webhooksTo(servers[0]!);
  }, 400_000);

  afterAll(async () => {
    await app?.close();
    await sandbox?.close();
  }, 60_000);

  const streamOf = (base: string, sessionId: string) =>
    openSse(`${base}/store/pix-checkout/sessions/${sessionId}/stream`, {
      "x-publishable-api-key": app.seed.publishableKey,
    });

  it("streams the payment from instance 2 when the webhook lands on instance 1", async () => {
    const { sessionId, chargeId } = app.seed;
    const stream = await streamOf(servers[1]!, sessionId);
    try {
      expect(stream.status).toBe(200);
      expect(await stream.next()).toMatchObject({ session_id: sessionId, status: "pending" });
      await fetch(`${sandbox.url}/__sandbox/charges/${chargeId}/pay`, { method: "POST" });
      const paid = await stream.next();
      expect(paid).toMatchObject({ session_id: sessionId, status: "paid" });
      // No worker here, so nothing captures it: the code is paid, its order is not.
      expect((paid.order as { payment?: string } | undefined)?.payment).not.toBe("paid");
      // The delivery is named by its charge once processed, which may finish a moment after the
      // ledger's notice reached this stream (a CI run read it in between).
      await sandbox.webhooksIdle();
      const deliveries = await waitFor(async () => {
        const rows = await app.db("pix_checkout_webhook_delivery").where({ charge_id: chargeId });
        return rows.length > 0 && rows;
      }, "the webhook's delivery, named by its charge");
      expect(deliveries).toHaveLength(1);
    } finally {
      stream.close();
    }
  });

  /** The stream's events until one says Medusa's order is paid (the stream then ends). */
  const eventsUntilOrderPaid = async (stream: SseReader) => {
    const events: Record<string, unknown>[] = [];
    for (;;) {
      const event = await stream.next();
      events.push(event);
      if ((event.order as { payment?: string } | undefined)?.payment === "paid") return events;
    }
  };

  it("captures inline, and the shopper reads the code paid first, then the order paid, each as the ledger and Medusa say", async () => {
    const { inline } = app.seed as ScaledSeed & { inline: Checkout };
    await webhooksTo(shared);
    const stream = await streamOf(servers[1]!, inline.sessionId);
    try {
      expect(await stream.next()).toMatchObject({ status: "pending" });
      await fetch(`${sandbox.url}/__sandbox/charges/${inline.chargeId}/pay`, { method: "POST" });
      const [first, ...later] = await eventsUntilOrderPaid(stream);
      // The code's money is the first news, told before Medusa's order is paid: "pago" on the
      // order is never said early.
      expect(first).toMatchObject({ session_id: inline.sessionId, status: "paid", amount: 4990 });
      expect((first!.order as { payment?: string } | undefined)?.payment).not.toBe("paid");
      expect(later.length).toBeGreaterThan(0);
      const last = later[later.length - 1]!;
      expect(last).toMatchObject({ status: "paid", order: { payment: "paid" } });
      // The stream has said everything: it ends by itself.
      await stream.ended();

      // The ledger: the payment as the first event said it, and captured in full. The ledger marks
      // the order seen in a follow-up after Medusa made it, so the stream can end just before.
      const row = await waitFor(async () => {
        const charge = await app
          .db("pix_checkout_charge")
          .where({ charge_id: inline.chargeId })
          .first();
        return charge?.awaiting_order_since === null && charge;
      }, "the ledger to see the order");
      expect(row).toMatchObject({ status: "paid" });
      expect(Number(row.received_cents)).toBe(first!.amount);
      expect(Number(row.captured_cents)).toBe(4990);
      expect(Number(row.held_cents)).toBe(0);
      expect(new Date(row.paid_at).toISOString()).toBe(first!.paid_at);
      // Medusa: the cart's order is the one the event names, and its payment is captured.
      const order = await app
        .db("order")
        .join("order_cart", "order_cart.order_id", "order.id")
        .where("order_cart.cart_id", inline.cartId)
        .first("order.display_id");
      expect(last.order).toMatchObject({ display_id: order.display_id });
      const captured = await app
        .db("capture")
        .join("payment", "payment.id", "capture.payment_id")
        .where("payment.payment_session_id", inline.sessionId)
        .sum({ amount: "capture.amount" })
        .first();
      expect(Number(captured?.amount)).toBe(49.9);
    } finally {
      stream.close();
      await webhooksTo(servers[0]!);
    }
  });
});
