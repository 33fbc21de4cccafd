import path from "node:path";
import { medusaIntegrationTestRunner } from "@medusajs/test-utils";
import type { Sandbox } from "@pix-checkout/sandbox" with { "resolution-mode": "import" };
import type {
  INotificationModuleService,
  IPaymentModuleService,
  MedusaContainer,
} from "@medusajs/framework/types";
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils";
import {
  createCartWorkflow,
  createPromotionsWorkflow,
  createTaxRegionsWorkflow,
  getOrderDetailWorkflow,
} from "@medusajs/medusa/core-flows";
import { createStoreFixture, type StoreFixture } from "../helpers/store-fixture";
import { paidOrderFrom } from "../helpers/shopper-mailbox";
import {
  BOLETO_PAYER,
  capturesOfSession,
  control,
  db,
  orderOfCart,
  storefront,
  type Api,
  type Json,
} from "../helpers/checkout";
import { startCountingProxy, type CountingProxy } from "../helpers/counting-proxy";
import { waitFor } from "../helpers/wait-for";
import { decodeQrPng } from "../helpers/qr-decode";
import { ChargeBoundElsewhereError, Charges } from "../../src/internal/records/charges";
import { reconcilePass } from "../helpers/reconcile-pass";
import { UNMATCHED_TRIES } from "../../src/internal/records/webhook-deliveries";
import { adminLogin } from "../helpers/admin-login";
import pixCheckoutRetention from "../../src/jobs/pix-checkout-retention";
import { runRetention } from "../../src/internal/operations/retention";
import { settleCharge } from "../../src/internal/settlement/settle";
import { settleContext } from "../../src/internal/settlement/context";

// The money path under conditions a real store has and the demo does not: promotions and taxes
// that leave a fraction of a cent, shoppers paying the same amount at once while responses
// are lost, a database that fails, rows that can never be checked.

const API_KEY = "sk_live_money_path_5ecret";
const WEBHOOK_SECRET = "whsec-test-a-0123456789";

let sandbox: Sandbox;
let sandboxB: Sandbox;
let proxy: CountingProxy;
let proxyB: CountingProxy;

beforeAll(async () => {
  const { startSandbox } = await import("@pix-checkout/sandbox");
  sandbox = await startSandbox({ variant: "a", keys: [API_KEY], webhookRetryDelaysMs: [300] });
  proxy = await startCountingProxy(sandbox.url);
  process.env.PIX_SANDBOX_A_URL = proxy.baseUrl;
  // A Variant B service that sends webhooks exactly as the spec's payload table: `uuid` only.
  sandboxB = await startSandbox({
    variant: "b",
    keys: [API_KEY],
    webhookRetryDelaysMs: [300],
    specLiteralWebhooks: true,
  });
  proxyB = await startCountingProxy(sandboxB.url);
  process.env.PIX_SANDBOX_B_URL = proxyB.baseUrl;
  process.env.PIX_API_KEY = API_KEY;
  // The plugin's notification subscriber, to Medusa's local notification provider.
  process.env.PIX_NOTIFY = "1";
});

afterAll(async () => {
  await proxy?.close();
  await proxyB?.close();
  await sandbox?.close();
  await sandboxB?.close();
});

/** Half-up cents of a decimal string, computed on digits (the test's own oracle, no floats). */
function halfUpCents(total: string): number {
  const [whole, fraction = ""] = total.split(".");
  const digits = (fraction + "000").slice(0, 3);
  const cents = Number(whole) * 100 + Number(digits.slice(0, 2));
  return Number(digits[2]) >= 5 ? cents + 1 : cents;
}

async function orderPayment(container: MedusaContainer, orderId: string) {
  const { result } = await getOrderDetailWorkflow(container).run({
    input: {
      order_id: orderId,
      fields: ["id", "payment_status", "total", "summary.*", "payment_collections.*"],
    },
  });
  return result as unknown as {
    payment_status: string;
    total: number;
    summary: { paid_total: number; pending_difference: number };
  };
}

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
      await control(sandbox.url, "webhook-urls", {
        url: `${base}/hooks/pix-checkout/a?token=${WEBHOOK_SECRET}`,
      });
      await control(sandboxB.url, "webhook-urls", { url: `${base}/hooks/pix-checkout/b` });
      await createTaxRegionsWorkflow(container()).run({
        input: [
          {
            country_code: "br",
            provider_id: "tp_system",
            default_tax_rate: { rate: 17.5, code: "ICMS", name: "ICMS 17,5 %" },
          },
        ],
      });
      const promotion = (
        code: string,
        method: { type: "percentage" | "fixed"; target_type: "order" | "items"; value: number },
      ) => ({
        code,
        type: "standard" as const,
        status: "active" as const,
        is_automatic: false,
        application_method: {
          ...method,
          allocation: method.target_type === "order" ? ("across" as const) : ("each" as const),
          currency_code: "brl",
          ...(method.target_type === "items" ? { max_quantity: 100, target_rules: [] } : {}),
        },
      });
      await createPromotionsWorkflow(container()).run({
        input: {
          promotionsData: [
            promotion("PEDIDO15", { type: "percentage", target_type: "order", value: 15 }),
            promotion("ITENS15", { type: "percentage", target_type: "items", value: 15 }),
            promotion("MENOS5", { type: "fixed", target_type: "order", value: 5 }),
          ],
        },
      });
    });

    beforeEach(async () => {
      await fetch(`${sandbox.url}/__sandbox/faults`, { method: "DELETE" });
    });

    const chargeRow = (chargeId: string) =>
      db(container())("pix_checkout_charge").where({ charge_id: chargeId }).first();
    const rowWhere = (chargeId: string, test: (row: Json) => boolean) =>
      waitFor(async () => {
        const row = await chargeRow(chargeId);
        return row && test(row) && row;
      }, `charge ${chargeId} to change`);
    /** The processed charge.paid of a Variant B charge, which names it by its `uuid` only. */
    const uuidOnlyDelivery = async (chargeId: string): Promise<Json> => {
      const read = await fetch(`${sandboxB.baseUrl}/charges/${chargeId}`, {
        headers: { authorization: `Bearer ${API_KEY}` },
      });
      const { uuid } = (await read.json()) as { uuid: string };
      return waitFor(async () => {
        const row = await db(container())("pix_checkout_webhook_delivery")
          .where({ event: "charge.paid" })
          .whereRaw(`body->'data'->>'uuid' = ?`, [uuid])
          .first();
        return row && row.outcome !== "received" && row;
      }, "the uuid-only delivery to be processed");
    };
    const sessionOf = (response: { data: Json }) =>
      response.data.payment_collection.payment_sessions[0] as { id: string; data: Json };

    /** A cart priced like a real shop: items, a BR address for taxes, optionally a promotion. */
    async function cart(
      items: { unit_price: number; quantity: number; is_tax_inclusive?: boolean }[],
      promoCode?: string,
    ): Promise<{ id: string; total: string }> {
      const { result } = await createCartWorkflow(container()).run({
        input: {
          region_id: store.regionId,
          sales_channel_id: store.salesChannelId,
          currency_code: "brl",
          email: "ana@example.com",
          shipping_address: { country_code: "br", province: "SP", city: "São Paulo" },
          items: items.map((item, i) => ({
            title: `Produto ${i + 1}`,
            requires_shipping: false,
            ...item,
          })),
        },
      });
      if (promoCode) {
        const applied = await shop.call("post", `/store/carts/${result.id}/promotions`, {
          promo_codes: [promoCode],
        });
        expect(applied.status).toBe(200);
        expect(applied.data.cart.promotions.map((p: Json) => p.code)).toContain(promoCode);
      }
      const query = container().resolve(ContainerRegistrationKeys.QUERY);
      const { data } = await query.graph({
        entity: "cart",
        fields: ["id", "total", "raw_total"],
        filters: { id: result.id },
      });
      const total = (data[0] as { raw_total: { value: string } }).raw_total.value;
      return { id: result.id, total };
    }

    /** What Medusa asked the provider to charge: the session's raw amount. */
    async function sessionRawAmount(sessionId: string): Promise<string> {
      const query = container().resolve(ContainerRegistrationKeys.QUERY);
      const { data } = await query.graph({
        entity: "payment_session",
        fields: ["id", "raw_amount"],
        filters: { id: sessionId },
      });
      return (data[0] as { raw_amount: { value: string } }).raw_amount.value;
    }

    async function expectPaidInFull(cartId: string) {
      const order = await waitFor(async () => {
        const o = await orderOfCart(container(), cartId);
        return o?.payment_collections[0]?.status === "completed" && o;
      }, "the order's payment collection to be completed");
      // What the merchant reads in the admin: captured, nothing owed, nothing to refund.
      const detail = await waitFor(async () => {
        const d = await orderPayment(container(), order.id);
        return Math.round(d.summary.pending_difference * 100) === 0 && d;
      }, "the order's summary to show nothing outstanding");
      expect(detail.payment_status).toBe("captured");
      expect(Math.round(detail.summary.paid_total * 100)).toBe(Math.round(detail.total * 100));
    }

    describe("totals with a fraction of a cent", () => {
      it("a 15 % order promotion: Pix is charged the half-up cent and the paid order shows captured in full", async () => {
        const { id: cartId, total } = await cart([{ unit_price: 57.55, quantity: 1 }], "PEDIDO15");
        expect(total).toMatch(/\.\d{3,}/); // the promotion left a fraction of a cent
        const created = await shop.initiate(cartId, "pp_pix_a");
        expect(created.status).toBe(200);
        const session = sessionOf(created);
        expect(session.data.amount_cents).toBe(halfUpCents(await sessionRawAmount(session.id)));
        // Pay-first: the shopper pays, the webhook turns the cart into an order.
        await control(sandbox.url, `charges/${session.data.charge_id}/pay`, {});
        await expectPaidInFull(cartId);
        expect(await capturesOfSession(container(), session.id)).toBe(1);
      });

      it("a 15 % promotion on items: a boleto order waits, then is captured in full, and its paid message carries no CPF", async () => {
        const { id: cartId, total } = await cart(
          [
            { unit_price: 39.9, quantity: 3 },
            { unit_price: 12.35, quantity: 1 },
          ],
          "ITENS15",
        );
        expect(total).toMatch(/\.\d{3,}/);
        const created = await shop.initiate(cartId, "pp_boleto_a", BOLETO_PAYER);
        expect(created.status).toBe(200);
        const session = sessionOf(created);
        expect(session.data.amount_cents).toBe(halfUpCents(await sessionRawAmount(session.id)));
        const completed = await shop.complete(cartId);
        expect(completed.data.type).toBe("order");
        await control(sandbox.url, `charges/${session.data.charge_id}/pay`, {});
        await expectPaidInFull(cartId);
        // The shopper's "paid" message names the order and the boleto; the CPF the charge was
        // made with is in no message (docs/privacy.md).
        expect((await chargeRow(session.data.charge_id)).buyer_document).toBe("52998224725");
        const notifications = container().resolve<INotificationModuleService>(Modules.NOTIFICATION);
        const paid = await waitFor(
          async () =>
            (await notifications.listNotifications({ resource_id: session.data.charge_id })).find(
              (n) => n.template === "pix-checkout-paid",
            ),
          "the paid message",
        );
        expect((paid.data as Json).method).toBe("boleto");
        for (const whole of ["52998224725", BOLETO_PAYER.document]) {
          expect(JSON.stringify(paid)).not.toContain(whole);
        }
      });

      it("a fixed R$ 5 promotion on a taxed cart", async () => {
        const { id: cartId, total } = await cart([{ unit_price: 39.9, quantity: 1 }], "MENOS5");
        // (39,90 − 5,00) × 1,175 ICMS = 41,0075
        expect(total).toMatch(/\.\d{3,}/);
        const created = await shop.initiate(cartId, "pp_pix_a");
        expect(created.status).toBe(200);
        const session = sessionOf(created);
        expect(session.data.amount_cents).toBe(halfUpCents(await sessionRawAmount(session.id)));
        await control(sandbox.url, `charges/${session.data.charge_id}/pay`, {});
        await expectPaidInFull(cartId);
      });

      it("tax-inclusive prices with a 15 % promotion", async () => {
        const { id: cartId, total } = await cart(
          [{ unit_price: 39.9, quantity: 1, is_tax_inclusive: true }],
          "PEDIDO15",
        );
        expect(total).toMatch(/\.\d{3,}/);
        const created = await shop.initiate(cartId, "pp_pix_a");
        const session = sessionOf(created);
        expect(session.data.amount_cents).toBe(halfUpCents(await sessionRawAmount(session.id)));
        await control(sandbox.url, `charges/${session.data.charge_id}/pay`, {});
        await expectPaidInFull(cartId);
      });
    });

    // A completion undone halfway by a database restart (the chaos run) leaves the cart linked
    // to an order that is gone; Medusa's completion then answers that id and creates nothing.
    describe("a cart linked to an order that does not exist", () => {
      async function linkToMissingOrder(cartId: string) {
        const link = container().resolve(ContainerRegistrationKeys.LINK);
        await link.create({
          [Modules.ORDER]: { order_id: "order_01UNDONEHALFWAY0000000000" },
          [Modules.CART]: { cart_id: cartId },
        });
      }

      it("pay-first: the webhook's completion makes the order, and the money is captured on it", async () => {
        const { id: cartId } = await cart([{ unit_price: 61.2, quantity: 1 }]);
        const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
        await linkToMissingOrder(cartId);
        await control(sandbox.url, `charges/${session.data.charge_id}/pay`, {});
        await expectPaidInFull(cartId);
        const order = await orderOfCart(container(), cartId);
        expect(order?.id).not.toBe("order_01UNDONEHALFWAY0000000000");
        expect(await capturesOfSession(container(), session.id)).toBe(1);
      });

      it("order-first: the shopper's completion makes a real order, which the boleto then pays", async () => {
        const { id: cartId } = await cart([{ unit_price: 33.3, quantity: 2 }]);
        const session = sessionOf(await shop.initiate(cartId, "pp_boleto_a", BOLETO_PAYER));
        await linkToMissingOrder(cartId);
        const completed = await shop.complete(cartId);
        expect(completed.data.type).toBe("order");
        expect(completed.data.order.id).not.toBe("order_01UNDONEHALFWAY0000000000");
        expect((await orderOfCart(container(), cartId))?.id).toBe(completed.data.order.id);
        await control(sandbox.url, `charges/${session.data.charge_id}/pay`, {});
        await expectPaidInFull(cartId);
      });
    });

    it("a Variant B service that names the charge only by uuid in charge.paid: the webhook itself pays the order", async () => {
      const { id: cartId } = await cart([{ unit_price: 88.8, quantity: 1 }]);
      const session = sessionOf(await shop.initiate(cartId, "pp_pix_b"));
      const chargeId = session.data.charge_id as string;
      expect(chargeId).toMatch(/^ch_svc_/);
      await control(sandboxB.url, `charges/${chargeId}/pay`, {});
      const delivery = await uuidOnlyDelivery(chargeId);
      expect(delivery.outcome).toBe("processed");
      await expectPaidInFull(cartId);
    });

    it("a Variant B delivery that names its charge by uuid is kept under the charge's id: the order's timeline shows it and retention deletes it", async () => {
      const { id: cartId } = await cart([{ unit_price: 86.6, quantity: 1 }]);
      const session = sessionOf(await shop.initiate(cartId, "pp_pix_b"));
      const chargeId = session.data.charge_id as string;
      await control(sandboxB.url, `charges/${chargeId}/pay`, {});
      const delivery = await uuidOnlyDelivery(chargeId);
      // Received under the service's uuid, recorded under the charge once the API named it.
      expect(delivery.body.data.id).toBeUndefined();
      expect(delivery).toMatchObject({ outcome: "processed", charge_id: chargeId });
      await expectPaidInFull(cartId);

      const order = await orderOfCart(container(), cartId);
      const adminHeaders = await adminLogin(container(), "timeline-b@example.com");
      const timeline = async () => {
        const answer = await (api as unknown as Api).request({
          method: "get",
          url: `/admin/pix-checkout/orders/${order!.id}`,
          headers: adminHeaders,
        });
        const charge = (answer.data.charges as Json[]).find((c) => c.charge_id === chargeId);
        return charge.timeline as Json[];
      };
      expect(await timeline()).toContainEqual(
        expect.objectContaining({ type: "delivery", id: delivery.id, charge_id: chargeId }),
      );

      // Finished long ago: retention deletes its deliveries as it does a Variant A charge's.
      await rowWhere(chargeId, (r) => !!r.captured_at);
      await sandboxB.webhooksIdle();
      const aged = `- interval '100 days'`;
      await db(container()).raw(
        `update pix_checkout_charge set created_at = created_at ${aged}, updated_at = updated_at ${aged},
           expires_at = expires_at ${aged}, paid_at = paid_at ${aged}, captured_at = captured_at ${aged}
         where charge_id = ?`,
        [chargeId],
      );
      // A pass whose job lock was lost (Medusa's lock signal fired) takes no batch.
      await expect(
        runRetention(db(container()), 90, { signal: AbortSignal.abort() }),
      ).rejects.toThrow();
      expect(
        await db(container())("pix_checkout_webhook_delivery").where({ id: delivery.id }),
      ).toHaveLength(1);
      expect(await pixCheckoutRetention(container())).toMatchObject({ charges: 1 });
      expect(
        await db(container())("pix_checkout_webhook_delivery").where({ id: delivery.id }),
      ).toHaveLength(0);
      expect((await timeline()).filter((entry) => entry.type === "delivery")).toEqual([]);
    });

    it("a Variant B session whose amount changes gets a new charge for the new amount", async () => {
      const { id: cartId } = await cart([{ unit_price: 51.2, quantity: 1 }]);
      const session = sessionOf(await shop.initiate(cartId, "pp_pix_b"));
      const first = session.data.charge_id as string;
      const payment = container().resolve<IPaymentModuleService>(Modules.PAYMENT);
      const stored = await payment.retrievePaymentSession(session.id);
      // The collection's amount changed (Medusa restates it first), then Medusa asks the provider
      // to update the session's amount: the API cannot change a charge, so the same session asks
      // for a second one. A new code never asks more than its collection does.
      await payment.updatePaymentCollections(stored.payment_collection_id, { amount: 63.4 });
      await payment.updatePaymentSession({
        id: session.id,
        amount: 63.4,
        currency_code: stored.currency_code,
        data: stored.data ?? {},
        // What the payment module passes when it creates a session: the session's id.
        context: { idempotency_key: session.id },
      });
      const updated = await payment.retrievePaymentSession(session.id);
      const second = updated.data?.charge_id as string;
      expect(second).toMatch(/^ch_svc_/);
      expect(second).not.toBe(first);
      expect(updated.data).toMatchObject({ amount_cents: 6340 });
      const atService = (await (
        await fetch(`${sandboxB.baseUrl}/charges/${second}`, {
          headers: { authorization: `Bearer ${API_KEY}` },
        })
      ).json()) as { amount_cents: number };
      expect(atService.amount_cents).toBe(6340);
      expect(Number((await chargeRow(second)).amount_cents)).toBe(6340);
      expect(Number((await chargeRow(first)).amount_cents)).toBe(session.data.amount_cents);
    });

    it("a Variant B delivery naming a uuid no charge of this store has costs one API read and a few tries in all", async () => {
      const uuid = "7d1e4c2a-9b3f-4e8a-8c6d-5f4e3d2c1b0a";
      const before = proxyB.calls.length;
      const answer = await (api as unknown as Api).request({
        method: "post",
        url: "/hooks/pix-checkout/b",
        data: { event: "charge.paid", data: { uuid, amount: 1000, status: "paid" } },
        validateStatus: () => true,
      });
      expect(answer.status).toBe(200);
      const id = answer.data.id as string;
      const delivery = () => db(container())("pix_checkout_webhook_delivery").where({ id }).first();
      // The route's own retries (0.5 s, 2 s, 5 s), then reconciliation's, hours apart.
      await waitFor(async () => (await delivery())?.attempts >= 4, "the route's retries");
      let now = Date.now();
      for (let pass = 0; pass < 6; pass += 1) {
        now += 2 * 60 * 60_000;
        await reconcilePass(container(), new Date(now));
      }
      // Anyone may post such a delivery: it is tried UNMATCHED_TRIES times, then left alone.
      expect(await delivery()).toMatchObject({ outcome: "unmatched", attempts: UNMATCHED_TRIES });
      const reads = proxyB.calls.slice(before).filter((c) => c === `GET /v1/charges/${uuid}`);
      expect(reads).toHaveLength(1);
    });

    it("a charge the service says was paid for less than the order is held for the merchant, not captured in full", async () => {
      const { id: cartId } = await cart([{ unit_price: 90, quantity: 1 }]);
      const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
      const chargeId = session.data.charge_id as string;
      // The service's record and ours disagree (no sandbox route makes that): ours says more.
      await db(container())("pix_checkout_charge")
        .where({ charge_id: chargeId })
        .update({ amount_cents: db(container()).raw("amount_cents + 1000") });
      await control(sandbox.url, `charges/${chargeId}/pay`, {});
      const row = await waitFor(async () => {
        const r = await chargeRow(chargeId);
        return r?.status === "paid" && r.flagged && r;
      }, "the charge to be recorded paid and flagged");
      expect(row.flag_code).toBe("amount_mismatch");
      await reconcilePass(container());
      expect(await capturesOfSession(container(), session.id)).toBe(0);
      expect((await chargeRow(chargeId)).captured_at).toBeNull();
      const flagged = await db(container())("pix_checkout_charge_event").where({
        charge_id: chargeId,
        kind: "flagged",
      });
      expect(flagged).toHaveLength(1);
    });

    it("a cart above R$ 21.474.836,47 (past a Postgres integer) gets its code and is paid in full", async () => {
      const { id: cartId } = await cart([{ unit_price: 25_000_000, quantity: 1 }]);
      const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
      expect(session.data.amount_cents).toBeGreaterThan(2_147_483_647);
      expect(Number((await chargeRow(session.data.charge_id)).amount_cents)).toBe(
        session.data.amount_cents,
      );
      await control(sandbox.url, `charges/${session.data.charge_id}/pay`, {});
      await expectPaidInFull(cartId);
    });

    it("a paid checkout costs the payment API two calls: the create and one fetch-back", async () => {
      const { id: cartId } = await cart([{ unit_price: 71.3, quantity: 1 }]);
      const before = proxy.calls.length;
      const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
      await control(sandbox.url, `charges/${session.data.charge_id}/pay`, {});
      await expectPaidInFull(cartId);
      // The storefront completes the cart as the starter does; the order already exists.
      expect((await shop.complete(cartId)).data.type).toBe("order");
      expect(proxy.calls.slice(before)).toEqual([
        "POST /v1/charges",
        `GET /v1/charges/${session.data.charge_id}`,
      ]);
    });

    it("a check that reaches a charge after its webhook settled it asks the API nothing", async () => {
      // Reconciliation claims due pending rows in a batch, then works through them: a webhook
      // may settle one in between. Paid is final, so the check must not ask again.
      const { id: cartId } = await cart([{ unit_price: 72.4, quantity: 1 }]);
      const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
      await control(sandbox.url, `charges/${session.data.charge_id}/pay`, {});
      await expectPaidInFull(cartId);
      const before = proxy.calls.length;
      const result = await settleCharge(
        settleContext(container()),
        session.data.charge_id,
        "reconcile",
      );
      expect(result).toMatchObject({ outcome: "duplicate", status: "paid" });
      expect(proxy.calls.slice(before)).toEqual([]);
    });

    it("a repeated charge.paid for a charge already confirmed paid asks the API nothing", async () => {
      // Services deliver at least once, and reconciliation may confirm a payment just before its
      // webhook is processed: the repeat agrees with what the API already said, and paid is final.
      const { id: cartId } = await cart([{ unit_price: 73.5, quantity: 1 }]);
      const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
      const chargeId = session.data.charge_id as string;
      await control(sandbox.url, `charges/${chargeId}/pay`, {});
      await expectPaidInFull(cartId);
      // Medusa's collection completes a moment before the plugin records the capture on its
      // own row; "already confirmed paid" is that record.
      const recorded = await rowWhere(
        chargeId,
        (r) => Boolean(r.captured_at) && !r.awaiting_order_since,
      );
      const ctx = settleContext(container());
      const amountCents = Number(recorded.amount_cents);
      const before = proxy.calls.length;
      const repeat = await settleCharge(ctx, chargeId, "webhook", { status: "paid", amountCents });
      expect(repeat).toMatchObject({ outcome: "duplicate", status: "paid" });
      expect(proxy.calls.slice(before)).toEqual([]);

      // A claim that disagrees with the record is still checked with the API, and refused.
      const wrongAmount = await settleCharge(ctx, chargeId, "webhook", {
        status: "paid",
        amountCents: 1,
      });
      expect(wrongAmount.outcome).toBe("forged");
      expect(proxy.calls.slice(before)).toEqual([`GET /v1/charges/${chargeId}`]);
      expect(await capturesOfSession(container(), session.id)).toBe(1);
    });

    describe("two shoppers at the same price while a create response is lost", () => {
      it("the second shopper is never handed the first one's charge when its create never happened", async () => {
        const first = sessionOf(
          await shop.initiate((await cart([{ unit_price: 64.9, quantity: 1 }])).id, "pp_pix_a"),
        );
        await control(sandbox.url, "faults", { http_5xx_before_creates: 1 });
        const secondCart = (await cart([{ unit_price: 64.9, quantity: 1 }])).id;
        const second = await shop.initiate(secondCart, "pp_pix_a");
        // Nothing of the second shopper's exists upstream: a retryable refusal, not a code.
        expect(second.status).toBe(409);
        expect(JSON.stringify(second.data)).not.toContain(first.data.charge_id);
        expect((await chargeRow(first.data.charge_id)).session_id).toBe(first.id);
      });

      it("the second shopper gets the charge its lost create made, found by its session reference", async () => {
        const first = sessionOf(
          await shop.initiate((await cart([{ unit_price: 64.9, quantity: 1 }])).id, "pp_pix_a"),
        );
        await control(sandbox.url, "faults", { http_5xx_after_creates: 1 });
        const second = await shop.initiate(
          (await cart([{ unit_price: 64.9, quantity: 1 }])).id,
          "pp_pix_a",
        );
        expect(second.status).toBe(200);
        const session = sessionOf(second);
        expect(session.data.charge_id).not.toBe(first.data.charge_id);
        // The transaction list is where the API shows a charge's description.
        const listed = (await (
          await fetch(`${sandbox.baseUrl}/transactions?type=charge&limit=100`, {
            headers: { authorization: `Bearer ${API_KEY}` },
          })
        ).json()) as { data: { id: string; uuid?: string; description?: string }[] };
        const adopted = listed.data.find((c) => (c.uuid ?? c.id) === session.data.charge_id);
        expect(adopted?.description).toBe(`Pagamento Pix (ref ${session.id})`);
        expect((await chargeRow(first.data.charge_id)).session_id).toBe(first.id);
      });

      it("a charge recorded for one payment collection is never moved to another", async () => {
        const first = sessionOf(
          await shop.initiate((await cart([{ unit_price: 22.5, quantity: 1 }])).id, "pp_pix_a"),
        );
        const row = await chargeRow(first.data.charge_id);
        const charges = new Charges(db(container()));
        await expect(
          charges.insert({
            ...row,
            id: undefined,
            session_id: "payses_other",
            payment_collection_id: "pay_col_other",
          }),
        ).rejects.toBeInstanceOf(ChargeBoundElsewhereError);
        expect((await chargeRow(first.data.charge_id)).session_id).toBe(first.id);
      });

      it("a cart whose session names another session's paid charge does not become a paid order", async () => {
        const firstCart = (await cart([{ unit_price: 18.9, quantity: 1 }])).id;
        const first = sessionOf(await shop.initiate(firstCart, "pp_pix_a"));
        const secondCart = (await cart([{ unit_price: 18.9, quantity: 1 }])).id;
        const second = sessionOf(await shop.initiate(secondCart, "pp_pix_a"));
        // Session data pointing at someone else's charge (a bug, a crafted update).
        const payment = container().resolve<IPaymentModuleService>(Modules.PAYMENT);
        const stored = await payment.retrievePaymentSession(second.id);
        await payment.updatePaymentSession({
          id: second.id,
          amount: stored.amount,
          currency_code: stored.currency_code,
          data: { ...stored.data, charge_id: first.data.charge_id },
        });
        await control(sandbox.url, `charges/${first.data.charge_id}/pay`, {});
        await expectPaidInFull(firstCart);
        // Its own code is unpaid: at most an order that waits for it (order-first), never a paid one.
        const completed = await shop.complete(secondCart);
        expect(completed.status).toBeLessThan(500);
        expect(
          (await orderOfCart(container(), secondCart))?.payment_collections[0]?.status,
        ).not.toBe("completed");
        expect(await capturesOfSession(container(), second.id)).toBe(0);
      });
    });

    it("a database failure while recording a new charge fails the checkout with a retryable 409 and shows no code", async () => {
      const { id: cartId } = await cart([{ unit_price: 42.42, quantity: 1 }]);
      // A passing failure is told by its SQLSTATE (53100, the disk full), as Postgres raises it;
      // an exception without one is a bug, answered 500 internal_error (store-routes.test.ts).
      await db(container()).raw(`
        create or replace function pix_test_fail_insert() returns trigger as $$
        begin
          raise exception using errcode = 'disk_full', message = 'injected: disk full';
        end; $$ language plpgsql;
        create trigger pix_test_fail_insert before insert on pix_checkout_charge
          for each row execute function pix_test_fail_insert();`);
      try {
        const created = await shop.initiate(cartId, "pp_pix_a");
        expect(created.status).toBe(409);
        // Medusa answers every CONFLICT with its own "you may retry" text.
        expect(created.data.message).toMatch(/retry/i);
        expect(JSON.stringify(created.data)).not.toMatch(/copy_paste|charge_id/);
      } finally {
        await db(container()).raw(`
          drop trigger if exists pix_test_fail_insert on pix_checkout_charge;
          drop function if exists pix_test_fail_insert();`);
      }
      // The shopper's retry works once the database does.
      expect((await shop.initiate(cartId, "pp_pix_a")).status).toBe(200);
    });

    it("a database failure while a paid Pix is authorized says 'try again' without claiming nothing was charged, and the retry places one paid order", async () => {
      const { id: cartId } = await cart([{ unit_price: 31.31, quantity: 1 }]);
      const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
      const chargeId = session.data.charge_id as string;
      // No webhook: the shopper's own completion is the first to learn of the payment.
      await control(sandbox.url, "faults", { webhook_drop_rate: 1 });
      await control(sandbox.url, `charges/${chargeId}/pay`, {});
      await sandbox.webhooksIdle();
      await db(container()).raw(`
        create or replace function pix_test_fail_update() returns trigger as $$
        begin
          raise exception using errcode = 'connection_failure', message = 'injected: connection lost';
        end; $$ language plpgsql;
        create trigger pix_test_fail_update before update on pix_checkout_charge
          for each row execute function pix_test_fail_update();`);
      const payment = container().resolve<IPaymentModuleService>(Modules.PAYMENT);
      try {
        const refused = await payment.authorizePaymentSession(session.id, {}).then(
          () => undefined,
          (error: Error) => error,
        );
        expect(refused?.message).toMatch(/could not record this payment's state.*try again/i);
        // The shopper has paid: the answer must not tell them otherwise.
        expect(refused?.message).not.toMatch(/nothing was charged/i);
      } finally {
        await db(container()).raw(`
          drop trigger if exists pix_test_fail_update on pix_checkout_charge;
          drop function if exists pix_test_fail_update();`);
      }
      const completed = await shop.complete(cartId);
      expect(completed.data.type).toBe("order");
      await expectPaidInFull(cartId);
    });

    describe("reconciliation", () => {
      it("recovers a dropped webhook 30 s into a charge's life, after an earlier check found it pending", async () => {
        const { id: cartId } = await cart([{ unit_price: 55.1, quantity: 1 }]);
        const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
        const created = new Date((await chargeRow(session.data.charge_id)).created_at);
        const at = (seconds: number) => new Date(created.getTime() + seconds * 1000);
        // The 15 s check finds it pending.
        await reconcilePass(container(), at(16));
        await control(sandbox.url, "faults", { webhook_drop_rate: 1 });
        await control(sandbox.url, `charges/${session.data.charge_id}/pay`, {});
        await sandbox.webhooksIdle();
        const report = await reconcilePass(container(), at(31));
        expect(report.settled).toBe(1);
        await expectPaidInFull(cartId);
      });

      it("the payment stream (a GET) writes nothing: a watched charge's row and its next check stay as they were", async () => {
        const { id: cartId } = await cart([{ unit_price: 19.99, quantity: 1 }]);
        const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
        const chargeId = session.data.charge_id as string;
        // Older than two minutes: its next check is one interval away.
        await db(container())("pix_checkout_charge")
          .where({ charge_id: chargeId })
          .update({ next_check_at: new Date(Date.now() + 5 * 60_000) });
        const before = await chargeRow(chargeId);
        const base = (api as unknown as Api).defaults.baseURL;
        const abort = new AbortController();
        const stream = await fetch(`${base}/store/pix-checkout/sessions/${session.id}/stream`, {
          headers: { "x-publishable-api-key": store.publishableKey },
          signal: abort.signal,
        });
        expect(stream.status).toBe(200);
        try {
          // The session's first event has been written, and the stream stays open a while.
          const reader = stream.body!.getReader();
          let text = "";
          while (!text.includes("data: "))
            text += new TextDecoder().decode((await reader.read()).value);
          await new Promise((resolve) => setTimeout(resolve, 1_500));
          const after = await chargeRow(chargeId);
          expect(new Date(after.next_check_at).getTime()).toBe(
            new Date(before.next_check_at).getTime(),
          );
          expect(new Date(after.updated_at).getTime()).toBe(new Date(before.updated_at).getTime());
        } finally {
          abort.abort();
        }
      });

      it("a page that shows the code (POST …/shown) gets its check within 30 s, once a window however often it posts", async () => {
        const { id: cartId } = await cart([{ unit_price: 19.98, quantity: 1 }]);
        const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
        const chargeId = session.data.charge_id as string;
        const later = () => new Date(Date.now() + 5 * 60_000);
        await db(container())("pix_checkout_charge")
          .where({ charge_id: chargeId })
          .update({ next_check_at: later() });
        const base = (api as unknown as Api).defaults.baseURL;
        const shown = () =>
          fetch(`${base}/store/pix-checkout/sessions/${session.id}/shown`, {
            method: "POST",
            headers: { "x-publishable-api-key": store.publishableKey },
          });
        expect((await shown()).status).toBe(204);
        const pulled = await chargeRow(chargeId);
        expect(new Date(pulled.next_check_at).getTime()).toBeLessThanOrEqual(Date.now() + 31_000);
        expect(pulled.status).toBe("pending");
        // Within the window, more posts (the element repeats it while the code is shown, or
        // anyone holding the session id) pull nothing forward again.
        const pushedBack = later();
        await db(container())("pix_checkout_charge")
          .where({ charge_id: chargeId })
          .update({ next_check_at: pushedBack });
        for (let i = 0; i < 5; i++) expect((await shown()).status).toBe(204);
        const after = await chargeRow(chargeId);
        expect(new Date(after.next_check_at).getTime()).toBe(pushedBack.getTime());
      });

      it("150 rows that can never be checked do not delay a dropped webhook, and are flagged at the cap", async () => {
        const knex = db(container());
        const longAgo = new Date(Date.now() - 60 * 60_000);
        const poison = Array.from({ length: 150 }, (_, i) => ({
          id: `pxch_poison_${i}`,
          charge_id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
          provider_id: "pp_pix_a",
          method: "pix",
          variant: "a",
          session_id: `payses_poison_${i}`,
          payment_collection_id: `pay_col_poison_${i}`,
          amount_cents: 1000,
          currency_code: "brl",
          status: "pending",
          expires_at: new Date(Date.now() + 30 * 60_000),
          next_check_at: longAgo,
          created_at: longAgo,
          updated_at: longAgo,
        }));
        await knex("pix_checkout_charge").insert(poison);
        try {
          const { id: cartId } = await cart([{ unit_price: 77.7, quantity: 1 }]);
          const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
          await control(sandbox.url, "faults", { webhook_drop_rate: 1 });
          await control(sandbox.url, `charges/${session.data.charge_id}/pay`, {});
          await sandbox.webhooksIdle();
          const soon = new Date(Date.now() + 20_000);
          await reconcilePass(container(), soon);
          await reconcilePass(container(), soon);
          await expectPaidInFull(cartId);
          const backedOff = await knex("pix_checkout_charge")
            .where("id", "like", "pxch_poison_%")
            .where("check_failures", 1);
          expect(backedOff).toHaveLength(150);

          // Keep failing until the cap: the rows leave automatic checks, flagged for the merchant.
          let now = soon;
          for (let pass = 0; pass < 8 * 2; pass += 1) {
            now = new Date(now.getTime() + 2 * 60 * 60_000);
            await reconcilePass(container(), now);
          }
          const rows = await knex("pix_checkout_charge").where("id", "like", "pxch_poison_%");
          expect(rows.every((r: Json) => r.flagged && r.check_failures === 8)).toBe(true);
          expect(rows[0]).toMatchObject({
            flag_code: "check_failed",
            flag_detail: expect.objectContaining({ attempts: 8 }),
          });
          const report = await reconcilePass(
            container(),
            new Date(now.getTime() + 24 * 60 * 60_000),
          );
          expect(report.errors).toBe(0);
        } finally {
          await knex("pix_checkout_charge").where("id", "like", "pxch_poison_%").delete();
        }
      });

      it("120 deliveries that can never be processed are finished as failed and do not hold back a good one", async () => {
        const knex = db(container());
        const longAgo = new Date(Date.now() - 60 * 60_000);
        // A provider registration renamed in medusa-config, and a body no parser reads: stored
        // deliveries no real request can make on demand, so they are written by hand.
        const poison = Array.from({ length: 120 }, (_, i) => ({
          id: `pxwh_poison_${i}`,
          provider_key: i % 2 === 0 ? "renamed" : "a",
          event: "charge.paid",
          charge_id: null,
          body: JSON.stringify(i % 2 === 0 ? { event: "charge.paid", data: {} } : "{not json"),
          outcome: "received",
          attempts: 0,
          created_at: new Date(longAgo.getTime() + i),
          updated_at: longAgo,
        }));
        await knex("pix_checkout_webhook_delivery").insert(poison);
        try {
          const { id: cartId } = await cart([{ unit_price: 66.6, quantity: 1 }]);
          const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
          const chargeId = session.data.charge_id as string;
          await control(sandbox.url, "faults", { webhook_drop_rate: 1 });
          await control(sandbox.url, `charges/${chargeId}/pay`, {});
          await sandbox.webhooksIdle();
          // The process that stored this delivery died before processing it.
          await knex("pix_checkout_webhook_delivery").insert({
            id: "pxwh_good_one",
            provider_key: "a",
            event: "charge.paid",
            charge_id: chargeId,
            body: JSON.stringify({
              event: "charge.paid",
              data: { uuid: chargeId, amount: session.data.amount_cents, status: "paid" },
            }),
            outcome: "received",
            attempts: 0,
            created_at: new Date(longAgo.getTime() + 1000),
            updated_at: longAgo,
          });
          // Only the deliveries pass runs: the charge's own check is not due yet.
          await knex("pix_checkout_charge")
            .where({ charge_id: chargeId })
            .update({ next_check_at: new Date(Date.now() + 60 * 60_000) });
          await reconcilePass(container());
          await reconcilePass(container());
          const good = await knex("pix_checkout_webhook_delivery")
            .where({ id: "pxwh_good_one" })
            .first();
          expect(good.outcome).toBe("processed");
          await expectPaidInFull(cartId);
          const bad = await knex("pix_checkout_webhook_delivery").where(
            "id",
            "like",
            "pxwh_poison_%",
          );
          expect(bad.every((d: Json) => d.outcome === "failed" && d.attempts === 1)).toBe(true);
        } finally {
          await knex("pix_checkout_webhook_delivery").where("id", "like", "pxwh_poison_%").delete();
        }
      });
    });

    it("sends a returning shopper their Pix code through the Notification Module once their page shows it, then a word when it is paid", async () => {
      // Its own mailbox: one address gets one code message a window, and other tests use ana's.
      const email = `ana.${Date.now()}@example.com`;
      // A mailbox that paid an order here before: one that proved itself.
      await paidOrderFrom(container(), shop, store, sandbox.url, email);
      const { id: cartId } = await cart([{ unit_price: 61.9, quantity: 1 }]);
      expect((await shop.call("post", `/store/carts/${cartId}`, { email })).status).toBe(200);
      const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
      const chargeId = session.data.charge_id as string;
      // The shopper's page shows the code (the element tells the store): the shopper is there.
      expect((await shop.shown(session.id)).status).toBe(204);
      const notifications = container().resolve<INotificationModuleService>(Modules.NOTIFICATION);
      const sentFor = (template: string) =>
        waitFor(async () => {
          const list = await notifications.listNotifications({ resource_id: chargeId });
          return list.find((n) => n.template === template);
        }, `${template} to be sent`);
      const code = await sentFor("pix-checkout-code");
      expect(code.to).toBe(email);
      expect(code.channel).toBe("email");
      const data = code.data as Json;
      expect(data.pix.copy_paste).toBe(session.data.pix.copy_paste);
      expect(await decodeQrPng(data.pix.qr_png_base64)).toBe(session.data.pix.copy_paste);
      expect(data.amount_cents).toBe(session.data.amount_cents);
      const cents = String(session.data.amount_cents);
      expect(data.amount).toMatch(new RegExp(`^R\\$\\s${cents.slice(0, -2)},${cents.slice(-2)}$`));
      expect(data.expires_at).toBe(session.data.expires_at);
      expect(data.payment_page_url).toBe(`https://loja.example.com/pagar/${session.id}`);
      expect(JSON.stringify(data)).not.toContain(API_KEY);

      await control(sandbox.url, `charges/${chargeId}/pay`, {});
      const paid = await sentFor("pix-checkout-paid");
      const order = await orderOfCart(container(), cartId);
      expect((paid.data as Json).order.id).toBe(order?.id);
      expect((paid.data as Json).order.display_id).toEqual(expect.any(Number));
      // A redelivered event does not mail the shopper twice.
      expect(
        (await notifications.listNotifications({ resource_id: chargeId })).filter(
          (n) => n.template === "pix-checkout-code",
        ),
      ).toHaveLength(1);
    });

    it("the paid message names the part of an overpaid code's money that goes back", async () => {
      const { id: cartId } = await cart([{ unit_price: 20, quantity: 1 }]);
      const email = `bia.${Date.now()}@example.com`;
      expect((await shop.call("post", `/store/carts/${cartId}`, { email })).status).toBe(200);
      const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
      const chargeId = session.data.charge_id as string;
      const notifications = container().resolve<INotificationModuleService>(Modules.NOTIFICATION);
      // R$ 5,00 more than the code asks.
      const asked = Number(session.data.amount_cents);
      await control(sandbox.url, `transactions/${chargeId}/amount`, { amount: asked + 500 });
      await control(sandbox.url, `charges/${chargeId}/pay`, {});
      const paid = await waitFor(async () => {
        const sent = await notifications.listNotifications({ resource_id: chargeId });
        return sent.find((n) => n.template === "pix-checkout-paid");
      }, "the paid message");
      expect((paid.data as Json).refund).toMatchObject({ amount_cents: 500, reason: "overpaid" });
      expect((paid.data as Json).refund.amount).toMatch(/^R\$\s5,00$/);
    });

    it("a charge.expired for a charge the API reports pending is recorded as forged and changes nothing", async () => {
      const { id: cartId } = await cart([{ unit_price: 26.5, quantity: 1 }]);
      const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
      const chargeId = session.data.charge_id as string;
      const answer = await (api as unknown as Api).request({
        method: "post",
        url: `/hooks/pix-checkout/a?token=${WEBHOOK_SECRET}`,
        data: {
          event: "charge.expired",
          data: { uuid: chargeId, amount: session.data.amount_cents, status: "expired" },
        },
        validateStatus: () => true,
      });
      expect(answer.status).toBe(200);
      const delivery = await waitFor(async () => {
        const row = await db(container())("pix_checkout_webhook_delivery")
          .where({ id: answer.data.id })
          .first();
        return row?.outcome !== "received" && row;
      }, "the delivery to be processed");
      expect(delivery.outcome).toBe("forged");
      expect((await chargeRow(chargeId)).status).toBe("pending");
    });

    it("a refresh after a capture Medusa could not make still tells the shopper the payment is paid", async () => {
      const { id: cartId } = await cart([{ unit_price: 33.3, quantity: 1 }]);
      const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
      // Medusa cannot record captures for a moment (its database refuses them), so the capture
      // that follows the payment fails and waits for reconciliation.
      const knex = db(container());
      await knex.raw(
        `create or replace function pix_test_no_capture() returns trigger as $$ begin raise exception 'injected: captures refused'; end $$ language plpgsql`,
      );
      await knex.raw(
        `create trigger pix_test_no_capture before insert on capture for each row execute function pix_test_no_capture()`,
      );
      try {
        await control(sandbox.url, "faults", { webhook_drop_rate: 1 });
        await control(sandbox.url, `charges/${session.data.charge_id}/pay`, {});
        await sandbox.webhooksIdle();
        const refreshed = await shop.call(
          "post",
          `/store/pix-checkout/sessions/${session.id}/refresh`,
        );
        expect(refreshed.status).toBe(200);
        expect(refreshed.data.status).toBe("paid");
        // The answer came at the ledger's commit; the capture ran after it, failed, and waits
        // for reconciliation on the charge's timeline.
        await waitFor(
          () =>
            knex("pix_checkout_charge_event")
              .where({ charge_id: session.data.charge_id, kind: "capture_failed" })
              .first(),
          "the capture's failure on the timeline",
        );
        expect(
          Number(
            (await knex("pix_checkout_charge").where({ charge_id: session.data.charge_id }).first())
              .captured_cents,
          ),
        ).toBe(0);
      } finally {
        await knex.raw(`drop trigger if exists pix_test_no_capture on capture`);
        await knex.raw(`drop function if exists pix_test_no_capture()`);
      }
    });
  },
});
