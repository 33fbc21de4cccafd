import type { Sandbox } from "@pix-checkout/sandbox" with { "resolution-mode": "import" };
import { createScaledApp, freePort, type ScaledApp } from "../helpers/scaled-app";
import { waitFor } from "../helpers/wait-for";

const API_KEY = "sk_live_scale_test_key";
// A Redis database of its own, so other suites' queues are not touched.
const REDIS_URL = process.env.PIX_TEST_REDIS_URL ?? "redis://127.0.0.1:6379/7";

describe("two server instances and a worker on shared Postgres and Redis", () => {
  let sandbox: Sandbox;
  let app: ScaledApp;
  let servers: string[];

  beforeAll(async () => {
    const { startSandbox } = await import("@pix-checkout/sandbox");
    sandbox = await startSandbox({
      variant: "a",
      keys: [API_KEY],
      webhookRetryDelaysMs: [300, 1000],
    });
    app = await createScaledApp({ apiKey: API_KEY, baseUrl: sandbox.baseUrl, redisUrl: REDIS_URL });
    const ports = await Promise.all([freePort(), freePort(), freePort()]);
    servers = await Promise.all([app.start("server", ports[0]!), app.start("server", ports[1]!)]);
    await app.start("worker", ports[2]!);
    // Every event goes to both instances at once: the worst case for double processing.
    for (const url of servers) {
      await fetch(`${sandbox.url}/__sandbox/webhook-urls`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ url: `${url}/hooks/pix-checkout/a?token=${app.webhookSecret}` }),
      });
    }
  }, 400_000);

  afterAll(async () => {
    await app?.close();
    await sandbox?.close();
  }, 60_000);

  it("captures a payment once when its webhook lands on both instances", async () => {
    const { publishableKey, cartId, sessionId, chargeId } = app.seed;
    const completed = await fetch(`${servers[0]}/store/carts/${cartId}/complete`, {
      method: "POST",
      headers: { "x-publishable-api-key": publishableKey },
    });
    expect(((await completed.json()) as { type: string }).type).toBe("order");

    await fetch(`${sandbox.url}/__sandbox/charges/${chargeId}/pay`, { method: "POST" });
    await sandbox.webhooksIdle();
    const deliveries = await waitFor(
      async () => {
        const rows = await app.db("pix_checkout_webhook_delivery").where({ charge_id: chargeId });
        return rows.length === 2 && rows.every((row) => row.outcome !== "received") && rows;
      },
      "both instances to process their delivery",
      60_000,
    );
    // Which instance records the payment is a race; what must hold is that neither failed and
    // the timeline shows one payment and one capture, made by the worker: the servers that
    // take webhooks leave Medusa's capture and cart completion to it.
    const outcomes = deliveries.map((row) => row.outcome as string);
    expect(outcomes).toContain("processed");
    expect(outcomes.every((o) => o === "processed" || o === "duplicate")).toBe(true);
    const timeline = await waitFor(
      async () => {
        const events = await app.db("pix_checkout_charge_event").where({ charge_id: chargeId });
        return events.some((e) => e.kind === "captured") && events;
      },
      "the worker to capture the payment",
      60_000,
    );
    expect(timeline.filter((e) => e.kind === "paid")).toHaveLength(1);
    const captured = timeline.filter((e) => e.kind === "captured");
    expect(captured).toHaveLength(1);
    // The webhook's settlement or the order's `order.placed` event (late on a busy worker) may
    // record it first; either is the worker's one capture, and each names its own door.
    expect(["webhook", "order_placed"]).toContain(captured[0].source);
    expect(captured[0].detail).toMatchObject({ instance: "worker" });

    const collection = await waitFor(
      async () => {
        const row = await app
          .db("payment_collection")
          .join("payment_session", "payment_session.payment_collection_id", "payment_collection.id")
          .where("payment_session.id", sessionId)
          .select("payment_collection.status")
          .first();
        return row?.status === "completed" && row;
      },
      "the payment collection to be completed",
      60_000,
    );
    expect(collection.status).toBe("completed");
    const captures = await app
      .db("capture")
      .join("payment", "payment.id", "capture.payment_id")
      .where("payment.payment_session_id", sessionId)
      .count({ n: "*" });
    expect(Number(captures[0]!.n)).toBe(1);
  });
});
