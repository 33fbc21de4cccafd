import path from "node:path";
import { medusaIntegrationTestRunner } from "@medusajs/test-utils";
import type { Sandbox } from "@pix-checkout/sandbox" with { "resolution-mode": "import" };
import { createCart, createStoreFixture, type StoreFixture } from "../helpers/store-fixture";
import {
  capturesOfSession,
  control,
  db,
  orderOfCart,
  storefront,
  type Api,
  type Json,
} from "../helpers/checkout";
import { waitFor } from "../helpers/wait-for";
import { reconcileOnce } from "../../src/internal/reconcile";
import { settleContext } from "../../src/internal/settle";

// A distinctive key, so "it never appears in output" is a real check.
const API_KEY = "sk_live_integration_5ecret_key";
const WEBHOOK_SECRET = "whsec-test-a-0123456789";

let sandboxA: Sandbox;
let sandboxB: Sandbox;
const output: string[] = [];
const originalWrite = {
  out: process.stdout.write.bind(process.stdout),
  err: process.stderr.write.bind(process.stderr),
};

beforeAll(async () => {
  // The sandbox is ESM-only; this package compiles as CommonJS (what Medusa loads).
  const { startSandbox } = await import("@pix-checkout/sandbox");
  sandboxA = await startSandbox({
    variant: "a",
    keys: [API_KEY],
    webhookRetryDelaysMs: [300, 1000],
  });
  sandboxB = await startSandbox({
    variant: "b",
    keys: [API_KEY],
    webhookRetryDelaysMs: [300, 1000],
  });
  process.env.PIX_SANDBOX_A_URL = sandboxA.baseUrl;
  process.env.PIX_SANDBOX_B_URL = sandboxB.baseUrl;
  process.env.PIX_API_KEY = API_KEY;
  // Everything Medusa and the plugin log in this process passes through here.
  process.stdout.write = ((chunk: unknown, ...rest: never[]) => {
    output.push(String(chunk));
    return originalWrite.out(chunk as string, ...rest);
  }) as typeof process.stdout.write;
  process.stderr.write = ((chunk: unknown, ...rest: never[]) => {
    output.push(String(chunk));
    return originalWrite.err(chunk as string, ...rest);
  }) as typeof process.stderr.write;
});

afterAll(async () => {
  process.stdout.write = originalWrite.out;
  process.stderr.write = originalWrite.err;
  await sandboxA?.close();
  await sandboxB?.close();
});

medusaIntegrationTestRunner({
  cwd: path.join(__dirname, "..", "app"),
  testSuite: ({ api, getContainer }) => {
    let store: StoreFixture;
    let shop: ReturnType<typeof storefront>;
    const container = () => getContainer();

    beforeAll(async () => {
      store = await createStoreFixture(container());
      shop = storefront(api as unknown as Api, store);
      const base = (api as unknown as Api).defaults.baseURL;
      await control(sandboxA.url, "webhook-urls", {
        url: `${base}/hooks/pix-checkout/a?token=${WEBHOOK_SECRET}`,
      });
      await control(sandboxB.url, "webhook-urls", { url: `${base}/hooks/pix-checkout/b` });
    });

    beforeEach(async () => {
      await fetch(`${sandboxA.url}/__sandbox/faults`, { method: "DELETE" });
    });

    const chargeRow = (chargeId: string) =>
      db(container())("pix_checkout_charge").where({ charge_id: chargeId }).first();
    const sessionOf = (response: { data: Json }) =>
      response.data.payment_collection.payment_sessions[0] as {
        id: string;
        data: Json;
      };

    it("order-first Pix: completing the cart creates an awaiting order that the webhook marks paid", async () => {
      const cartId = await createCart(container(), store, 49.9);
      const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
      expect(session.data.pix.copy_paste).toEqual(expect.any(String));
      expect(session.data.amount_cents).toBe(4990);

      const completed = await shop.complete(cartId);
      expect(completed.status).toBe(200);
      expect(completed.data.type).toBe("order");
      expect(completed.data.order.payment_collections[0].status).toBe("awaiting");

      await control(sandboxA.url, `charges/${session.data.charge_id}/pay`, {});
      const order = await waitFor(async () => {
        const o = await orderOfCart(container(), cartId);
        return o?.payment_collections[0]?.status === "completed" && o;
      }, "the order to be paid");
      expect(order.status).not.toBe("canceled");
      expect(await capturesOfSession(container(), session.id)).toBe(1);
    });

    it("pay-first Pix (Variant B): the webhook completes the cart into a paid order", async () => {
      const cartId = await createCart(container(), store, 25);
      const session = sessionOf(await shop.initiate(cartId, "pp_pix_b"));
      expect(session.data.charge_id).toMatch(/^ch_svc_/);

      await control(sandboxB.url, `charges/${session.data.charge_id}/pay`, {});
      const order = await waitFor(async () => {
        const o = await orderOfCart(container(), cartId);
        return o?.payment_collections[0]?.status === "completed" && o;
      }, "the cart to complete into a paid order");
      expect(order.id).toMatch(/^order_/);
    });

    it("order-first boleto: payer data from the session builds the boleto and the document is masked", async () => {
      const cartId = await createCart(container(), store, 120);
      const created = await shop.initiate(cartId, "pp_boleto_a", {
        email: "ana@example.com",
        document: "529.982.247-25",
        phone: "11987654321",
        neighborhood: "Centro",
        number: "100",
        billing_address: {
          first_name: "Ana",
          last_name: "Souza",
          address_1: "Rua Augusta",
          city: "São Paulo",
          province: "SP",
          postal_code: "01310-100",
        },
      });
      expect(created.data).not.toHaveProperty("message");
      const session = sessionOf(created);
      expect(session.data.boleto.url).toEqual(expect.any(String));
      expect(session.data.document).toBe("*********25");
      expect(JSON.stringify(session.data)).not.toContain("52998224725");

      const completed = await shop.complete(cartId);
      expect(completed.data.type).toBe("order");
      await control(sandboxA.url, `charges/${session.data.charge_id}/pay`, {});
      await waitFor(async () => {
        const o = await orderOfCart(container(), cartId);
        return o?.payment_collections[0]?.status === "completed";
      }, "the boleto order to be paid");
    });

    it("a boleto session without the payer's neighborhood fails with a 400 naming the field", async () => {
      const cartId = await createCart(container(), store, 120);
      const created = await shop.initiate(cartId, "pp_boleto_a", {
        document: "529.982.247-25",
        phone: "11987654321",
        number: "100",
        billing_address: {
          first_name: "Ana",
          address_1: "Rua Augusta",
          city: "São Paulo",
          province: "SP",
          postal_code: "01310100",
        },
      });
      expect(created.status).toBe(400);
      expect(created.data.code).toBe("missing_payer_data");
      expect(created.data.message).toMatch(/neighborhood.*data\.neighborhood/);
    });

    it("expiry cancels the waiting order and the session", async () => {
      const cartId = await createCart(container(), store, 30);
      const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
      await shop.complete(cartId);
      await control(sandboxA.url, `charges/${session.data.charge_id}/expire`, {});
      const order = await waitFor(async () => {
        const o = await orderOfCart(container(), cartId);
        return o?.status === "canceled" && o;
      }, "the order to be canceled");
      expect(order.status).toBe("canceled");
      expect((await chargeRow(session.data.charge_id)).status).toBe("expired");
    });

    it("initiating the same cart again reuses the unexpired charge", async () => {
      const cartId = await createCart(container(), store, 40);
      const first = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
      const second = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
      expect(second.id).not.toBe(first.id);
      expect(second.data.charge_id).toBe(first.data.charge_id);
    });

    it("five duplicate charge.paid deliveries give one capture", async () => {
      const cartId = await createCart(container(), store, 50);
      const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
      await shop.complete(cartId);
      await control(sandboxA.url, "faults", { webhook_duplicate_rate: 1 });
      await control(sandboxA.url, `charges/${session.data.charge_id}/pay`, {});
      const body = JSON.stringify({
        event: "charge.paid",
        data: { uuid: session.data.charge_id, amount: 5000, status: "paid" },
      });
      const url = `/hooks/pix-checkout/a?token=${WEBHOOK_SECRET}`;
      const answers = await Promise.all(
        Array.from({ length: 4 }, () =>
          (api as unknown as Api).request({
            method: "post",
            url,
            data: body,
            headers: { "content-type": "application/json" },
            validateStatus: () => true,
          }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
      await sandboxA.webhooksIdle();
      await waitFor(async () => {
        const rows = await db(container())("pix_checkout_webhook_delivery").where({
          charge_id: session.data.charge_id,
        });
        return rows.length >= 5 && rows.every((row) => row.outcome !== "received");
      }, "all deliveries to be processed");
      await waitFor(
        async () =>
          (await orderOfCart(container(), cartId))?.payment_collections[0]?.status === "completed",
        "the order to be paid",
      );
      expect(await capturesOfSession(container(), session.id)).toBe(1);
    });

    it("a late charge.expired after payment changes nothing: paid is final", async () => {
      const cartId = await createCart(container(), store, 60);
      const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
      await shop.complete(cartId);
      await control(sandboxA.url, `charges/${session.data.charge_id}/pay`, {});
      await waitFor(
        async () =>
          (await orderOfCart(container(), cartId))?.payment_collections[0]?.status === "completed",
        "the order to be paid",
      );
      const answer = await (api as unknown as Api).request({
        method: "post",
        url: `/hooks/pix-checkout/a?token=${WEBHOOK_SECRET}`,
        data: {
          event: "charge.expired",
          data: { uuid: session.data.charge_id, amount: 6000, status: "expired" },
        },
        validateStatus: () => true,
      });
      expect(answer.status).toBe(200);
      await waitFor(async () => {
        const row = await db(container())("pix_checkout_webhook_delivery")
          .where({ id: answer.data.id })
          .first();
        return row?.outcome !== "received" && row;
      }, "the late delivery to be processed");
      const order = await orderOfCart(container(), cartId);
      expect(order?.status).not.toBe("canceled");
      expect(order?.payment_collections[0]?.status).toBe("completed");
      expect((await chargeRow(session.data.charge_id)).status).toBe("paid");
    });

    it("a forged charge.paid for an unpaid charge changes nothing and is recorded as forged", async () => {
      const cartId = await createCart(container(), store, 70);
      const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
      await shop.complete(cartId);
      const answer = await (api as unknown as Api).request({
        method: "post",
        url: `/hooks/pix-checkout/a?token=${WEBHOOK_SECRET}`,
        data: {
          event: "charge.paid",
          data: { uuid: session.data.charge_id, amount: 7000, status: "paid" },
        },
        validateStatus: () => true,
      });
      expect(answer.status).toBe(200);
      const delivery = await waitFor(async () => {
        const row = await db(container())("pix_checkout_webhook_delivery")
          .where({ id: answer.data.id })
          .first();
        return row?.outcome !== "received" && row;
      }, "the forged delivery to be processed");
      expect(delivery.outcome).toBe("forged");
      const order = await orderOfCart(container(), cartId);
      expect(order?.payment_collections[0]?.status).toBe("awaiting");
      expect((await chargeRow(session.data.charge_id)).status).toBe("pending");
    });

    it("a malformed body gets 400 invalid_webhook and nothing is stored", async () => {
      const before = await db(container())("pix_checkout_webhook_delivery").count({ n: "*" });
      const answer = await (api as unknown as Api).request({
        method: "post",
        url: `/hooks/pix-checkout/a?token=${WEBHOOK_SECRET}`,
        data: "{not json",
        headers: { "content-type": "application/json" },
        transformRequest: [(body: unknown) => body],
        validateStatus: () => true,
      });
      expect(answer.status).toBe(400);
      expect(answer.data.code).toBe("invalid_webhook");
      const after = await db(container())("pix_checkout_webhook_delivery").count({ n: "*" });
      expect(after).toEqual(before);
    });

    it("a delivery without the URL token gets 401 webhook_unauthorized", async () => {
      const answer = await (api as unknown as Api).request({
        method: "post",
        url: "/hooks/pix-checkout/a?token=wrong-token-000000000",
        data: { event: "charge.paid", data: { uuid: "x", amount: 500, status: "paid" } },
        validateStatus: () => true,
      });
      expect(answer.status).toBe(401);
      expect(answer.data.code).toBe("webhook_unauthorized");
    });

    it("a charge.expired whose charge the API reports paid captures it (the API wins over the event)", async () => {
      const cartId = await createCart(container(), store, 65);
      const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
      await shop.complete(cartId);
      await control(sandboxA.url, "faults", { webhook_drop_rate: 1 });
      await control(sandboxA.url, `charges/${session.data.charge_id}/pay`, {});
      await sandboxA.webhooksIdle();
      await (api as unknown as Api).request({
        method: "post",
        url: `/hooks/pix-checkout/a?token=${WEBHOOK_SECRET}`,
        data: {
          event: "charge.expired",
          data: { uuid: session.data.charge_id, amount: 6500, status: "expired" },
        },
      });
      await waitFor(
        async () =>
          (await orderOfCart(container(), cartId))?.payment_collections[0]?.status === "completed",
        "the order to be paid",
      );
      expect((await chargeRow(session.data.charge_id)).status).toBe("paid");
    });

    it("a dropped charge.paid is reconciled within one interval", async () => {
      const cartId = await createCart(container(), store, 90);
      const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
      await shop.complete(cartId);
      await control(sandboxA.url, "faults", { webhook_drop_rate: 1 });
      await control(sandboxA.url, `charges/${session.data.charge_id}/pay`, {});
      await sandboxA.webhooksIdle();
      expect((await orderOfCart(container(), cartId))?.payment_collections[0]?.status).toBe(
        "awaiting",
      );

      const oneIntervalLater = new Date(Date.now() + 5 * 60_000 + 1_000);
      const report = await reconcileOnce(settleContext(container()), oneIntervalLater);
      expect(report.settled).toBe(1);
      const order = await orderOfCart(container(), cartId);
      expect(order?.payment_collections[0]?.status).toBe("completed");
    });

    it("a webhook that arrives before the charge is mapped to its session is kept and applied later", async () => {
      const cartId = await createCart(container(), store, 95);
      const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
      await shop.complete(cartId);
      const mapping = await chargeRow(session.data.charge_id);
      await db(container())("pix_checkout_charge").where({ id: mapping.id }).delete();

      await control(sandboxA.url, `charges/${session.data.charge_id}/pay`, {});
      await sandboxA.webhooksIdle();
      const delivery = await waitFor(async () => {
        const row = await db(container())("pix_checkout_webhook_delivery")
          .where({ charge_id: session.data.charge_id })
          .first();
        return row?.outcome === "unmatched" && row;
      }, "the delivery to be stored as unmatched");
      expect(delivery.event).toBe("charge.paid");

      await db(container())("pix_checkout_charge").insert(mapping);
      await reconcileOnce(settleContext(container()), new Date(Date.now() + 60_000));
      await waitFor(
        async () =>
          (await orderOfCart(container(), cartId))?.payment_collections[0]?.status === "completed",
        "the order to be paid",
      );
      expect(await capturesOfSession(container(), session.id)).toBe(1);
    });

    it("never shows the secret key in store responses, session data or log output", async () => {
      const cartId = await createCart(container(), store, 80);
      const created = await shop.initiate(cartId, "pp_pix_a");
      const cart = await shop.cart(cartId);
      expect(JSON.stringify(created.data)).not.toContain(API_KEY);
      expect(JSON.stringify(cart.data)).not.toContain(API_KEY);
      expect(JSON.stringify(cart.data)).not.toContain("sk_live_");
      expect(output.join("")).not.toContain(API_KEY);
    });
  },
});
