import type { Sandbox } from "@pix-checkout/sandbox" with { "resolution-mode": "import" };
import { createScaledApp, freePort, type ScaledApp } from "../helpers/scaled-app";
import { openSse } from "../helpers/sse";

const API_KEY = "sk_live_live_status_scale_key";
// A Redis database of its own, so other suites' queues are not touched.
const REDIS_URL = process.env.PIX_TEST_LIVE_REDIS_URL ?? "redis://127.0.0.1:6379/8";

describe("live status across two built server instances", () => {
  let sandbox: Sandbox;
  let app: ScaledApp;
  let servers: string[];

  beforeAll(async () => {
    const { startSandbox } = await import("@pix-checkout/sandbox");
    sandbox = await startSandbox({ variant: "a", keys: [API_KEY], webhookRetryDelaysMs: [300] });
    app = await createScaledApp({ apiKey: API_KEY, baseUrl: sandbox.baseUrl, redisUrl: REDIS_URL });
    const ports = await Promise.all([freePort(), freePort()]);
    servers = await Promise.all([app.start("server", ports[0]!), app.start("server", ports[1]!)]);
    // Webhooks reach instance 1 only; the shopper streams from instance 2.
    await fetch(`${sandbox.url}/__sandbox/webhook-urls`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        url: `${servers[0]}/hooks/pix-checkout/a?token=${app.webhookSecret}`,
      }),
    });
  }, 400_000);

  afterAll(async () => {
    await app?.close();
    await sandbox?.close();
  }, 60_000);

  it("streams the payment from instance 2 when the webhook lands on instance 1", async () => {
    const { publishableKey, sessionId, chargeId } = app.seed;
    const stream = await openSse(`${servers[1]}/store/pix-checkout/sessions/${sessionId}/stream`, {
      "x-publishable-api-key": publishableKey,
    });
    try {
      expect(stream.status).toBe(200);
      expect(await stream.next()).toMatchObject({ session_id: sessionId, status: "pending" });
      await fetch(`${sandbox.url}/__sandbox/charges/${chargeId}/pay`, { method: "POST" });
      expect(await stream.next()).toMatchObject({ session_id: sessionId, status: "paid" });
      const deliveries = await app
        .db("pix_checkout_webhook_delivery")
        .where({ charge_id: chargeId });
      expect(deliveries).toHaveLength(1);
    } finally {
      stream.close();
    }
  });
});
