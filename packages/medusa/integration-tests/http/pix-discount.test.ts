import path from "node:path";
import { medusaIntegrationTestRunner } from "@medusajs/test-utils";
import type { Sandbox } from "@pix-checkout/sandbox" with { "resolution-mode": "import" };
import type { INotificationModuleService, MedusaContainer } from "@medusajs/framework/types";
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils";
import { createPromotionsWorkflow } from "@medusajs/medusa/core-flows";
import { startAppSandboxes } from "../helpers/sandboxes";
import {
  createCart,
  createCartOfLines,
  createOtherStorefrontKey,
  createShippingOption,
  createStoreFixture,
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
import { saoPauloDay } from "@pix-checkout/client/books";
import { adminLogin } from "../helpers/admin-login";

// The Pix discount is an automatic Medusa promotion whose rule reads the cart's metadata
// (`metadata.pix_checkout_method` = `pix`). These stories check, against a real Medusa, that
// the promotion module applies and removes it as the shopper's method changes, that the code
// is for the discounted total, that the order carries the promotion, and how it composes with
// a coupon.

const API_KEY = "sk_live_pix_discount_5ecret";
const WEBHOOK_SECRET = "whsec-test-a-0123456789";

let sandbox: Sandbox;
let sandboxB: Sandbox;

beforeAll(async () => {
  // The shopper's e-mails, to Medusa's local notification provider: the paid one and
  // "Recebemos seu pedido" list the order with its Pix discount.
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
    let adminHeaders: Record<string, string>;
    const container = (): MedusaContainer => getContainer();
    const http = api as unknown as Api;

    const admin = (method: string, url: string, data?: unknown) =>
      http.request({ method, url, data, headers: adminHeaders, validateStatus: () => true });
    const choose = (cartId: string, method: unknown) =>
      shop.call("post", `/store/pix-checkout/carts/${cartId}/payment-method`, { method });
    const sessionOf = (response: { data: Json }) => {
      const sessions = response.data.payment_collection.payment_sessions as {
        id: string;
        data: Json;
      }[];
      return sessions[sessions.length - 1]!;
    };
    const view = async (sessionId: string) =>
      (await shop.call("get", `/store/pix-checkout/sessions/${sessionId}`)).data;
    /** The shopper pays the code at the service; resolves with the order once it is paid. */
    const payAndAwaitOrder = async (chargeId: string, cartId: string) => {
      await control(sandbox.url, `charges/${chargeId}/pay`, {});
      return waitFor(async () => {
        const found = await orderOfCart(container(), cartId);
        return found?.payment_collections[0]?.status === "completed" && found;
      }, "the order to be paid");
    };
    const cartCodes = async (cartId: string) =>
      ((await shop.cart(cartId)).data.cart.promotions as { code: string }[]).map((p) => p.code);

    beforeAll(async () => {
      store = await createStoreFixture(container());
      shop = storefront(http, store);
      const base = http.defaults.baseURL;
      await control(sandbox.url, "webhook-urls", {
        url: `${base}/hooks/pix-checkout/a?token=${WEBHOOK_SECRET}`,
      });
      await control(sandboxB.url, "webhook-urls", { url: `${base}/hooks/pix-checkout/b` });
      adminHeaders = await adminLogin(container(), "lojista@example.com");
      await createPromotionsWorkflow(container()).run({
        input: {
          promotionsData: [
            {
              code: "CUPOM10",
              type: "standard",
              status: "active",
              is_automatic: false,
              application_method: {
                type: "fixed",
                target_type: "order",
                allocation: "across",
                value: 10,
                currency_code: "brl",
              },
            },
          ],
        },
      });
      // The merchant turns the discount on in the Pix Checkout admin page: 5 % off by Pix.
      const enabled = await admin("post", "/admin/pix-checkout/pix-discount", {
        enabled: true,
        type: "percentage",
        value: 5,
      });
      if (enabled.status !== 200) throw new Error(JSON.stringify(enabled.data));
    });

    it("the admin's setting is the managed Medusa promotion, and bad settings change nothing", async () => {
      const before = await admin("get", "/admin/pix-checkout/pix-discount");
      expect(before.status).toBe(200);
      expect(before.data.pix_discount).toMatchObject({
        enabled: true,
        type: "percentage",
        value: 5,
        code: "DESCONTO-PIX",
        promotion_id: expect.stringMatching(/^promo_/),
      });
      // The promotion is Medusa's own: its admin shows it like any other, with the rule.
      const promotion = await admin(
        "get",
        `/admin/promotions/${before.data.pix_discount.promotion_id}?fields=*campaign,*application_method,*rules,*rules.values`,
      );
      // Medusa's promotion page shows no metadata rule: its campaign says it is Pix only.
      expect(promotion.data.promotion.campaign).toMatchObject({
        name: "Desconto no Pix",
        description: expect.stringMatching(
          /^Somente pagamento por Pix, gerenciado pelo Pix Checkout/,
        ),
      });
      expect(promotion.data.promotion).toMatchObject({
        code: "DESCONTO-PIX",
        is_automatic: true,
        status: "active",
        application_method: { type: "percentage", value: 5, target_type: "order" },
        rules: [
          {
            attribute: "metadata.pix_checkout_method",
            operator: "eq",
            values: [{ value: "pix" }],
          },
        ],
      });

      for (const bad of [
        { enabled: true, type: "percentage", value: 0 },
        { enabled: true, type: "percentage", value: 4.5 },
        { enabled: true, type: "percentage", value: 95 },
        { enabled: true, type: "fixed", value: -100 },
        { enabled: "yes", type: "percentage", value: 5 },
        { enabled: true, type: "per_item", value: 5 },
        {},
      ]) {
        const refused = await admin("post", "/admin/pix-checkout/pix-discount", bad);
        expect(refused.status).toBe(400);
        expect(refused.data.code).toBe("invalid_pix_discount");
      }
      expect((await admin("get", "/admin/pix-checkout/pix-discount")).data).toEqual(before.data);
      // Not for shoppers: the store's publishable key does not open the admin route.
      const stranger = await shop.call("post", "/admin/pix-checkout/pix-discount", {
        enabled: true,
        type: "percentage",
        value: 50,
      });
      expect(stranger.status).toBe(401);
    });

    it("the discount is in the cart's totals while Pix is chosen, and gone with boleto or card", async () => {
      const cartId = await createCart(container(), store, 100);
      const initial = await shop.call("get", `/store/pix-checkout/carts/${cartId}/payment-method`);
      expect(initial.data).toMatchObject({
        method: null,
        total: 10000,
        pix_discount: { enabled: true, type: "percentage", value: 5, saved: 0 },
      });

      const pix = await choose(cartId, "pix");
      expect(pix.status).toBe(200);
      expect(pix.data).toMatchObject({ method: "pix", total: 9500, pix_discount: { saved: 500 } });
      // Medusa's own cart says the same: the promotion is applied and the total is discounted.
      const medusaCart = (await shop.cart(cartId)).data.cart;
      expect(medusaCart.total).toBe(95);
      expect(medusaCart.promotions.map((p: Json) => p.code)).toEqual(["DESCONTO-PIX"]);

      const boleto = await choose(cartId, "boleto");
      expect(boleto.data).toMatchObject({
        method: "boleto",
        total: 10000,
        pix_discount: { saved: 0 },
      });
      expect(await cartCodes(cartId)).toEqual([]);

      const card = await choose(cartId, "other");
      expect(card.data).toMatchObject({ method: "other", total: 10000 });
      expect((await choose(cartId, "pix")).data.total).toBe(9500);
    });

    it("only the cart's holder may choose, with a stable code for bad input", async () => {
      const cartId = await createCart(container(), store, 100);
      const badMethod = await choose(cartId, "credit_card");
      expect(badMethod.status).toBe(400);
      expect(badMethod.data.code).toBe("invalid_payment_method");
      const badId = await shop.call("post", "/store/pix-checkout/carts/cart%20x/payment-method", {
        method: "pix",
      });
      expect(badId.status).toBe(400);
      expect(badId.data.code).toBe("invalid_cart_id");
      const unknown = await choose("cart_01UNKNOWN", "pix");
      expect(unknown.status).toBe(404);
      expect(unknown.data.code).toBe("cart_not_found");

      // Another storefront's publishable key cannot reach this store's cart.
      const otherKey = await createOtherStorefrontKey(container());
      const other = await http.request({
        method: "post",
        url: `/store/pix-checkout/carts/${cartId}/payment-method`,
        data: { method: "pix" },
        headers: { "x-publishable-api-key": otherKey },
        validateStatus: () => true,
      });
      expect(other.status).toBe(404);
      expect(other.data.code).toBe("cart_not_found");
      // No key at all is Medusa's own refusal.
      const noKey = await http.request({
        method: "post",
        url: `/store/pix-checkout/carts/${cartId}/payment-method`,
        data: { method: "pix" },
        validateStatus: () => true,
      });
      expect(noKey.status).toBe(400);

      // The metadata the rule reads cannot be written through Medusa's own cart route.
      const forged = await shop.call("post", `/store/carts/${cartId}`, {
        metadata: { pix_checkout_method: "pix" },
      });
      expect(forged.status).toBe(400);
      expect(forged.data.code).toBe("reserved_cart_metadata");
      expect((await shop.cart(cartId)).data.cart.total).toBe(100);
    });

    it("Pix chosen: the code is for the discounted total and the order carries the promotion", async () => {
      const cartId = await createCart(container(), store, 100);
      expect((await choose(cartId, "pix")).data.total).toBe(9500);
      const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
      const code = await view(session.id);
      expect(code.amount).toBe(9500);
      expect(code.pix.copy_paste).toEqual(expect.any(String));
      // What the code's card shows: "5 % de desconto no Pix", R$ 5,00 saved.
      expect(code.pix_discount).toEqual({
        code: "DESCONTO-PIX",
        type: "percentage",
        value: 5,
        saved: 500,
      });

      const order = await payAndAwaitOrder(session.data.charge_id as string, cartId);
      const query = container().resolve(ContainerRegistrationKeys.QUERY);
      const { data } = await query.graph({
        entity: "order",
        fields: ["id", "total", "discount_total", "promotions.code"],
        filters: { id: order.id },
      });
      const placed = data[0] as Json;
      expect(placed.promotions.map((p: Json) => p.code)).toEqual(["DESCONTO-PIX"]);
      expect(Number(placed.total)).toBe(95);
      expect(Number(placed.discount_total)).toBe(5);
    });

    it("5 % of R$ 79,90: the shopper, the code, Medusa's order and its payment all say R$ 4,00 off", async () => {
      const cartId = await createCart(container(), store, 79.9);
      const pix = await choose(cartId, "pix");
      // Medusa computes R$ 3,995; the plugin rounds it half up, so nothing is left to round.
      expect(pix.data).toMatchObject({ total: 7590, pix_discount: { saved: 400 } });
      const cart = (await shop.cart(cartId)).data.cart;
      expect([cart.discount_total, cart.total]).toEqual([4, 75.9]);
      const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
      const code = await view(session.id);
      expect(code.amount).toBe(7590);
      expect(code.pix_discount).toMatchObject({ saved: 400 });

      const order = await payAndAwaitOrder(session.data.charge_id as string, cartId);
      const query = container().resolve(ContainerRegistrationKeys.QUERY);
      const { data } = await query.graph({
        entity: "order",
        fields: [
          "total",
          "discount_total",
          "items.adjustments.amount",
          "payment_collections.amount",
          "payment_collections.payments.captures.amount",
        ],
        filters: { id: order.id },
      });
      const placed = data[0] as Json;
      // Medusa's order page: Subtotal 79,90 − Descontos 4,00 = Total 75,90, to the cent.
      expect(Number(placed.discount_total)).toBe(4);
      expect(Number(placed.total)).toBe(75.9);
      expect(placed.items[0].adjustments.map((a: Json) => Number(a.amount))).toEqual([4]);
      // What the books compare with the service: the collection and its capture, 75,90.
      expect(Number(placed.payment_collections[0].amount)).toBe(75.9);
      expect(Number(placed.payment_collections[0].payments[0].captures[0].amount)).toBe(75.9);
      // The books name the same discount beside the payment: the JSON, and the CSV's column.
      const today = saoPauloDay(new Date());
      const period = `from=${today}&to=${today}`;
      const books = await admin("get", `/admin/pix-checkout/reconciliation?${period}`);
      const line = books.data.lines.find((l: Json) => l.id === session.data.charge_id);
      expect(line).toMatchObject({ gross_cents: 7590, order: { pix_discount_cents: 400 } });
      const csv = await admin("get", `/admin/pix-checkout/reconciliation.csv?${period}`);
      const rows = String(csv.data).split("\r\n");
      const column = (rows[0] ?? "").split(";").indexOf("Desconto no Pix");
      expect(column).toBeGreaterThan(0);
      const row = rows.find((r) => r.includes(session.data.charge_id))!;
      expect(row.split(";")[column]).toBe("4,00");
    });

    it("the paid e-mail and 'Recebemos seu pedido' list the items, the address, the delivery option, the Pix discount and the total, adding up to Medusa's order", async () => {
      const optionId = await createShippingOption(container(), store, "PAC", 7.79);
      const cartId = await createCartOfLines(container(), store, [79.9, 19.9]);
      const email = `bia.${Date.now()}@example.com`;
      const address = {
        first_name: "Bia",
        last_name: "Lima",
        address_1: "Rua Augusta, 100",
        address_2: "apto 4",
        city: "São Paulo",
        province: "SP",
        postal_code: "01305-000",
        country_code: "br",
      };
      const updated = await shop.call("post", `/store/carts/${cartId}`, {
        email,
        shipping_address: address,
      });
      expect(updated.status).toBe(200);
      const shipped = await shop.call("post", `/store/carts/${cartId}/shipping-methods`, {
        option_id: optionId,
      });
      expect(shipped.status).toBe(200);
      expect((await choose(cartId, "pix")).status).toBe(200);
      const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
      const chargeId = session.data.charge_id as string;
      const order = await payAndAwaitOrder(chargeId, cartId);

      const query = container().resolve(ContainerRegistrationKeys.QUERY);
      const { data } = await query.graph({
        entity: "order",
        fields: ["id", "display_id", "total", "discount_total"],
        filters: { id: order.id },
      });
      const placed = data[0] as Json;
      const cents = (reais: unknown) => Math.round(Number(reais) * 100);
      const notifications = container().resolve<INotificationModuleService>(Modules.NOTIFICATION);
      const sent = (resourceId: string, template: string) =>
        waitFor(async () => {
          const list = await notifications.listNotifications({ resource_id: resourceId });
          return list.find((n) => n.template === template);
        }, `${template} to be sent`);

      for (const mail of [
        await sent(chargeId, "pix-checkout-paid"),
        await sent(order.id, "pix-checkout-order-received"),
      ]) {
        expect(mail.to).toBe(email);
        const listed = (mail.data as Json).order;
        expect(listed.id).toBe(order.id);
        expect(listed.display_id).toBe(placed.display_id);
        const lines = listed.lines;
        expect(
          lines.items
            .map((item: Json) => [item.name, item.quantity, item.unit_price_cents, item.unit_price])
            .sort((a: Json[], b: Json[]) => b[2] - a[2]),
        ).toEqual([
          ["Camiseta", 1, 7990, expect.stringMatching(/^R\$\s79,90$/)],
          ["Camiseta", 1, 1990, expect.stringMatching(/^R\$\s19,90$/)],
        ]);
        expect(lines.shipping).toEqual([
          { option: "PAC", amount_cents: 779, amount: expect.stringMatching(/^R\$\s7,79$/) },
        ]);
        expect(lines.shipping_address).toEqual({
          name: "Bia Lima",
          address_1: "Rua Augusta, 100",
          address_2: "apto 4",
          city: "São Paulo",
          province: "SP",
          postal_code: "01305-000",
          country_code: "BR",
        });
        // 5 % of R$ 99,80, whole cents: what Medusa's order page shows as its discount.
        expect(lines.pix_discount.cents).toBe(499);
        expect(lines.pix_discount.cents).toBe(cents(placed.discount_total));
        expect(lines.other_discounts.cents).toBe(0);
        expect(lines.taxes.cents).toBe(0);
        expect(listed.total.cents).toBe(cents(placed.total));
        // The list adds up to the cent: 79,90 + 19,90 + 7,79 − 4,99 = 102,60.
        const sum =
          lines.items.reduce((total: number, item: Json) => total + item.total_cents, 0) +
          lines.shipping.reduce((total: number, line: Json) => total + line.amount_cents, 0) -
          lines.pix_discount.cents -
          lines.other_discounts.cents +
          lines.taxes.cents;
        expect(sum).toBe(listed.total.cents);
        expect(listed.total.cents).toBe(10260);
        expect(listed.total.formatted).toMatch(/^R\$\s102,60$/);
      }

      // An order-first boleto: "Recebemos" carries the boleto to pay, so it goes only to a
      // mailbox that paid an order here (Bia's, now), never to one a client typed.
      const boletoOrder = async (mailbox: string) => {
        const id = await createCartOfLines(container(), store, [49.9]);
        await shop.call("post", `/store/carts/${id}`, {
          email: mailbox,
          shipping_address: address,
        });
        await shop.call("post", `/store/carts/${id}/shipping-methods`, { option_id: optionId });
        expect((await choose(id, "boleto")).status).toBe(200);
        sessionOf(await shop.initiate(id, "pp_boleto_a", { ...BOLETO_PAYER, email: mailbox }));
        const completed = await shop.complete(id);
        expect(completed.data.type, JSON.stringify(completed.data)).toBe("order");
        return completed.data.order.id as string;
      };
      const stranger = await boletoOrder(`nova.${Date.now()}@example.com`);
      const toPay = (await sent(await boletoOrder(email), "pix-checkout-order-received"))
        .data as Json;
      expect(toPay.method).toBe("boleto");
      expect(toPay.order.payment).toBe("awaiting");
      expect(toPay.paid_at).toBeNull();
      expect(toPay.boleto.digitable_line).toEqual(expect.any(String));
      expect(toPay.order.lines.pix_discount.cents).toBe(0);
      expect(toPay.order.total.cents).toBe(4990 + 779);
      // The stranger's order.placed came first; its subscriber sent nothing.
      expect(
        (await notifications.listNotifications({ resource_id: stranger })).map((n) => n.template),
      ).toEqual([]);
    });

    it("a cart of several lines: each line's discount is whole cents and they add up", async () => {
      const cartId = await createCartOfLines(container(), store, [33.33, 19.99, 79.9]);
      // 1,6665 + 0,9995 + 3,995 = 6,661: R$ 6,66 off R$ 133,22.
      expect((await choose(cartId, "pix")).data).toMatchObject({
        total: 12656,
        pix_discount: { saved: 666 },
      });
      const query = container().resolve(ContainerRegistrationKeys.QUERY);
      const { data } = await query.graph({
        entity: "cart",
        fields: ["total", "items.adjustments.amount"],
        filters: { id: cartId },
      });
      const cart = data[0] as Json;
      const lines = (cart.items as Json[]).map((item) =>
        Math.round(Number(item.adjustments[0].amount) * 100),
      );
      expect(lines.reduce((sum, cents) => sum + cents, 0)).toBe(666);
      for (const item of cart.items as Json[]) {
        expect(Number.isInteger(Number(item.adjustments[0].amount) * 100)).toBe(true);
      }
      expect(Number(cart.total)).toBe(126.56);
    });

    it("a coupon added after Pix was chosen: the code is still for a whole-cent discount", async () => {
      const cartId = await createCart(container(), store, 79.9);
      expect((await choose(cartId, "pix")).data.total).toBe(7590);
      // Medusa's promotions route re-prices without its refresh hook: R$ 69,90 × 5 % = 3,495.
      const applied = await shop.call("post", `/store/carts/${cartId}/promotions`, {
        promo_codes: ["CUPOM10"],
      });
      expect(applied.status).toBe(200);
      const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
      const code = await view(session.id);
      expect(code.amount).toBe(6640);
      expect(code.pix_discount).toMatchObject({ saved: 350 });
      const cart = (await shop.cart(cartId)).data.cart;
      expect([cart.discount_total, cart.total]).toEqual([13.5, 66.4]);
    });

    it("a switch to boleto after the code was shown: full price, and the old code is superseded", async () => {
      const cartId = await createCart(container(), store, 100);
      await choose(cartId, "pix");
      const pixSession = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
      expect((await view(pixSession.id)).amount).toBe(9500);

      expect((await choose(cartId, "boleto")).data.total).toBe(10000);
      // The amount changed, so Medusa deleted the session and the plugin replaced its code.
      const old = await waitFor(async () => {
        const seen = await view(pixSession.id);
        return seen.status === "superseded" && seen;
      }, "the Pix code to be superseded");
      expect(old.pix).toBeUndefined();

      const boleto = sessionOf(await shop.initiate(cartId, "pp_boleto_a", BOLETO_PAYER));
      const boletoView = await view(boleto.id);
      expect(boletoView.amount).toBe(10000);
      expect(boletoView.pix_discount).toBeUndefined();
      const row = await db(container())("pix_checkout_charge")
        .where({ charge_id: pixSession.data.charge_id })
        .first();
      expect(row.superseded_at).not.toBeNull();
    });

    it("a session follows its provider even when the storefront never chose the method", async () => {
      const cartId = await createCart(container(), store, 100);
      const pix = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
      expect((await view(pix.id)).amount).toBe(9500);
      const boleto = sessionOf(await shop.initiate(cartId, "pp_boleto_a", BOLETO_PAYER));
      expect((await view(boleto.id)).amount).toBe(10000);
      expect(await cartCodes(cartId)).toEqual([]);
    });

    it("a coupon composes with the Pix discount as Medusa's promotion rules say", async () => {
      const cartId = await createCart(container(), store, 100);
      const applied = await shop.call("post", `/store/carts/${cartId}/promotions`, {
        promo_codes: ["CUPOM10"],
      });
      expect(applied.status).toBe(200);
      expect(applied.data.cart.total).toBe(90);

      const pix = await choose(cartId, "pix");
      expect((await cartCodes(cartId)).sort()).toEqual(["CUPOM10", "DESCONTO-PIX"]);
      // Medusa applies the larger fixed-value promotion first; the percentage is of what is left.
      expect(pix.data.total).toBe(8550);
      expect(pix.data.pix_discount.saved).toBe(450);

      // The coupon outlives a switch of method; the Pix discount does not.
      const boleto = await choose(cartId, "boleto");
      expect(boleto.data.total).toBe(9000);
      expect(await cartCodes(cartId)).toEqual(["CUPOM10"]);

      const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
      const code = await view(session.id);
      expect(code.amount).toBe(8550);
      expect(code.pix_discount).toMatchObject({ value: 5, saved: 450 });
    });

    it("turned off, the discount leaves carts on their next refresh", async () => {
      const cartId = await createCart(container(), store, 100);
      expect((await choose(cartId, "pix")).data.total).toBe(9500);
      const off = await admin("post", "/admin/pix-checkout/pix-discount", {
        enabled: false,
        type: "fixed",
        value: 700,
      });
      expect(off.data.pix_discount).toMatchObject({ enabled: false, type: "fixed", value: 700 });
      expect((await choose(cartId, "boleto")).data.total).toBe(10000);
      expect((await choose(cartId, "pix")).data).toMatchObject({
        total: 10000,
        pix_discount: { enabled: false, saved: 0 },
      });
      const on = await admin("post", "/admin/pix-checkout/pix-discount", {
        enabled: true,
        type: "fixed",
        value: 700,
      });
      expect(on.data.pix_discount).toMatchObject({ enabled: true, type: "fixed", value: 700 });
      await choose(cartId, "boleto");
      expect((await choose(cartId, "pix")).data).toMatchObject({
        total: 9300,
        pix_discount: { saved: 700 },
      });
    });
  },
});
