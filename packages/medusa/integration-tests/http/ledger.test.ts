import path from "node:path";
import { medusaIntegrationTestRunner } from "@medusajs/test-utils";
import type { Sandbox } from "@pix-checkout/sandbox" with { "resolution-mode": "import" };
import type {
  IEventBusModuleService,
  IOrderModuleService,
  IPaymentModuleService,
  MedusaContainer,
} from "@medusajs/framework/types";
import { Modules } from "@medusajs/framework/utils";
import { getOrderDetailWorkflow } from "@medusajs/medusa/core-flows";
import { startAppSandboxes } from "../helpers/sandboxes";
import {
  createCart,
  createCartWithVariant,
  createStockedProduct,
  createStoreFixture,
  type StockedProduct,
  type StoreFixture,
} from "../helpers/store-fixture";
import {
  BOLETO_PAYER,
  capturedCentsOfSession,
  control,
  db,
  orderOfCart,
  storefront,
  type Api,
  type Json,
} from "../helpers/checkout";
import { waitFor } from "../helpers/wait-for";
import { reconcilePass } from "../helpers/reconcile-pass";
import { adminLogin } from "../helpers/admin-login";
import { withFailure as injectFailure } from "../helpers/injected-failure";

// Every real the service received sits in exactly one part of the ledger: captured for an
// order, owed back, returned, or held. Each test is one way money reached the store, told
// through the store API, the admin API and the sandbox, with Medusa's own system provider
// (`pp_system_default`) on the region beside Pix and boleto: it stands in for the card, or
// the payment on delivery, every Brazilian store also offers.

const API_KEY = "sk_live_ledger_5ecret";
const WEBHOOK_SECRET = "whsec-test-a-0123456789";
const OTHER = "pp_system_default";

let sandbox: Sandbox;
let sandboxB: Sandbox;

beforeAll(async () => {
  ({ a: sandbox, b: sandboxB } = await startAppSandboxes(API_KEY, {
    a: { webhookRetryDelaysMs: [300] },
    b: { webhookRetryDelaysMs: [300] },
  }));
});

afterAll(async () => {
  await sandbox?.close();
  await sandboxB?.close();
});

medusaIntegrationTestRunner({
  cwd: path.join(__dirname, "..", "app"),
  testSuite: ({ api, getContainer }) => {
    let store: StoreFixture;
    let shop: ReturnType<typeof storefront>;
    let adminHeaders: Record<string, string>;
    let product: StockedProduct;
    const container = (): MedusaContainer => getContainer();
    const http = api as unknown as Api;

    beforeAll(async () => {
      store = await createStoreFixture(container(), [OTHER]);
      shop = storefront(http, store);
      const base = http.defaults.baseURL;
      await control(sandbox.url, "webhook-urls", {
        url: `${base}/hooks/pix-checkout/a?token=${WEBHOOK_SECRET}`,
      });
      await control(sandboxB.url, "webhook-urls", { url: `${base}/hooks/pix-checkout/b` });
      adminHeaders = await adminLogin(container(), "lojista@example.com");
      product = await createStockedProduct(container(), store, 50);
    });

    beforeEach(async () => {
      await control(sandbox.url, "faults", {});
    });

    const admin = (method: string, url: string, data?: unknown) =>
      http.request({ method, url, data, headers: adminHeaders, validateStatus: () => true });
    const chargeRow = (chargeId: string) =>
      db(container())("pix_checkout_charge").where({ charge_id: chargeId }).first();
    const rowWhere = (chargeId: string, what: string, test: (row: Json) => boolean) =>
      waitFor(async () => {
        const row = await chargeRow(chargeId);
        return row && test(row) && row;
      }, what);
    const lastSession = (response: { status: number; data: Json }) => {
      expect(response.status, JSON.stringify(response.data)).toBe(200);
      const sessions = response.data.payment_collection.payment_sessions as Json[];
      return sessions[sessions.length - 1] as { id: string; data: Json; provider_id: string };
    };
    const pay = (chargeId: string, body: unknown = {}) =>
      control(sandbox.url, `charges/${chargeId}/pay`, body);
    /** The merchant's "Needs attention" list, by charge id. */
    const attentionList = async () => {
      const listed = await admin("get", "/admin/pix-checkout/charges?needs_attention=true");
      expect(listed.status).toBe(200);
      return new Map<string, Json>(listed.data.charges.map((c: Json) => [c.charge_id, c]));
    };
    /** The charge as the admin API shows it. */
    const adminChargeOf = async (chargeId: string) => {
      const listed = await admin("get", "/admin/pix-checkout/charges?limit=200");
      return listed.data.charges.find((c: Json) => c.charge_id === chargeId) as Json;
    };
    /** Medusa's payments of a collection, with their captures and refunds. */
    const paymentsOf = async (collectionId: string) => {
      const payments = container().resolve<IPaymentModuleService>(Modules.PAYMENT);
      // The module filters by any column of the payment; its filter type names fewer.
      return payments.listPayments(
        { payment_collection_id: collectionId } as Parameters<
          IPaymentModuleService["listPayments"]
        >[0],
        { relations: ["captures", "refunds"] },
      );
    };
    const cents = (value: unknown) => Math.round(Number(value) * 100);
    const orderDetail = async (orderId: string) => {
      const { result } = await getOrderDetailWorkflow(container()).run({
        input: { order_id: orderId, fields: ["id", "total", "summary.*", "payment_status"] },
      });
      return result as unknown as {
        total: number;
        payment_status: string;
        summary: { paid_total: number; pending_difference: number };
      };
    };
    /** Waits until no webhook is in flight and one reconciliation pass has run. */
    const settled = async () => {
      await sandbox.webhooksIdle();
      await reconcilePass(container());
    };

    const methods = [
      { name: "Pix", provider: "pp_pix_a", data: {} },
      { name: "boleto", provider: "pp_boleto_a", data: BOLETO_PAYER },
    ];

    describe.each(methods)("an old $name code and another provider", (method) => {
      /** A cart with a code of this method, then the shopper switches to the other provider. */
      const switchedCart = async (reais: number) => {
        const cartId = await createCart(container(), store, reais);
        const ours = lastSession(await shop.initiate(cartId, method.provider, method.data));
        const chargeId = ours.data.charge_id as string;
        expect(chargeId).toBeTruthy();
        const other = lastSession(await shop.initiate(cartId, OTHER));
        expect(other.provider_id).toBe(OTHER);
        return { cartId, chargeId, collectionId: ours.data.payment_collection_id as string };
      };

      it("paid after the shopper completed with the other provider: the other payment is not captured, and the code's money is owed back and on the list", async () => {
        const { cartId, chargeId } = await switchedCart(52.9);
        const completed = await shop.complete(cartId);
        expect(completed.data.type, JSON.stringify(completed.data)).toBe("order");
        const order = (await orderOfCart(container(), cartId))!;
        const collectionId = order.payment_collections[0]!.id;

        await pay(chargeId);
        await rowWhere(chargeId, "the old code recorded paid", (r) => r.status === "paid");
        await settled();

        const payments = await paymentsOf(collectionId);
        const others = payments.filter((p) => p.provider_id === OTHER);
        expect(others).toHaveLength(1);
        expect(others[0]!.captures ?? []).toHaveLength(0);
        expect(payments.filter((p) => p.provider_id !== OTHER)).toHaveLength(0);
        expect((await adminChargeOf(chargeId)).money).toMatchObject({
          received: 5290,
          owed: 5290,
          owed_reason: "paid_elsewhere",
          captured: 0,
          held: 0,
        });
        expect((await attentionList()).get(chargeId)).toMatchObject({ attention: "refund_due" });
        // The order's page tells the shopper: the order is paid, the code's money comes back.
        const told = await shop.call("get", `/store/pix-checkout/orders/${order.id}`);
        expect(told.status).toBe(200);
        expect(told.data).toEqual({
          order_id: order.id,
          display_id: expect.any(Number),
          payment: expect.stringMatching(/^(paid|awaiting)$/),
          earlier_payment: { amount: 5290, order_paid: true },
        });
      });

      it("paid before the shopper completes with the other provider: nothing of the other provider is captured, and the code's money is owed back and on the list", async () => {
        const { cartId, chargeId, collectionId } = await switchedCart(47.5);
        await pay(chargeId);
        await rowWhere(chargeId, "the old code recorded paid", (r) => r.status === "paid");
        await settled();

        const completed = await shop.complete(cartId);
        expect(completed.data.type, JSON.stringify(completed.data)).toBe("order");
        await settled();

        const payments = await paymentsOf(collectionId);
        expect(payments.map((p) => p.provider_id)).toEqual([OTHER]);
        expect(payments[0]!.captures ?? []).toHaveLength(0);
        expect((await adminChargeOf(chargeId)).money).toMatchObject({
          received: 4750,
          owed: 4750,
          captured: 0,
        });
        expect((await attentionList()).get(chargeId)).toMatchObject({ attention: "refund_due" });
      });
    });

    describe("the capture door", () => {
      it("an underpaid Pix the merchant accepts: Medusa's payment is what arrived, fully captured, the order owes the rest, and no capture of money that never arrived is possible", async () => {
        const cartId = await createCart(container(), store, 100);
        const session = lastSession(await shop.initiate(cartId, "pp_pix_a"));
        const chargeId = session.data.charge_id as string;
        await control(sandbox.url, `transactions/${chargeId}/amount`, { amount: 9_000 });
        await pay(chargeId);
        await rowWhere(chargeId, "the charge held", (r) => r.status === "paid");
        await settled();
        const completed = await shop.complete(cartId);
        expect(completed.data.type).toBe("order");
        const order = (await orderOfCart(container(), cartId))!;

        const accepted = await admin("post", `/admin/pix-checkout/charges/${chargeId}/accept`, {
          note: "cliente paga o resto na entrega",
        });
        expect(accepted.status, JSON.stringify(accepted.data)).toBe(200);
        expect(accepted.data.charge.money).toMatchObject({ captured: 9_000, held: 0, owed: 0 });

        const [payment] = (await paymentsOf(order.payment_collections[0]!.id)).filter(
          (p) => p.provider_id === "pp_pix_a",
        );
        // What arrived, captured whole: Medusa offers no Capture for the rest.
        expect(cents(payment!.amount)).toBe(9_000);
        expect(payment!.captured_at).toBeTruthy();
        const detail = await orderDetail(order.id);
        expect(cents(detail.summary.paid_total)).toBe(9_000);
        expect(cents(detail.summary.pending_difference)).toBe(1_000);

        // Medusa's Capture on it (the API the button calls) finds nothing left to capture.
        await admin("post", `/admin/payments/${payment!.id}/capture`, { amount: 10 });
        expect(await capturedCentsOfSession(container(), session.id)).toBe(9_000);
        const [after] = (await paymentsOf(order.payment_collections[0]!.id)).filter(
          (p) => p.provider_id === "pp_pix_a",
        );
        expect(after!.captures).toHaveLength(1);

        // A refund the merchant records on it reaches Medusa.
        const refund = await admin("post", `/admin/pix-checkout/charges/${chargeId}/refunds`, {
          amount: 1_500,
          note: "devolvido pelo painel",
        });
        expect(refund.status, JSON.stringify(refund.data)).toBe(200);
        expect(refund.data.recorded_in_medusa_cents).toBe(1_500);
        expect(refund.data.charge.money).toMatchObject({ captured: 7_500, returned: 1_500 });
      });

      it("Medusa's Capture on a plugin payment that settlement did not start is refused; settlement's own capture goes through, once", async () => {
        const cartId = await createCart(container(), store, 73);
        const session = lastSession(await shop.initiate(cartId, "pp_pix_a"));
        const chargeId = session.data.charge_id as string;
        await control(sandbox.url, "faults", { webhook_drop_rate: 1 });
        await pay(chargeId);
        await sandbox.webhooksIdle();
        // Another door holds the right to capture: cart completion authorizes, not captures.
        await db(container())("pix_checkout_charge")
          .where({ charge_id: chargeId })
          .update({
            capture_claimed_at: db(container()).fn.now(),
            capture_claimed_by: "webhook-x",
            capture_claim_door: "settlement",
          });
        const completed = await shop.complete(cartId);
        expect(completed.data.type).toBe("order");
        const order = (await orderOfCart(container(), cartId))!;
        const [payment] = await paymentsOf(order.payment_collections[0]!.id);
        expect(payment!.captured_at).toBeNull();

        // The admin's Capture button (Medusa's own route) does not go through settlement.
        const capture = await admin("post", `/admin/payments/${payment!.id}/capture`, {});
        expect(capture.status).toBeGreaterThanOrEqual(400);
        expect(capture.status).toBeLessThan(500);
        expect(JSON.stringify(capture.data)).toContain("Pix Checkout");
        expect(await capturedCentsOfSession(container(), session.id)).toBe(0);

        await db(container())("pix_checkout_charge")
          .where({ charge_id: chargeId })
          .update({ capture_claimed_at: db(container()).raw("now() - interval '3 minutes'") });
        await reconcilePass(container());
        await waitFor(
          async () => (await capturedCentsOfSession(container(), session.id)) === 7_300,
          "settlement's capture",
        );
        expect((await adminChargeOf(chargeId)).money).toMatchObject({ captured: 7_300, held: 0 });
      });
    });

    describe("money is never only a note", () => {
      it("an overpayment's excess is owed back and stays on the list until it is returned; Resolve cannot remove it", async () => {
        const cartId = await createCart(container(), store, 20);
        const session = lastSession(await shop.initiate(cartId, "pp_pix_a"));
        const chargeId = session.data.charge_id as string;
        await control(sandbox.url, `transactions/${chargeId}/amount`, { amount: 2_500 });
        await pay(chargeId);
        await rowWhere(chargeId, "the charge captured", (r) => r.captured_at !== null);
        await settled();
        expect(await capturedCentsOfSession(container(), session.id)).toBe(2_000);
        expect((await adminChargeOf(chargeId)).money).toMatchObject({
          received: 2_500,
          captured: 2_000,
          owed: 500,
          owed_reason: "overpaid",
        });
        expect((await attentionList()).get(chargeId)).toMatchObject({ attention: "refund_due" });

        const resolved = await admin("post", `/admin/pix-checkout/charges/${chargeId}/resolve`, {
          note: "visto",
        });
        expect(resolved.status).toBe(409);
        expect((await attentionList()).get(chargeId)).toMatchObject({ attention: "refund_due" });

        const refund = await admin("post", `/admin/pix-checkout/charges/${chargeId}/refunds`, {
          amount: 500,
          note: "troco devolvido",
        });
        expect(refund.status, JSON.stringify(refund.data)).toBe(200);
        // The excess never was Medusa's: no refund of the order's payment is recorded.
        expect(refund.data.recorded_in_medusa_cents).toBe(0);
        expect(refund.data.charge.money).toMatchObject({
          captured: 2_000,
          owed: 0,
          returned: 500,
        });
        expect((await attentionList()).has(chargeId)).toBe(false);
      });

      it("a boleto paid after its order was canceled is owed back, not captured, and on the list", async () => {
        const cartId = await createCart(container(), store, 61);
        const session = lastSession(await shop.initiate(cartId, "pp_boleto_a", BOLETO_PAYER));
        const chargeId = session.data.charge_id as string;
        const completed = await shop.complete(cartId);
        expect(completed.data.type).toBe("order");
        const orderId = completed.data.order.id as string;
        const canceled = await admin("post", `/admin/orders/${orderId}/cancel`);
        expect(canceled.status, JSON.stringify(canceled.data)).toBe(200);

        await pay(chargeId);
        await rowWhere(chargeId, "the boleto recorded paid", (r) => r.status === "paid");
        await settled();
        expect(await capturedCentsOfSession(container(), session.id)).toBe(0);
        expect((await adminChargeOf(chargeId)).money).toMatchObject({
          owed: 6_100,
          owed_reason: "paid_after_order_canceled",
          captured: 0,
        });
        expect((await attentionList()).get(chargeId)).toMatchObject({ attention: "refund_due" });
        const resolved = await admin("post", `/admin/pix-checkout/charges/${chargeId}/resolve`, {
          note: "visto",
        });
        expect(resolved.status).toBe(409);
      });
    });

    describe("the merchant's figures are read from the ledger", () => {
      it("the overview's income is what was captured for orders; owed back, returned and held stand apart, and the balance card and the transactions list say the same", async () => {
        // 1. R$ 40,00 paid exactly: captured.
        const exactCart = await createCart(container(), store, 40);
        const exact = lastSession(await shop.initiate(exactCart, "pp_pix_a"));
        await pay(exact.data.charge_id);
        // 2. A code for R$ 35,00; the cart doubles; the old code is paid: owed, then returned.
        const changedCart = await createCartWithVariant(container(), store, product.variantId);
        const old = lastSession(await shop.initiate(changedCart, "pp_pix_a"));
        const line = (await shop.cart(changedCart)).data.cart.items[0];
        await shop.call("post", `/store/carts/${changedCart}/line-items/${line.id}`, {
          quantity: 2,
        });
        lastSession(await shop.initiate(changedCart, "pp_pix_a"));
        await pay(old.data.charge_id);
        // 3. R$ 50,00, R$ 45,00 arrived: held.
        const shortCart = await createCart(container(), store, 50);
        const short = lastSession(await shop.initiate(shortCart, "pp_pix_a"));
        await control(sandbox.url, `transactions/${short.data.charge_id}/amount`, {
          amount: 4_500,
        });
        await pay(short.data.charge_id);
        // 4. R$ 20,00, R$ 25,00 arrived: R$ 20,00 captured, R$ 5,00 owed.
        const overCart = await createCart(container(), store, 20);
        const over = lastSession(await shop.initiate(overCart, "pp_pix_a"));
        await control(sandbox.url, `transactions/${over.data.charge_id}/amount`, {
          amount: 2_500,
        });
        await pay(over.data.charge_id);
        // 5. A code that expires unpaid.
        const expiredCart = await createCart(container(), store, 15);
        const expired = lastSession(await shop.initiate(expiredCart, "pp_pix_a"));
        await control(sandbox.url, `charges/${expired.data.charge_id}/expire`, {});

        for (const id of [exact, old, short, over].map((s) => s.data.charge_id)) {
          await rowWhere(id, "paid", (r) => r.status === "paid");
        }
        await settled();
        // A capture in flight holds its money until Medusa has it: the figures are read once
        // the paid-in-full codes' captures have landed in the ledger.
        for (const id of [exact, over].map((s) => s.data.charge_id)) {
          await rowWhere(id, "captured", (r) => Number(r.held_cents) === 0);
        }
        const returned = await admin(
          "post",
          `/admin/pix-checkout/charges/${old.data.charge_id}/refunds`,
          { amount: 3_500, note: "devolvido pelo painel" },
        );
        expect(returned.status, JSON.stringify(returned.data)).toBe(200);

        const overview = (await admin("get", "/admin/pix-checkout/overview")).data;
        expect(overview.periods.today.pix).toMatchObject({
          income_cents: 4_000 + 2_000,
          owed_cents: 500,
          held_cents: 4_500,
          returned_cents: 3_500,
        });
        expect(overview.days.at(-1).pix_cents).toBe(6_000);

        const balance = (await admin("get", "/admin/pix-checkout/balance")).data;
        expect(balance.ledger).toMatchObject({
          captured: 6_000,
          owed: 500,
          held: 4_500,
          returned: 3_500,
        });

        const transactions = (await admin("get", "/admin/pix-checkout/transactions?limit=100")).data
          .transactions as Json[];
        const tx = (id: string) => transactions.find((t) => t.id === id);
        expect(tx(old.data.charge_id)).toMatchObject({
          status: "paid",
          money: { captured: 0, owed: 0, returned: 3_500 },
        });
        expect(tx(over.data.charge_id)).toMatchObject({
          money: { captured: 2_000, owed: 500 },
          order: expect.objectContaining({ id: expect.any(String) }),
        });
        expect(tx(expired.data.charge_id)).toMatchObject({ status: "expired", net_amount: null });
      });
    });

    describe("the shopper is told the truth", () => {
      it("a shopper who paid an older code of the cart hears it was received and will be returned, before and after the cart is paid", async () => {
        const cartId = await createCartWithVariant(container(), store, product.variantId);
        const old = lastSession(await shop.initiate(cartId, "pp_pix_a"));
        const line = (await shop.cart(cartId)).data.cart.items[0];
        await shop.call("post", `/store/carts/${cartId}/line-items/${line.id}`, { quantity: 2 });
        const current = lastSession(await shop.initiate(cartId, "pp_pix_a"));
        await pay(old.data.charge_id);
        await rowWhere(old.data.charge_id, "the old code owed", (r) => r.status === "paid");
        await settled();

        // "I already paid": the shopper pressed it on the code on screen.
        const refreshed = await shop.call(
          "post",
          `/store/pix-checkout/sessions/${current.id}/refresh`,
        );
        expect(refreshed.status).toBe(200);
        expect(refreshed.data).toMatchObject({
          status: "pending",
          earlier_payment: { amount: 3_500, order_paid: false },
        });

        await pay(current.data.charge_id);
        await rowWhere(current.data.charge_id, "captured", (r) => r.captured_at !== null);
        const view = await shop.call("get", `/store/pix-checkout/sessions/${current.id}`);
        expect(view.data).toMatchObject({
          status: "paid",
          earlier_payment: { amount: 3_500, order_paid: true },
        });

        // The order's page says the same, and still does once the merchant returned it.
        const order = await waitFor(() => orderOfCart(container(), cartId), "its order");
        const orderPage = () => shop.call("get", `/store/pix-checkout/orders/${order.id}`);
        expect((await orderPage()).data).toEqual({
          order_id: order.id,
          display_id: expect.any(Number),
          payment: expect.stringMatching(/^(paid|awaiting)$/),
          earlier_payment: { amount: 3_500, order_paid: true },
        });
        const returned = await admin(
          "post",
          `/admin/pix-checkout/charges/${old.data.charge_id}/refunds`,
          { amount: 3_500, note: "devolvido pelo painel do serviço" },
        );
        expect(returned.status, JSON.stringify(returned.data)).toBe(200);
        expect((await orderPage()).data.earlier_payment).toEqual({
          amount: 3_500,
          order_paid: true,
        });
        // An order with nothing of the kind, an unknown order and a made-up id.
        const plainCart = await createCartWithVariant(container(), store, product.variantId);
        const plain = lastSession(await shop.initiate(plainCart, "pp_pix_a"));
        await pay(plain.data.charge_id);
        await rowWhere(plain.data.charge_id, "captured", (r) => r.captured_at !== null);
        const plainOrder = await waitFor(() => orderOfCart(container(), plainCart), "its order");
        expect(
          (await shop.call("get", `/store/pix-checkout/orders/${plainOrder.id}`)).data,
        ).toEqual({
          order_id: plainOrder.id,
          display_id: expect.any(Number),
          payment: expect.stringMatching(/^(paid|awaiting)$/),
          earlier_payment: null,
        });
        const unknown = await shop.call("get", "/store/pix-checkout/orders/order_01UNKNOWN");
        expect([unknown.status, unknown.data.code]).toEqual([404, "order_not_found"]);
        const invalid = await shop.call("get", "/store/pix-checkout/orders/cart_x'--");
        expect([invalid.status, invalid.data.code]).toEqual([400, "invalid_order_id"]);
      });
    });

    describe("what follows a capture cannot be lost", () => {
      const withFailure = <T>(name: string, sql: string, work: () => Promise<T>) =>
        injectFailure(db(container()), name, sql, work);
      /** Counts the `pix_checkout.charge.captured` events of a charge from now on. */
      const countCaptured = (chargeId: string) => {
        const bus = container().resolve<IEventBusModuleService>(Modules.EVENT_BUS);
        let count = 0;
        bus.subscribe("pix_checkout.charge.captured", async (event: Json) => {
          if (event.data?.charge_id === chargeId) count += 1;
        });
        return () => count;
      };

      it("a capture whose process died before its follow-ups is announced and put on the order by the next reconciliation pass, once", async () => {
        const cartId = await createCart(container(), store, 44);
        const session = lastSession(await shop.initiate(cartId, "pp_pix_a"));
        const chargeId = session.data.charge_id as string;
        const announced = countCaptured(chargeId);
        // Medusa captures; the process then dies before it writes anything more of its own.
        await withFailure(
          "pix_die_after_capture",
          `create trigger pix_die_after_capture before insert on pix_checkout_charge_event for each row
             when (new.kind = 'captured') execute function $fn`,
          async () => {
            await pay(chargeId);
            await waitFor(
              async () => (await capturedCentsOfSession(container(), session.id)) === 4_400,
              "Medusa's capture",
            );
            await sandbox.webhooksIdle();
          },
        );
        await reconcilePass(container());
        await reconcilePass(container());
        await waitFor(async () => announced() >= 1, "the captured event");
        const order = (await orderOfCart(container(), cartId))!;
        const detail = await orderDetail(order.id);
        expect(cents(detail.summary.pending_difference)).toBe(0);
        await reconcilePass(container());
        expect(announced()).toBe(1);
        expect((await adminChargeOf(chargeId)).money).toMatchObject({ captured: 4_400 });
      });

      it("a capture on its order twice (cart completion's copy landing after the plugin's, as a Redis failover that loses the cart's lock allows) is on it once after the next pass", async () => {
        const cartId = await createCart(container(), store, 52);
        const session = lastSession(await shop.initiate(cartId, "pp_pix_a"));
        const chargeId = session.data.charge_id as string;
        expect((await shop.complete(cartId)).data.type).toBe("order");
        const order = (await orderOfCart(container(), cartId))!;
        await pay(chargeId);
        await waitFor(
          async () => cents((await orderDetail(order.id)).summary.pending_difference) === 0,
          "the order paid",
        );
        const orders = container().resolve<IOrderModuleService>(Modules.ORDER);
        const captureLines = () =>
          orders.listOrderTransactions({ order_id: order.id, reference: "capture" });
        const followUp = db(container())("pix_checkout_outbox").where({
          charge_id: chargeId,
          kind: "order_transactions",
        });
        await waitFor(
          async () => (await followUp.clone().first())?.outcome === "already on the order",
          "the capture's follow-up",
        );
        // The moment a lost lock opens: the follow-up reads the order before completion has
        // written its capture line (Medusa's line is taken off, the follow-up due again).
        const [medusas] = await captureLines();
        await orders.softDeleteOrderTransactions([medusas!.id]);
        await followUp.clone().update({ done_at: null, due_at: db(container()).fn.now() });
        await reconcilePass(container());
        // The pass delivers it, or a door still following the capture took it first (a follow-up
        // is leased by whoever takes it): either way it is on the order once it has looked.
        await waitFor(
          async () =>
            (await followUp.clone().first())?.last_error ===
            "recorded 1; looks once more for a capture recorded twice",
          "the follow-up's first look",
        );
        const [plugins] = await captureLines();
        expect(plugins?.reference_id).toBe(medusas!.reference_id);
        expect(await followUp.clone().first()).toMatchObject({
          done_at: null,
          last_error: "recorded 1; looks once more for a capture recorded twice",
        });
        // Then completion writes its line, the same capture again: the whole total paid twice.
        await orders.addOrderTransactions([
          {
            order_id: order.id,
            amount: medusas!.amount as number,
            currency_code: medusas!.currency_code,
            reference: "capture",
            reference_id: medusas!.reference_id!,
          },
        ]);
        expect(cents((await orderDetail(order.id)).summary.pending_difference)).toBe(-5_200);

        // The follow-up's second look, a pass later.
        await reconcilePass(container(), new Date(Date.now() + 2 * 60_000));
        const detail = await orderDetail(order.id);
        expect(cents(detail.summary.pending_difference)).toBe(0);
        expect(cents(detail.summary.paid_total)).toBe(5_200);
        expect((await captureLines()).map((t) => t.id)).toEqual([plugins!.id]);
        expect(await followUp.clone().first()).toMatchObject({
          outcome: "took off 1 capture recorded twice",
        });
        expect((await adminChargeOf(chargeId)).money).toMatchObject({ captured: 5_200 });
      });

      it("captured money of an order canceled while nobody heard of it is found by reconciliation and owed back", async () => {
        const cartId = await createCart(container(), store, 38);
        const session = lastSession(await shop.initiate(cartId, "pp_pix_a"));
        const chargeId = session.data.charge_id as string;
        await pay(chargeId);
        await rowWhere(chargeId, "captured", (r) => r.captured_at !== null);
        const order = (await orderOfCart(container(), cartId))!;
        // The order is canceled and its `order.canceled` never reaches the plugin.
        const orders = container().resolve<IOrderModuleService>(Modules.ORDER);
        await orders.cancel(order.id);
        expect((await adminChargeOf(chargeId)).money).toMatchObject({ captured: 3_800 });

        await reconcilePass(container());
        expect((await adminChargeOf(chargeId)).money).toMatchObject({
          captured: 0,
          owed: 3_800,
          owed_reason: "order_canceled",
        });
        expect((await attentionList()).get(chargeId)).toMatchObject({ attention: "refund_due" });
      });
    });
  },
});
