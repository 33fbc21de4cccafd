import path from "node:path";
import { medusaIntegrationTestRunner } from "@medusajs/test-utils";
import type { Sandbox } from "@pix-checkout/sandbox" with { "resolution-mode": "import" };
import {
  createStockedProduct,
  createStoreFixture,
  type StockedProduct,
  type StoreFixture,
} from "../helpers/store-fixture";
import { control, db, storefront, type Api, type Json } from "../helpers/checkout";
import { adminLogin } from "../helpers/admin-login";
import {
  adminClient,
  adminOrder,
  editOrder,
  paidVariantOrder,
  unpaidCollection,
  type Admin,
} from "../helpers/order-changes";
import { copiedLink, openPage, tap } from "../helpers/payment-page";
import { waitFor } from "../helpers/wait-for";

// The money rules for what an order owes after the sale are the cart's, in settlement/decide.ts:
// whatever door a payment comes through (a webhook here), the merchant is paid once for what
// Medusa's collection asks, and every other real a customer paid is owed back and listed in
// "Needs attention". Through Medusa's own admin routes, the page's button and the sandbox.

const API_KEY = "sk_live_beyond_money_5ecret";
const WEBHOOK_SECRET = "whsec-test-a-0123456789";
let sandbox: Sandbox;

beforeAll(async () => {
  const { startSandbox } = await import("@pix-checkout/sandbox");
  sandbox = await startSandbox({ variant: "a", keys: [API_KEY] });
  process.env.PIX_SANDBOX_A_URL = sandbox.baseUrl;
  process.env.PIX_API_KEY = API_KEY;
});

afterAll(async () => sandbox?.close());

medusaIntegrationTestRunner({
  cwd: path.join(__dirname, "..", "app"),
  testSuite: ({ api, getContainer }) => {
    let store: StoreFixture;
    let admin: Admin;
    let base: string;
    let product: StockedProduct;
    const container = () => getContainer();
    const charge = (chargeId: string) =>
      db(container())("pix_checkout_charge").where({ charge_id: chargeId }).first();
    const chargesOf = (collectionId: string) =>
      db(container())("pix_checkout_charge")
        .where({ payment_collection_id: collectionId })
        .orderBy("created_at");
    /** What Medusa captured on a collection, in cents. */
    const capturedCents = async (collectionId: string) => {
      const { data } = await container()
        .resolve("query")
        .graph({
          entity: "payment_collection",
          fields: ["payments.captures.amount", "payments.captures.raw_amount"],
          filters: { id: collectionId },
        });
      return ((data[0] as Json)?.payments ?? [])
        .flatMap((p: Json) => p.captures ?? [])
        .reduce(
          (sum: number, c: Json) => sum + Math.round(Number(c.raw_amount?.value ?? c.amount) * 100),
          0,
        );
    };
    const needsAttention = async () =>
      (await admin("get", "/admin/pix-checkout/charges?needs_attention=true")).charges as Json[];

    beforeAll(async () => {
      store = await createStoreFixture(container());
      base = (api as unknown as Api).defaults.baseURL as string;
      await control(sandbox.url, "webhook-urls", {
        url: `${base}/hooks/pix-checkout/a?token=${WEBHOOK_SECRET}`,
      });
      admin = adminClient(api as unknown as Api, await adminLogin(container(), "loja@example.com"));
      product = await createStockedProduct(container(), store, 100);
    });

    /** A paid order of one unit, edited to add `units` more: its collection and page. */
    async function editedOrder(units = 1) {
      const shop = storefront(api as unknown as Api, store);
      const { orderId } = await paidVariantOrder(
        container(),
        shop,
        store,
        sandbox.url,
        product.variantId,
        `gil.${Date.now()}.${Math.random().toString(36).slice(2, 6)}@example.com`,
      );
      await editOrder(admin, orderId, product.variantId, units);
      const collection = await unpaidCollection(admin, orderId);
      return {
        orderId,
        collectionId: collection.id as string,
        link: copiedLink(collection.id, orderId),
      };
    }

    /** The page's button for `providerId`; returns the new code's charge row. */
    async function code(link: string, providerId = "pp_pix_a") {
      const page = await openPage(base, link);
      expect(page.status).toBe(200);
      const made = await tap(
        base,
        page.data!,
        providerId,
        providerId.startsWith("pp_boleto_")
          ? { document: "529.982.247-25", neighborhood: "Centro", number: "100" }
          : undefined,
      );
      expect(made.status).toBe(200);
      return waitFor(
        async () =>
          (await db(container())("pix_checkout_charge")
            .where({ session_id: made.session.id })
            .first()) ?? false,
        "the code's charge",
      );
    }

    /** Pays a charge in the sandbox and waits until the plugin has decided on its money. */
    async function pay(chargeId: string) {
      expect((await control(sandbox.url, `charges/${chargeId}/pay`, {})).ok).toBe(true);
      return waitFor(
        async () => {
          const row = await charge(chargeId);
          return (
            row.status === "paid" &&
            Number(row.held_cents) === 0 &&
            (Number(row.captured_cents) > 0 || Number(row.owed_cents) > 0) &&
            row
          );
        },
        `charge ${chargeId}'s money to be decided`,
        30_000,
      );
    }

    it("captures one of two codes of an order's collection paid in full, and owes the other back", async () => {
      const { orderId, collectionId, link } = await editedOrder();
      const pix = await code(link);
      // The customer switches to boleto (Medusa replaces the Pix session), then pays both.
      const boleto = await code(link, "pp_boleto_a");
      expect((await charge(pix.charge_id)).superseded_at).not.toBeNull();
      const first = await pay(boleto.charge_id);
      expect(first).toMatchObject({ captured_cents: "3500", owed_cents: "0" });
      const second = await pay(pix.charge_id);
      expect(second).toMatchObject({
        captured_cents: "0",
        owed_cents: "3500",
        owed_reason: "paid_twice",
      });
      expect(await capturedCents(collectionId)).toBe(3500);
      expect((await adminOrder(admin, orderId)).summary.pending_difference).toBe(0);
      expect((await needsAttention()).map((c) => c.charge_id)).toContain(pix.charge_id);
      expect((await openPage(base, link)).title).toBe("Pagamento confirmado");
    });

    it("an edit that raises the difference while a code is open: the code pays what it asked, the same link collects the rest, and a replaced code of the rest is owed back", async () => {
      const { orderId, collectionId, link } = await editedOrder();
      const a = await code(link); // R$ 35,00
      await editOrder(admin, orderId, product.variantId, 1); // the collection now asks R$ 70,00
      expect(Number((await unpaidCollection(admin, orderId)).amount)).toBe(70);
      // Medusa kept A's session (an order's collection changes without its sessions): A pays
      // the R$ 35,00 it asked, and the order still owes the rest.
      const paidA = await pay(a.charge_id);
      expect(paidA).toMatchObject({ captured_cents: "3500", owed_cents: "0" });
      expect(await capturedCents(collectionId)).toBe(3500);
      await waitFor(
        async () => (await adminOrder(admin, orderId)).summary.pending_difference === 35,
        "the order to owe the rest",
      );
      const page = await openPage(base, link);
      expect(page.text).toContain("R$ 35,00");
      expect(page.data?.sessionId).toBeNull(); // A's code is paid: not offered again

      const b = await code(link); // the rest, R$ 35,00
      expect(Number(b.amount_cents)).toBe(3500);
      const c = await code(link, "pp_boleto_a"); // the customer switches to boleto: B replaced
      expect(Number(c.amount_cents)).toBe(3500);
      const paidB = await pay(b.charge_id);
      expect(paidB).toMatchObject({
        captured_cents: "0",
        owed_cents: "3500",
        owed_reason: "paid_replaced",
      });
      const paidC = await pay(c.charge_id);
      expect(paidC).toMatchObject({ captured_cents: "3500", owed_cents: "0" });

      expect(await capturedCents(collectionId)).toBe(7000);
      await waitFor(
        async () => (await adminOrder(admin, orderId)).summary.pending_difference === 0,
        "the order to read fully paid",
      );
      const listed = (await needsAttention()).filter((row) => row.purpose === "order_edit");
      expect(listed.map((row) => row.charge_id)).toContain(b.charge_id);
      expect(listed.map((row) => row.charge_id)).not.toContain(a.charge_id);
      expect(
        (await chargesOf(collectionId)).reduce(
          (s: number, r: Json) => s + Number(r.received_cents),
          0,
        ),
      ).toBe(3500 + 3500 + 3500);
      expect((await openPage(base, link)).title).toBe("Pagamento confirmado");
    });

    it("owes back a code paid after the merchant deleted its collection, and the page says the collection is canceled", async () => {
      const { orderId, collectionId, link } = await editedOrder();
      const open = await code(link);
      await admin("delete", `/admin/payment-collections/${collectionId}`);
      const paid = await pay(open.charge_id);
      expect(paid).toMatchObject({
        captured_cents: "0",
        owed_cents: "3500",
        owed_reason: "collection_canceled",
      });
      expect(await capturedCents(collectionId)).toBe(0);
      expect((await adminOrder(admin, orderId)).summary.pending_difference).toBe(35);
      const page = await openPage(base, link);
      expect(page.status).toBe(409);
      expect(page.title).toBe("Cobrança cancelada");
      expect((await needsAttention()).map((c) => c.charge_id)).toContain(open.charge_id);
    });

    it("owes back a code paid after the merchant marked the collection paid by hand: the order is paid once", async () => {
      const { orderId, collectionId, link } = await editedOrder();
      const open = await code(link);
      await admin("post", `/admin/payment-collections/${collectionId}/mark-as-paid`, {
        order_id: orderId,
      });
      expect((await charge(open.charge_id)).superseded_at).not.toBeNull();
      const paid = await pay(open.charge_id);
      expect(paid).toMatchObject({
        captured_cents: "0",
        owed_cents: "3500",
        owed_reason: "paid_elsewhere",
      });
      expect(await capturedCents(collectionId)).toBe(3500); // the merchant's own capture, once
      expect((await adminOrder(admin, orderId)).summary.pending_difference).toBe(0);
      const page = await openPage(base, link);
      expect(page.title).toBe("Este valor já foi pago");
      expect((await needsAttention()).map((c) => c.charge_id)).toContain(open.charge_id);
    });

    it("never cancels the order when a code of its collection expires unpaid: the code is closed and the page makes a new one", async () => {
      const { orderId, link } = await editedOrder();
      const open = await code(link);
      expect((await control(sandbox.url, `charges/${open.charge_id}/expire`, {})).ok).toBe(true);
      await waitFor(async () => (await charge(open.charge_id)).status === "expired", "the expiry");
      // Settlement decides after the expiry is recorded; give it the same webhook's turn.
      await waitFor(async () => {
        const session = await container()
          .resolve("query")
          .graph({
            entity: "payment_session",
            fields: ["status"],
            filters: { id: open.session_id },
          });
        return (session.data[0] as Json)?.status === "canceled";
      }, "the expired code's session to be closed");
      const order = await adminOrder(admin, orderId);
      expect(order.status).toBe("pending");
      const renewed = await code(link);
      expect(renewed.charge_id).not.toBe(open.charge_id);
      expect(Number(renewed.amount_cents)).toBe(3500);
    });
  },
});
