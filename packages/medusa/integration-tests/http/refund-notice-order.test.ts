import path from "node:path";
import { medusaIntegrationTestRunner } from "@medusajs/test-utils";
import type { Sandbox } from "@pix-checkout/sandbox" with { "resolution-mode": "import" };
import type { INotificationModuleService, MedusaContainer } from "@medusajs/framework/types";
import { Modules } from "@medusajs/framework/utils";
import { startAppSandboxes } from "../helpers/sandboxes";
import {
  createStoreFixture,
  createUncompletableCart,
  type StoreFixture,
} from "../helpers/store-fixture";
import {
  BOLETO_PAYER,
  control,
  db,
  orderOfCart,
  storefront,
  type Api,
  type Json,
} from "../helpers/checkout";
import { waitFor } from "../helpers/wait-for";
import { reconcilePass } from "../helpers/reconcile-pass";

// "Vamos devolver R$ 14,90" arrived before "Recebemos seu pedido #4" and named no order
// (issue #69, item 7): a second code of a cart paid while the first one's money was making the
// cart an order. The refund notice now waits for the order and follows its message.

const API_KEY = "sk_live_refund_notice_5ecret";
const WEBHOOK_SECRET = "whsec-test-a-0123456789";

let sandbox: Sandbox;
let sandboxB: Sandbox;

beforeAll(async () => {
  // The shopper's e-mails, to Medusa's local notification provider, "Recebemos seu pedido" too.
  process.env.PIX_NOTIFY = "1";
  process.env.PIX_NOTIFY_ORDER_RECEIVED = "1";
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
    const container = (): MedusaContainer => getContainer();
    const http = api as unknown as Api;

    beforeAll(async () => {
      store = await createStoreFixture(container());
      shop = storefront(http, store);
      await control(sandbox.url, "webhook-urls", {
        url: `${http.defaults.baseURL}/hooks/pix-checkout/a?token=${WEBHOOK_SECRET}`,
      });
    });

    const lastSession = (response: { status: number; data: Json }) => {
      expect(response.status, JSON.stringify(response.data)).toBe(200);
      const sessions = response.data.payment_collection.payment_sessions as Json[];
      return sessions[sessions.length - 1] as { id: string; data: Json };
    };
    const rowWhere = (chargeId: string, what: string, test: (row: Json) => boolean) =>
      waitFor(async () => {
        const row = await db(container())("pix_checkout_charge")
          .where({ charge_id: chargeId })
          .first();
        return row && test(row) && row;
      }, what);
    const sent = (resourceId: string, template: string) =>
      waitFor(async () => {
        const list = await container()
          .resolve<INotificationModuleService>(Modules.NOTIFICATION)
          .listNotifications({ resource_id: resourceId });
        return list.find((n) => n.template === template);
      }, `${template} for ${resourceId}`);
    /** A later `now` for reconciliation, past every grace period it waits out. */
    const later = () => new Date(Date.now() + 3 * 60_000);

    it("a second code paid while its cart becomes an order: 'Vamos devolver' names the order and comes after 'Recebemos seu pedido'", async () => {
      // The cart lacks a delivery method for now: paid, it cannot become an order yet.
      const { cartId, makeCompletable } = await createUncompletableCart(container(), store, 44);
      // A Pix code, then the shopper switches to boleto: both payable.
      const pix = lastSession(await shop.initiate(cartId, "pp_pix_a"));
      const collectionId = (await shop.cart(cartId)).data.cart.payment_collection.id as string;
      const boleto = lastSession(
        await shop.call("post", `/store/payment-collections/${collectionId}/payment-sessions`, {
          provider_id: "pp_boleto_a",
          data: BOLETO_PAYER,
        }),
      );
      const pixCharge = pix.data.charge_id as string;
      const boletoCharge = boleto.data.charge_id as string;

      // The boleto pays the cart: captured, waiting for its order.
      await control(sandbox.url, `charges/${boletoCharge}/pay`, {});
      await rowWhere(boletoCharge, "the boleto captured, awaiting its order", (r) =>
        Boolean(r.captured_at && r.awaiting_order_since),
      );
      // The Pix is paid too: owed back while the cart is still becoming an order.
      await control(sandbox.url, `charges/${pixCharge}/pay`, {});
      await rowWhere(pixCharge, "the Pix owed back", (r) => Number(r.owed_cents) > 0);
      await sandbox.webhooksIdle();

      // The cart can now be completed; reconciliation makes the order.
      await makeCompletable();
      await reconcilePass(container(), later());
      const order = await waitFor(() => orderOfCart(container(), cartId), "its order");
      const { display_id } = await db(container())("order").where({ id: order.id }).first();

      await sent(order.id, "pix-checkout-order-received");
      const due = await sent(pixCharge, "pix-checkout-refund-due");
      expect(due.data).toMatchObject({
        event: "refund_due",
        order: { id: order.id, display_id },
        refund: { amount_cents: Number(pix.data.amount_cents), reason: "paid_twice" },
      });
      // The order's message first, then the refund's (to the microsecond, as stored).
      const mails = await db(container())("notification")
        .whereIn("resource_id", [order.id, pixCharge])
        .whereIn("template", ["pix-checkout-order-received", "pix-checkout-refund-due"])
        .orderBy("created_at", "asc")
        .pluck("template");
      expect(mails).toEqual(["pix-checkout-order-received", "pix-checkout-refund-due"]);
    });

    // CI saw the demo's "Pagamento confirmado" more than 30 s after "Recebemos seu pedido": the
    // message waits for the order, and when the shopper's own `cart.complete` made it, it
    // waited for the outbox's next retry.
    it("a code paid before its cart could be an order: the shopper's own completion makes the order, and the paid message follows at once, not at the next retry", async () => {
      const { cartId, makeCompletable } = await createUncompletableCart(container(), store, 31);
      const pix = lastSession(await shop.initiate(cartId, "pp_pix_a"));
      const chargeId = pix.data.charge_id as string;
      await control(sandbox.url, `charges/${chargeId}/pay`, {});
      await rowWhere(chargeId, "the Pix captured, awaiting its order", (r) =>
        Boolean(r.captured_at && r.awaiting_order_since),
      );
      await sandbox.webhooksIdle();

      await makeCompletable();
      const completed = await shop.call("post", `/store/carts/${cartId}/complete`, {});
      expect(completed.status, JSON.stringify(completed.data)).toBe(200);
      expect(completed.data.type).toBe("order");
      const orderId = (completed.data.order as Json).id as string;

      const received = await sent(orderId, "pix-checkout-order-received");
      const paid = await waitFor(
        async () =>
          (
            await container()
              .resolve<INotificationModuleService>(Modules.NOTIFICATION)
              .listNotifications({ resource_id: chargeId })
          ).find((n) => n.template === "pix-checkout-paid"),
        "the paid message",
        45_000,
      );
      expect(paid.data).toMatchObject({ event: "paid", order: { id: orderId } });
      // The order's news sends it, not the outbox's retry (30 s) nor the next reconciliation
      // pass (every 15 s): within 3 s of the order's own message, by the times Medusa stored.
      const gapMs =
        new Date(paid.created_at as Date).getTime() -
        new Date(received.created_at as Date).getTime();
      expect(gapMs).toBeLessThan(3_000);
      await rowWhere(
        chargeId,
        "the charge no longer waiting for its order",
        (r) => !r.awaiting_order_since,
      );
    });
  },
});
