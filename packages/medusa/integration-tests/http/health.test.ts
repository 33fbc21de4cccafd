import path from "node:path";
import { medusaIntegrationTestRunner } from "@medusajs/test-utils";
import type { Sandbox } from "@pix-checkout/sandbox" with { "resolution-mode": "import" };
import { createStoreFixture, createCart, type StoreFixture } from "../helpers/store-fixture";
import {
  capturesOfSession,
  control,
  db,
  storefront,
  type Api,
  type Json,
} from "../helpers/checkout";
import { adminLogin } from "../helpers/admin-login";
import { reconcilePass } from "../helpers/reconcile-pass";
import { waitFor } from "../helpers/wait-for";

// The health card against a real Medusa and the sandbox: a healthy store first, then each
// thing broken in turn (the key, the webhook URL, a capture, the create budget), and the
// card's JSON must name the broken line with its state and what to do.

const API_KEY = "sk_live_health_5ecret_key";
const OTHER_KEY = "sk_live_not_this_store_key";
const WEBHOOK_SECRET = "whsec-test-a-0123456789";

let sandbox: Sandbox;
let sandboxB: Sandbox;

beforeAll(async () => {
  const { startSandbox } = await import("@pix-checkout/sandbox");
  sandbox = await startSandbox({ variant: "a", keys: [API_KEY], webhookRetryDelaysMs: [300] });
  sandboxB = await startSandbox({ variant: "b", keys: [API_KEY] });
  process.env.PIX_SANDBOX_A_URL = sandbox.baseUrl;
  process.env.PIX_SANDBOX_B_URL = sandboxB.baseUrl;
  process.env.PIX_API_KEY = API_KEY;
});

afterAll(async () => {
  await sandbox?.close();
  await sandboxB?.close();
});

medusaIntegrationTestRunner({
  cwd: path.join(__dirname, "..", "app"),
  testSuite: ({ api, getContainer }) => {
    const container = () => getContainer();
    let store: StoreFixture;
    let adminHeaders: Record<string, string>;
    let hook: string;
    const http = api as unknown as Api;
    const health = async (query = "") => {
      const response = await http.request({
        method: "get",
        url: `/admin/pix-checkout/health${query}`,
        headers: adminHeaders,
        validateStatus: () => true,
      });
      expect(response.status).toBe(200);
      return response.data as {
        state: string;
        lines: { id: string; state: string; value: Json; detail: Json; action: string | null }[];
      };
    };
    const lineOf = async (id: string) => {
      const line = (await health()).lines.find((l) => l.id === id);
      expect(line, id).toBeDefined();
      return line!;
    };

    /** An order-first Pix of `reais`, completed into an order; returns its charge and session. */
    async function orderFirstPix(reais: number) {
      const shop = storefront(http, store);
      const cartId = await createCart(container(), store, reais);
      const created = await shop.initiate(cartId, "pp_pix_a");
      const session = created.data.payment_collection.payment_sessions[0] as Json;
      expect((await shop.complete(cartId)).data.type).toBe("order");
      return { chargeId: session.data.charge_id as string, sessionId: session.id as string };
    }

    beforeAll(async () => {
      store = await createStoreFixture(container());
      adminHeaders = await adminLogin(container(), "saude@example.com");
      const base = http.defaults.baseURL;
      hook = `${base}/hooks/pix-checkout/a?token=${WEBHOOK_SECRET}`;
      await control(sandbox.url, "webhook-urls", { url: hook });
      await control(sandboxB.url, "webhook-urls", { url: `${base}/hooks/pix-checkout/b` });
    });

    it("answers only a logged-in admin, and refuses an unknown query with invalid_query", async () => {
      const anonymous = await http.request({
        method: "get",
        url: "/admin/pix-checkout/health",
        validateStatus: () => true,
      });
      expect(anonymous.status).toBe(401);
      const bad = await http.request({
        method: "get",
        url: "/admin/pix-checkout/health?since=yesterday",
        headers: adminHeaders,
        validateStatus: () => true,
      });
      expect(bad.status).toBe(400);
      expect(bad.data.code).toBe("invalid_query");
    });

    it("says every line is ok once a Pix is paid through its webhook and captured", async () => {
      const { chargeId, sessionId } = await orderFirstPix(49.9);
      await control(sandbox.url, `charges/${chargeId}/pay`, {});
      await waitFor(
        async () => (await capturesOfSession(container(), sessionId)) === 1,
        "the capture",
      );
      const card = await health();
      expect(card.lines.map((l) => [l.id, l.state])).toEqual([
        ["service:a", "ok"],
        ["variant:a", "ok"],
        ["service:b", "ok"],
        ["variant:b", "ok"],
        ["webhooks", "ok"],
        ["checks", "ok"],
        ["captures", "ok"],
        ["carts", "ok"],
        ["flags", "ok"],
        ["create_budget:a", "ok"],
        ["create_budget:b", "ok"],
      ]);
      expect(card.state).toBe("ok");
      const service = card.lines[0]!;
      expect(service.detail).toMatchObject({ provider: "a", latency_ms: expect.any(Number) });
      expect(Date.parse(service.detail.checked_at)).toBeGreaterThan(Date.now() - 60_000);
      const webhooks = card.lines.find((l) => l.id === "webhooks")!;
      expect(webhooks.detail).toMatchObject({ paid_by_webhook: 1, paid_by_reconciliation: 0 });
      expect(webhooks.detail.last_received_at).toEqual(expect.any(String));
      expect(webhooks.value).toEqual(expect.any(Number));
    });

    it("calls the service broken and says to check apiKey when the service refuses the key", async () => {
      // The Variant B service comes back on the same address knowing only another key.
      const port = sandboxB.port;
      await sandboxB.close();
      const { startSandbox } = await import("@pix-checkout/sandbox");
      sandboxB = await startSandbox({ variant: "b", keys: [OTHER_KEY], port });
      const line = await waitFor(async () => {
        const found = await lineOf("service:b");
        return found.action === "check_api_key" && found;
      }, "the service line to name the key");
      expect(line).toMatchObject({
        state: "broken",
        action: "check_api_key",
        detail: { reason: "key_refused", code: "invalid_api_key" },
      });
      expect((await lineOf("service:a")).state).toBe("ok");
    });

    it("warns that payments are being found by reconciliation when the webhook URL is gone", async () => {
      // Each case starts from an empty database: first a payment whose webhook arrives.
      const first = await orderFirstPix(30);
      await control(sandbox.url, `charges/${first.chargeId}/pay`, {});
      await waitFor(
        async () => (await capturesOfSession(container(), first.sessionId)) === 1,
        "the capture of the payment whose webhook arrived",
      );
      await fetch(`${sandbox.url}/__sandbox/webhook-urls`, { method: "DELETE" });
      try {
        const charges = [await orderFirstPix(31), await orderFirstPix(32)];
        for (const { chargeId } of charges) {
          await control(sandbox.url, `charges/${chargeId}/pay`, {});
        }
        await sandbox.webhooksIdle();
        // A pass as if the charges' next checks were due.
        await reconcilePass(container(), new Date(Date.now() + 5 * 60_000 + 1_000));
        await waitFor(async () => {
          const paid = await db(container())("pix_checkout_charge")
            .whereIn(
              "charge_id",
              charges.map((c) => c.chargeId),
            )
            .where({ status: "paid" });
          return paid.length === 2;
        }, "both charges to be found paid");
        for (const { sessionId } of charges) {
          await waitFor(
            async () => (await capturesOfSession(container(), sessionId)) === 1,
            "the capture of a charge found by reconciliation",
          );
        }
        expect(await lineOf("webhooks")).toMatchObject({
          state: "warning",
          action: "check_webhook_url",
          detail: {
            reason: "found_by_reconciliation",
            paid_by_webhook: 1,
            paid_by_reconciliation: 2,
          },
        });
      } finally {
        await control(sandbox.url, "webhook-urls", { url: hook });
      }
    });

    it("shows the oldest capture waiting and counts it among the flags when a capture kept failing", async () => {
      const knex = db(container());
      const chargeId = "health-capture-failed-1";
      // The state three failed captures leave: paid, not captured, flagged for the merchant.
      await knex("pix_checkout_charge").insert({
        id: "pxch_health_capture_failed",
        charge_id: chargeId,
        provider_id: "pp_pix_a",
        method: "pix",
        variant: "a",
        session_id: "payses_health_gone",
        amount_cents: 2500,
        currency_code: "brl",
        status: "paid",
        settlement: "capturable",
        paid_at: knex.raw("now() - interval '10 minutes'"),
        check_failures: 0,
        flagged: true,
        flag_code: "capture_failed",
        flag_detail: JSON.stringify({ attempts: 3, message: "session not found" }),
      });
      await knex("pix_checkout_charge_event").insert(
        [1, 2, 3].map((i) => ({
          id: `pxev_health_capture_${i}`,
          charge_id: chargeId,
          kind: "capture_failed",
          source: "reconcile",
        })),
      );
      try {
        const card = await health();
        const captures = card.lines.find((l) => l.id === "captures")!;
        expect(captures).toMatchObject({
          state: "broken",
          value: 1,
          action: "see_needs_attention",
          detail: { waiting: 1, flagged: 1, oldest_charge_id: chargeId },
        });
        const waited = Date.now() - Date.parse(captures.detail.oldest_paid_at);
        expect(waited).toBeGreaterThan(9 * 60_000);
        expect(card.lines.find((l) => l.id === "flags")).toMatchObject({
          state: "warning",
          value: 1,
          action: "see_needs_attention",
          detail: { open: 1, refund_due: 0 },
        });
      } finally {
        await knex("pix_checkout_charge_event").where({ charge_id: chargeId }).delete();
        await knex("pix_checkout_charge").where({ charge_id: chargeId }).delete();
      }
    });

    it("shows the create budget spent (60/60) and the shoppers waiting in line", async () => {
      const knex = db(container());
      const requests = () => knex("pix_checkout_create_request");
      const budgetKey = sandbox.baseUrl.replace(/\/+$/, "");
      const used = Number((await lineOf("create_budget:a")).detail.used);
      const row = (i: number, state: string) => ({
        id: `pxcr_health_${state}_${i}`,
        budget_key: budgetKey,
        provider_key: "a",
        provider_id: "pp_pix_a",
        method: "pix",
        session_id: `payses_health_${state}_${i}`,
        amount_cents: 100,
        state,
        ...(state === "done"
          ? { done_at: knex.raw("now()") }
          : { input: JSON.stringify({ method: "pix", amountCents: 100 }) }),
      });
      await requests().insert(Array.from({ length: 60 - used }, (_, i) => row(i, "done")));
      await requests().insert([0, 1, 2].map((i) => row(i, "waiting")));
      try {
        expect(await lineOf("create_budget:a")).toMatchObject({
          state: "warning",
          value: "60/60",
          action: "busy_minute",
          detail: { used: 60, limit: 60, waiting: 3, reason: "budget_spent" },
        });
      } finally {
        await requests().where("id", "like", "pxcr_health_%").delete();
      }
    });
  },
});
