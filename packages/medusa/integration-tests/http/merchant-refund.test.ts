import path from "node:path";
import { medusaIntegrationTestRunner } from "@medusajs/test-utils";
import type { Sandbox } from "@pix-checkout/sandbox" with { "resolution-mode": "import" };
import type {
  INotificationModuleService,
  IPaymentModuleService,
  MedusaContainer,
} from "@medusajs/framework/types";
import { Modules } from "@medusajs/framework/utils";
import { startAppSandboxes } from "../helpers/sandboxes";
import {
  createCartWithVariant,
  createStockedProduct,
  createStoreFixture,
  type StockedProduct,
  type StoreFixture,
} from "../helpers/store-fixture";
import { control, db, orderOfCart, storefront, type Api, type Json } from "../helpers/checkout";
import { waitFor } from "../helpers/wait-for";
import { reconcilePass } from "../helpers/reconcile-pass";
import { adminLogin } from "../helpers/admin-login";
import { saoPauloDay } from "../../src/internal/platform/sao-paulo-time";

// The merchant records a refund made in the payment service's dashboard, through the admin
// route the drawer calls: Medusa's order gets a refund only for money Medusa captured, the
// drawer's figures (the charges route's `refund_portions`) say the same beforehand, the note is
// on the charge's timeline and in the books, and the shopper is told "Devolvemos R$ X" through
// Medusa's Notification Module (its local provider records what was sent).

const API_KEY = "sk_live_refunds_5ecret";
const WEBHOOK_SECRET = "whsec-test-a-0123456789";

let sandbox: Sandbox;
let sandboxB: Sandbox;

beforeAll(async () => {
  ({ a: sandbox, b: sandboxB } = await startAppSandboxes(API_KEY, {
    a: { webhookRetryDelaysMs: [300] },
    b: { webhookRetryDelaysMs: [300] },
  }));
  // The plugin's notification subscriber, to Medusa's local notification provider.
  process.env.PIX_NOTIFY = "1";
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
      store = await createStoreFixture(container());
      shop = storefront(http, store);
      await control(sandbox.url, "webhook-urls", {
        url: `${http.defaults.baseURL}/hooks/pix-checkout/a?token=${WEBHOOK_SECRET}`,
      });
      adminHeaders = await adminLogin(container(), "lojista@example.com");
      product = await createStockedProduct(container(), store, 50);
    });

    const admin = (method: string, url: string, data?: unknown, extra: Json = {}) =>
      http.request({
        method,
        url,
        data,
        headers: adminHeaders,
        validateStatus: () => true,
        ...extra,
      });
    const rowWhere = (chargeId: string, what: string, test: (row: Json) => boolean) =>
      waitFor(async () => {
        const row = await db(container())("pix_checkout_charge")
          .where({ charge_id: chargeId })
          .first();
        return row && test(row) && row;
      }, what);
    const lastSession = (response: { status: number; data: Json }) => {
      expect(response.status, JSON.stringify(response.data)).toBe(200);
      const sessions = response.data.payment_collection.payment_sessions as Json[];
      return sessions[sessions.length - 1] as { id: string; data: Json };
    };
    const pay = (chargeId: string) => control(sandbox.url, `charges/${chargeId}/pay`, {});
    const notifications = () =>
      container().resolve<INotificationModuleService>(Modules.NOTIFICATION);
    const sentFor = (chargeId: string, template: string, count = 1) =>
      waitFor(async () => {
        const list = (await notifications().listNotifications({ resource_id: chargeId })).filter(
          (n) => n.template === template,
        );
        return list.length >= count && list;
      }, `${count} ${template} for ${chargeId}`);
    /** Medusa's refunds on the payments of a collection, in integer cents. */
    const medusaRefunds = async (collectionId: string) => {
      const payments = await container()
        .resolve<IPaymentModuleService>(Modules.PAYMENT)
        .listPayments(
          { payment_collection_id: collectionId } as Parameters<
            IPaymentModuleService["listPayments"]
          >[0],
          { relations: ["refunds"] },
        );
      return payments
        .flatMap((p) => p.refunds ?? [])
        .map((r) => Math.round(Number(r.amount) * 100));
    };
    const chargeOnList = async (chargeId: string) => {
      const listed = await admin("get", "/admin/pix-checkout/charges?limit=200");
      expect(listed.status).toBe(200);
      return (listed.data.charges as Json[]).find((c) => c.charge_id === chargeId);
    };

    it("a replaced code's money is recorded in the ledger only, the order's captured money in Medusa too; the note is on the timeline and in the books, and the shopper hears 'Devolvemos'", async () => {
      // A R$ 35,00 code; the shopper doubles the cart (a R$ 70,00 code) and pays the old one.
      const cartId = await createCartWithVariant(container(), store, product.variantId);
      const old = lastSession(await shop.initiate(cartId, "pp_pix_a"));
      const oldCharge = old.data.charge_id as string;
      const line = (await shop.cart(cartId)).data.cart.items[0];
      await shop.call("post", `/store/carts/${cartId}/line-items/${line.id}`, { quantity: 2 });
      const current = lastSession(await shop.initiate(cartId, "pp_pix_a"));
      const currentCharge = current.data.charge_id as string;
      await pay(oldCharge);
      await rowWhere(oldCharge, "the old code's money owed back", (r) => Number(r.owed_cents) > 0);

      // "Vamos devolver": no order yet, so the message can only say one is made later.
      const [due] = await sentFor(oldCharge, "pix-checkout-refund-due");
      expect(due!.data).toMatchObject({
        event: "refund_due",
        order: null,
        refund: { amount_cents: 3_500, reason: "paid_old_amount" },
      });

      // The live code pays the cart: an order, paid in Medusa.
      await pay(currentCharge);
      await rowWhere(currentCharge, "captured", (r) => r.captured_at !== null);
      const order = await waitFor(() => orderOfCart(container(), cartId), "its order");
      const collectionId = order.payment_collections[0]!.id;
      await sandbox.webhooksIdle();
      await reconcilePass(container());

      // The drawer's figures, before anything is recorded: the old code's money is not Medusa's.
      expect((await chargeOnList(oldCharge)).refund_portions).toEqual([
        { from: "owed", cents: 3_500, in_medusa: false, why: "paid_old_amount" },
      ]);
      expect((await chargeOnList(currentCharge)).refund_portions).toEqual([
        { from: "captured", cents: 7_000, in_medusa: true, why: null },
      ]);

      const note = "Pix devolvido pelo painel em 26/11; comprovante 123";
      const returned = await admin("post", `/admin/pix-checkout/charges/${oldCharge}/refunds`, {
        amount: 3_500,
        note,
      });
      expect(returned.status, JSON.stringify(returned.data)).toBe(200);
      expect(returned.data).toMatchObject({
        recorded_in_medusa_cents: 0,
        ledger_only_cents: 3_500,
        resolved_flag: true,
      });
      // Medusa never captured it: its order gets no refund.
      expect(await medusaRefunds(collectionId)).toEqual([]);

      // The order's own money, returned after the sale: Medusa records it on the order.
      const afterSale = await admin(
        "post",
        `/admin/pix-checkout/charges/${currentCharge}/refunds`,
        { amount: 1_000, note: "desconto combinado por WhatsApp" },
      );
      expect(afterSale.status, JSON.stringify(afterSale.data)).toBe(200);
      expect(afterSale.data).toMatchObject({
        recorded_in_medusa_cents: 1_000,
        ledger_only_cents: 0,
      });
      expect(await medusaRefunds(collectionId)).toEqual([1_000]);

      // The order widget's timeline: where each refund is recorded, and the note.
      const widget = await admin("get", `/admin/pix-checkout/orders/${order.id}`);
      expect(widget.status).toBe(200);
      const timeline = (chargeId: string) =>
        (
          (widget.data.charges as Json[]).find((c) => c.charge_id === chargeId)!.timeline as Json[]
        ).filter((e) => e.kind === "refund_declared");
      expect(timeline(oldCharge)).toEqual([
        expect.objectContaining({ refund: { amount: 3_500, medusa: 0, note } }),
      ]);
      expect(timeline(currentCharge)).toEqual([
        expect.objectContaining({
          refund: { amount: 1_000, medusa: 1_000, note: "desconto combinado por WhatsApp" },
        }),
      ]);

      // The books: the CSV's refund line ends with the note; the OFX memo carries it.
      const today = saoPauloDay(new Date());
      const csv = await admin(
        "get",
        `/admin/pix-checkout/reconciliation.csv?from=${today}&to=${today}`,
        undefined,
        { responseType: "arraybuffer" },
      );
      expect(csv.status).toBe(200);
      const rows = Buffer.from(csv.data as ArrayBuffer)
        .subarray(3)
        .toString("utf8")
        .split("\r\n");
      const refundRow = rows.find((r) => r.includes(`;Devolução;`) && r.includes(oldCharge));
      expect(refundRow).toMatch(/;-35,00;;;0,00;/);
      // The note, then the buyer's CPF/CNPJ column (this order has none).
      expect(refundRow?.endsWith(`;"${note}";`)).toBe(true);
      const ofx = await admin(
        "get",
        `/admin/pix-checkout/reconciliation.ofx?from=${today}&to=${today}`,
        undefined,
        { responseType: "arraybuffer" },
      );
      expect(ofx.status).toBe(200);
      const statement = new TextDecoder("windows-1252").decode(ofx.data as ArrayBuffer);
      expect(statement).toContain("Pix devolvido pelo painel em 26/11; comprovante 123");

      // The shopper: "Devolvemos R$ 35,00" about the replaced code, the order paid in Medusa;
      // and "Devolvemos R$ 10,00" of the order.
      const [back] = await sentFor(oldCharge, "pix-checkout-refunded");
      expect(back!.to).toBe("ana@example.com");
      expect(back!.data).toMatchObject({
        event: "refunded",
        refund: { amount_cents: 3_500, reason: "paid_old_amount" },
        order: { id: order.id, display_id: expect.any(Number), payment: "paid" },
      });
      expect((back!.data as Json).refund.amount).toMatch(/^R\$\s35,00$/);
      expect(back!.data).not.toHaveProperty("pix");
      const [ofOrder] = await sentFor(currentCharge, "pix-checkout-refunded");
      expect(ofOrder!.data).toMatchObject({
        refund: { amount_cents: 1_000, reason: "order_refund" },
        order: { id: order.id },
      });

      // A second refund of the same charge is its own message.
      const again = await admin("post", `/admin/pix-checkout/charges/${currentCharge}/refunds`, {
        amount: 500,
        note: "mais um acerto",
      });
      expect(again.status, JSON.stringify(again.data)).toBe(200);
      const both = await sentFor(currentCharge, "pix-checkout-refunded", 2);
      expect(
        both.map((n) => (n.data as Json).refund.amount_cents as number).sort((a, b) => a - b),
      ).toEqual([500, 1_000]);
    });

    it("a replaced code paid while the order placed on the current code awaits it: the refund_due and refunded messages carry the order as awaiting, as Medusa has it", async () => {
      // The two tabs: a R$ 35,00 code, then R$ 70,00 for the changed cart, the order
      // placed on the current, unpaid code, and the old code paid from the clipboard.
      const cartId = await createCartWithVariant(container(), store, product.variantId);
      const old = lastSession(await shop.initiate(cartId, "pp_pix_a"));
      const oldCharge = old.data.charge_id as string;
      const line = (await shop.cart(cartId)).data.cart.items[0];
      await shop.call("post", `/store/carts/${cartId}/line-items/${line.id}`, { quantity: 2 });
      lastSession(await shop.initiate(cartId, "pp_pix_a"));
      const completed = await shop.complete(cartId);
      expect(completed.data.type, JSON.stringify(completed.data)).toBe("order");
      const orderId = completed.data.order.id as string;
      await pay(oldCharge);
      await rowWhere(oldCharge, "the old code's money owed back", (r) => Number(r.owed_cents) > 0);

      const [due] = await sentFor(oldCharge, "pix-checkout-refund-due");
      expect(due!.data).toMatchObject({
        event: "refund_due",
        refund: { amount_cents: 3_500, reason: "paid_old_amount" },
        order: { id: orderId, display_id: expect.any(Number), payment: "awaiting" },
      });

      const returned = await admin("post", `/admin/pix-checkout/charges/${oldCharge}/refunds`, {
        amount: 3_500,
        note: "Pix devolvido",
      });
      expect(returned.status, JSON.stringify(returned.data)).toBe(200);
      expect(returned.data).toMatchObject({ recorded_in_medusa_cents: 0 });
      const [back] = await sentFor(oldCharge, "pix-checkout-refunded");
      expect(back!.data).toMatchObject({
        refund: { amount_cents: 3_500, reason: "paid_old_amount" },
        order: { id: orderId, payment: "awaiting" },
      });
    });
  },
});
