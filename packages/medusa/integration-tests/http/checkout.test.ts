import path from "node:path";
import { medusaIntegrationTestRunner } from "@medusajs/test-utils";
import type { Sandbox } from "@pix-checkout/sandbox" with { "resolution-mode": "import" };
import { startAppSandboxes } from "../helpers/sandboxes";
import {
  createCart,
  createCartWithVariant,
  createUncompletableCart,
  createStockedProduct,
  createStoreFixture,
  type StoreFixture,
} from "../helpers/store-fixture";
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
import { waitFor } from "../helpers/wait-for";
import { adminLogin } from "../helpers/admin-login";
import { adminClient, editOrder, unpaidCollection } from "../helpers/order-changes";
import { copiedLink, openPage, tap } from "../helpers/payment-page";
import { saoPauloDay } from "@pix-checkout/client/books";
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils";
import type { IInventoryService, IPaymentModuleService } from "@medusajs/framework/types";
import {
  cancelOrderWorkflow,
  createCartWorkflow,
  refundPaymentWorkflow,
} from "@medusajs/medusa/core-flows";
import { reconcilePass } from "../helpers/reconcile-pass";
import reconcilePixCheckout from "../../src/jobs/reconcile-pix-checkout";
import { settleContext } from "../../src/internal/settlement/context";
import { reconcileOnce } from "../../src/internal/settlement/reconcile";
import { arrivalOf } from "../../src/internal/settlement/decide";
import { registerTestTelemetry, type TestTelemetry } from "../helpers/telemetry";

// A third registration, `nf`, asks the buyer's CPF/CNPJ on every order (app/medusa-config.ts).
process.env.PIX_BUYER_DOCUMENT_PROVIDER = "1";

// A distinctive key, so "it never appears in output" is a real check.
const API_KEY = "sk_live_integration_5ecret_key";
const WEBHOOK_SECRET = "whsec-test-a-0123456789";

function describeLogArg(arg: unknown): string {
  if (typeof arg === "string") return arg;
  if (arg instanceof Error) return `${arg.message} ${arg.stack ?? ""}`;
  try {
    return JSON.stringify(arg);
  } catch {
    return String(arg);
  }
}

let sandboxA: Sandbox;
let sandboxB: Sandbox;
let telemetry: TestTelemetry;
const output: string[] = [];
const originalWrite = {
  out: process.stdout.write.bind(process.stdout),
  err: process.stderr.write.bind(process.stderr),
};

beforeAll(async () => {
  // A merchant's OpenTelemetry SDK, registered before Medusa boots as instrumentation.ts is.
  telemetry = registerTestTelemetry();
  ({ a: sandboxA, b: sandboxB } = await startAppSandboxes(API_KEY, {
    a: { webhookRetryDelaysMs: [300, 1000] },
    b: { webhookRetryDelaysMs: [300, 1000] },
  }));
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
      // Medusa's logger is one shared instance (the plugin's lines go through it too), and
      // under vitest it writes through the intercepted console, so it is tapped directly.
      const logger = container().resolve(ContainerRegistrationKeys.LOGGER) as unknown as Record<
        string,
        unknown
      >;
      for (const level of [
        "log",
        "info",
        "warn",
        "error",
        "debug",
        "http",
        "activity",
        "failure",
      ]) {
        const original = logger[level];
        if (typeof original !== "function") continue;
        logger[level] = (...args: unknown[]) => {
          output.push(args.map(describeLogArg).join(" "));
          return (original as (...a: unknown[]) => unknown).apply(logger, args);
        };
      }
      store = await createStoreFixture(container(), ["pp_pix_nf"]);
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

    // The scenarios every variant must pass. Variant A's webhook URL carries a secret token;
    // Variant B's charge ids are ch_svc_... and its events name both id and uuid.
    const variants = [
      {
        name: "Variant A",
        provider: "pp_pix_a",
        sandbox: () => sandboxA,
        hook: `/hooks/pix-checkout/a?token=${WEBHOOK_SECRET}`,
        ids: (chargeId: string) => ({ uuid: chargeId }),
      },
      {
        name: "Variant B",
        provider: "pp_pix_b",
        sandbox: () => sandboxB,
        hook: "/hooks/pix-checkout/b",
        ids: (chargeId: string) => ({ uuid: "8c4f2a57-3f1e-4f7a-9a55-2f6f0f1f9a10", id: chargeId }),
      },
    ];

    const post = (url: string, data: unknown) =>
      (api as unknown as Api).request({ method: "post", url, data, validateStatus: () => true });
    const deliveryDone = (id: string) =>
      waitFor(async () => {
        const row = await db(container())("pix_checkout_webhook_delivery").where({ id }).first();
        return row?.outcome !== "received" && row;
      }, `delivery ${id} to be processed`);
    const paidOrder = (cartId: string) =>
      waitFor(async () => {
        const order = await orderOfCart(container(), cartId);
        return order?.payment_collections[0]?.status === "completed" && order;
      }, "the order to be paid");

    describe.each(variants)("$name", (variant) => {
      const control_ = (path: string, body?: unknown) => control(variant.sandbox().url, path, body);

      beforeEach(async () => {
        await fetch(`${variant.sandbox().url}/__sandbox/faults`, { method: "DELETE" });
      });

      it("order-first Pix: completing the cart creates an awaiting order that the webhook marks paid", async () => {
        const cartId = await createCart(container(), store, 49.9);
        const session = sessionOf(await shop.initiate(cartId, variant.provider));
        expect(session.data.pix.copy_paste).toEqual(expect.any(String));
        expect(session.data.amount_cents).toBe(4990);

        const completed = await shop.complete(cartId);
        expect(completed.data.type).toBe("order");
        expect(completed.data.order.payment_collections[0].status).toBe("awaiting");

        await control_(`charges/${session.data.charge_id}/pay`, {});
        const order = await paidOrder(cartId);
        expect(order.status).not.toBe("canceled");
        expect(await capturesOfSession(container(), session.id)).toBe(1);
      });

      it("pay-first Pix: the webhook completes the cart into a paid order", async () => {
        const cartId = await createCart(container(), store, 25);
        const session = sessionOf(await shop.initiate(cartId, variant.provider));
        await control_(`charges/${session.data.charge_id}/pay`, {});
        const order = await paidOrder(cartId);
        expect(order.id).toMatch(/^order_/);
      });

      it("expiry cancels the waiting order and the session", async () => {
        const cartId = await createCart(container(), store, 30);
        const session = sessionOf(await shop.initiate(cartId, variant.provider));
        await shop.complete(cartId);
        await control_(`charges/${session.data.charge_id}/expire`, {});
        await waitFor(
          async () => (await orderOfCart(container(), cartId))?.status === "canceled",
          "the order to be canceled",
        );
        expect((await chargeRow(session.data.charge_id)).status).toBe("expired");
        const payment = container().resolve<IPaymentModuleService>(Modules.PAYMENT);
        // The session is canceled right after the order, in the same background step.
        await waitFor(
          async () => (await payment.retrievePaymentSession(session.id)).status === "canceled",
          "the session to be canceled",
        );
      });

      it("five duplicate charge.paid deliveries give one capture", async () => {
        const cartId = await createCart(container(), store, 50);
        const session = sessionOf(await shop.initiate(cartId, variant.provider));
        await shop.complete(cartId);
        await control_("faults", { webhook_duplicate_rate: 1 });
        await control_(`charges/${session.data.charge_id}/pay`, {});
        const body = {
          event: "charge.paid",
          data: { ...variant.ids(session.data.charge_id), amount: 5000, status: "paid" },
        };
        const answers = await Promise.all(
          Array.from({ length: 4 }, () => post(variant.hook, body)),
        );
        expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
        await variant.sandbox().webhooksIdle();
        await Promise.all(answers.map((a) => deliveryDone(a.data.id)));
        await paidOrder(cartId);
        expect(await capturesOfSession(container(), session.id)).toBe(1);
      });

      it("a late charge.expired after payment changes nothing: paid is final", async () => {
        const cartId = await createCart(container(), store, 60);
        const session = sessionOf(await shop.initiate(cartId, variant.provider));
        await shop.complete(cartId);
        await control_(`charges/${session.data.charge_id}/pay`, {});
        await paidOrder(cartId);
        const answer = await post(variant.hook, {
          event: "charge.expired",
          data: { ...variant.ids(session.data.charge_id), amount: 6000, status: "expired" },
        });
        expect(answer.status).toBe(200);
        await deliveryDone(answer.data.id);
        const order = await orderOfCart(container(), cartId);
        expect(order?.status).not.toBe("canceled");
        expect(order?.payment_collections[0]?.status).toBe("completed");
        expect((await chargeRow(session.data.charge_id)).status).toBe("paid");
      });

      it("a charge.expired whose charge the API reports paid captures it (the API wins over the event)", async () => {
        const cartId = await createCart(container(), store, 65);
        const session = sessionOf(await shop.initiate(cartId, variant.provider));
        await shop.complete(cartId);
        await control_("faults", { webhook_drop_rate: 1 });
        await control_(`charges/${session.data.charge_id}/pay`, {});
        await variant.sandbox().webhooksIdle();
        await post(variant.hook, {
          event: "charge.expired",
          data: { ...variant.ids(session.data.charge_id), amount: 6500, status: "expired" },
        });
        await paidOrder(cartId);
        expect((await chargeRow(session.data.charge_id)).status).toBe("paid");
      });

      it("a forged charge.paid for an unpaid charge changes nothing and is recorded as forged", async () => {
        const cartId = await createCart(container(), store, 70);
        const session = sessionOf(await shop.initiate(cartId, variant.provider));
        await shop.complete(cartId);
        const answer = await post(variant.hook, {
          event: "charge.paid",
          data: { ...variant.ids(session.data.charge_id), amount: 7000, status: "paid" },
        });
        expect(answer.status).toBe(200);
        expect((await deliveryDone(answer.data.id)).outcome).toBe("forged");
        const order = await orderOfCart(container(), cartId);
        expect(order?.payment_collections[0]?.status).toBe("awaiting");
        expect((await chargeRow(session.data.charge_id)).status).toBe("pending");
      });

      it("a charge.paid with the wrong amount is recorded as forged and captures nothing", async () => {
        const cartId = await createCart(container(), store, 75);
        const session = sessionOf(await shop.initiate(cartId, variant.provider));
        await shop.complete(cartId);
        await control_("faults", { webhook_drop_rate: 1 });
        await control_(`charges/${session.data.charge_id}/pay`, {});
        await variant.sandbox().webhooksIdle();
        const answer = await post(variant.hook, {
          event: "charge.paid",
          data: { ...variant.ids(session.data.charge_id), amount: 1, status: "paid" },
        });
        expect((await deliveryDone(answer.data.id)).outcome).toBe("forged");
        expect(await capturesOfSession(container(), session.id)).toBe(0);
      });

      it("a dropped charge.paid is reconciled within one interval", async () => {
        const cartId = await createCart(container(), store, 90);
        const session = sessionOf(await shop.initiate(cartId, variant.provider));
        await shop.complete(cartId);
        await control_("faults", { webhook_drop_rate: 1 });
        await control_(`charges/${session.data.charge_id}/pay`, {});
        await variant.sandbox().webhooksIdle();
        expect((await orderOfCart(container(), cartId))?.payment_collections[0]?.status).toBe(
          "awaiting",
        );

        const oneIntervalLater = new Date(Date.now() + 5 * 60_000 + 1_000);
        // A pass whose lock Medusa reports lost (the signal fires) takes no charge: another
        // instance may be running the same pass by then.
        const lost = new AbortController();
        lost.abort(new Error("the reconciliation lock was lost"));
        await expect(
          reconcileOnce(settleContext(container()), oneIntervalLater, lost.signal),
        ).rejects.toThrow("the reconciliation lock was lost");
        expect((await orderOfCart(container(), cartId))?.payment_collections[0]?.status).toBe(
          "awaiting",
        );
        const report = await reconcilePass(container(), oneIntervalLater);
        expect(report.settled).toBe(1);
        const order = await orderOfCart(container(), cartId);
        expect(order?.payment_collections[0]?.status).toBe("completed");
      });
    });

    it("the scheduled job runs one pass at a time under the locking module", async () => {
      const runs = await Promise.all([
        reconcilePixCheckout(container()),
        reconcilePixCheckout(container()),
      ]);
      // Both ran one after the other, or one found the lock held (null); never a crash.
      const ran = runs.filter((run) => run !== null);
      expect(ran.length).toBeGreaterThanOrEqual(1);
      for (const run of ran) expect(run.errors).toBe(0);
    });

    it("expiry of an order-first charge releases the order's reserved stock", async () => {
      const product = await createStockedProduct(container(), store);
      const inventory = container().resolve<IInventoryService>(Modules.INVENTORY);
      const reserved = async () =>
        Number(
          await inventory.retrieveReservedQuantity(product.inventoryItemId, [product.locationId]),
        );
      const cartId = await createCartWithVariant(container(), store, product.variantId);
      const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
      const completed = await shop.complete(cartId);
      expect(completed.data.type).toBe("order");
      expect(await reserved()).toBe(1);

      await control(sandboxA.url, `charges/${session.data.charge_id}/expire`, {});
      await waitFor(
        async () => (await orderOfCart(container(), cartId))?.status === "canceled",
        "the order to be canceled",
      );
      expect(await reserved()).toBe(0);
    });

    it("a payment after the merchant canceled the waiting order is owed back, not captured, and on the merchant's list", async () => {
      const cartId = await createCart(container(), store, 85);
      const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
      const completed = await shop.complete(cartId);
      await cancelOrderWorkflow(container()).run({ input: { order_id: completed.data.order.id } });
      // The order's cancel ends its code (a subscriber, after the workflow returns); the shopper
      // who still holds the QR code pays at the bank afterwards.
      await waitFor(
        async () => (await chargeRow(session.data.charge_id))?.status === "canceled",
        "the canceled order's code to end",
      );
      await control(sandboxA.url, `charges/${session.data.charge_id}/pay`, {});
      // The late payment is flagged as it arrives, and owed back in the settlement's next
      // statement: wait for what the merchant's list shows.
      const row = await waitFor(async () => {
        const r = await chargeRow(session.data.charge_id);
        return r?.owed_cents === "8500" && r;
      }, "the payment to be owed back");
      expect(row).toMatchObject({
        flagged: true,
        status: "paid",
        owed_cents: "8500",
        owed_reason: "paid_after_order_canceled",
        flag_code: "refund_due",
      });
      expect(await capturesOfSession(container(), session.id)).toBe(0);
    });

    it("a refund Medusa asks for by itself records nothing and tells the merchant what to do", async () => {
      const cartId = await createCart(container(), store, 55);
      const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
      await shop.complete(cartId);
      await control(sandboxA.url, `charges/${session.data.charge_id}/pay`, {});
      await paidOrder(cartId);
      const payment = container().resolve<IPaymentModuleService>(Modules.PAYMENT);
      const [paid] = await payment.listPayments({ payment_session_id: session.id });
      await expect(
        refundPaymentWorkflow(container()).run({ input: { payment_id: paid!.id, amount: 20 } }),
      ).rejects.toThrow(/Nothing was refunded.*Return 2000 cents.*Record refund/);
      const [after] = await payment.listPayments(
        { payment_session_id: session.id },
        { relations: ["refunds"] },
      );
      expect(after!.refunds ?? []).toHaveLength(0);
    });

    it("order-first boleto: payer data from the session builds the boleto and the document is masked", async () => {
      const cartId = await createCart(container(), store, 120);
      const created = await shop.initiate(cartId, "pp_boleto_a", BOLETO_PAYER);
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

    it("a boleto session takes the name, e-mail, phone and address from the cart and asks only for document, neighborhood and number", async () => {
      // What Medusa's starter does: a guest cart with an e-mail and a billing address, and a
      // payment session created with no data at all.
      const { result } = await createCartWorkflow(container()).run({
        input: {
          region_id: store.regionId,
          sales_channel_id: store.salesChannelId,
          currency_code: "brl",
          email: "bia@example.com",
          billing_address: {
            first_name: "Bia",
            last_name: "Lima",
            address_1: "Rua Augusta",
            city: "São Paulo",
            province: "br-sp",
            postal_code: "01310-100",
            phone: "11987654321",
            country_code: "br",
          },
          items: [{ title: "Camiseta", quantity: 1, unit_price: 90, requires_shipping: false }],
        },
      });
      const bare = await shop.initiate(result.id, "pp_boleto_a");
      expect(bare.status).toBe(400);
      expect(bare.data.code).toBe("missing_payer_data");
      expect(bare.data.message).toMatch(/payer's document, neighborhood, number\./);
      expect(bare.data.message).not.toMatch(/email|phone|postal_code|city|name/);

      const created = await shop.initiate(result.id, "pp_boleto_a", {
        document: "529.982.247-25",
        neighborhood: "Consolação",
        number: "100",
      });
      expect(created.status).toBe(200);
      const session = sessionOf(created);
      expect(session.data.boleto.url).toEqual(expect.any(String));
    });

    describe("the buyer's CPF/CNPJ on every order (buyerDocument: every_order)", () => {
      const NF = "pp_pix_nf";
      /** The payer the service stored with the charge (the sandbox's control route). */
      const servicePayer = async (chargeId: string) =>
        (await (await fetch(`${sandboxA.url}/__sandbox/charges/${chargeId}/payer`)).json()) as Json;
      /** Medusa's order's metadata, once the plugin wrote the document on it. */
      const documentOnOrder = (cartId: string) =>
        waitFor(async () => {
          const order = await orderOfCart(container(), cartId);
          if (!order) return false;
          const query = container().resolve(ContainerRegistrationKeys.QUERY);
          const { data } = await query.graph({
            entity: "order",
            fields: ["metadata"],
            filters: { id: order.id },
          });
          const metadata = (data[0] as { metadata?: Json } | undefined)?.metadata;
          return metadata?.pix_checkout_buyer_document ?? false;
        }, "the buyer's document on Medusa's order");

      it("tells the storefront, on the route it reads the Pix discount from", async () => {
        const cartId = await createCart(container(), store, 10);
        const chosen = await shop.call("get", `/store/pix-checkout/carts/${cartId}/payment-method`);
        expect(chosen.status).toBe(200);
        expect(chosen.data.buyer_document).toBe("every_order");
      });

      it("pay-first: the service gets customer.document, and Medusa's order carries it", async () => {
        const cartId = await createCart(container(), store, 30);
        const created = await shop.initiate(cartId, NF, { document: "12.abc.345/01de-35" });
        expect(created.status).toBe(200);
        const session = sessionOf(created);
        // Public: the session says it only masked.
        expect(JSON.stringify(session.data)).not.toContain("12ABC34501DE35");
        expect(await servicePayer(session.data.charge_id)).toMatchObject({
          document: "12ABC34501DE35",
        });
        await control(sandboxA.url, `charges/${session.data.charge_id}/pay`, {});
        await paidOrder(cartId);
        expect(await documentOnOrder(cartId)).toEqual({ type: "cnpj", number: "12ABC34501DE35" });
      });

      it("order-first: the order placed before payment carries it at once", async () => {
        const cartId = await createCart(container(), store, 31);
        const session = sessionOf(
          await shop.initiate(cartId, NF, { document: "529.982.247-25", email: "ana@example.com" }),
        );
        expect(await servicePayer(session.data.charge_id)).toMatchObject({
          email: "ana@example.com",
          document: "52998224725",
        });
        const completed = await shop.complete(cartId);
        expect(completed.data.type).toBe("order");
        expect(await documentOnOrder(cartId)).toEqual({ type: "cpf", number: "52998224725" });
        // Never in a log line (LGPD).
        expect(output.join("\n")).not.toContain("52998224725");
      });

      it("asks it once: a new code of the same cart (the element's 'Gerar novo código') keeps the document", async () => {
        const cartId = await createCart(container(), store, 34);
        const first = sessionOf(await shop.initiate(cartId, NF, { document: "529.982.247-25" }));
        await control(sandboxA.url, `charges/${first.data.charge_id}/expire`, {});
        await waitFor(
          async () => (await chargeRow(first.data.charge_id))?.status === "expired",
          "the first code to expire",
        );
        // A request that names no earlier code is not tied to the shopper who gave the
        // document (a collection's id is no proof of who asks): it is asked again.
        const untied = await shop.initiate(cartId, NF);
        expect(untied.status).toBe(400);
        expect(untied.data.code).toBe("missing_payer_data");
        // What the element sends after expiry: the provider, and the code it renews.
        const renewed = await shop.initiate(cartId, NF, { renews: first.id });
        expect(renewed.status).toBe(200);
        const session = sessionOf(renewed);
        expect(session.data.charge_id).not.toBe(first.data.charge_id);
        expect((await servicePayer(session.data.charge_id)).document).toBe("52998224725");
      });

      it("an order edit's payment link makes a Pix with the document the order carries, which nobody who opens the link reads back", async () => {
        const product = await createStockedProduct(container(), store);
        const cartId = await createCartWithVariant(container(), store, product.variantId);
        const first = sessionOf(await shop.initiate(cartId, NF, { document: "529.982.247-25" }));
        await control(sandboxA.url, `charges/${first.data.charge_id}/pay`, {});
        const order = await paidOrder(cartId);
        expect(await documentOnOrder(cartId)).toEqual({ type: "cpf", number: "52998224725" });
        const admin = adminClient(
          api as unknown as Api,
          await adminLogin(container(), "edit-nf@example.com"),
        );
        await editOrder(admin, order.id, product.variantId, 1);
        const collection = await unpaidCollection(admin, order.id);
        const base = (api as unknown as Api).defaults.baseURL as string;
        // Whoever holds Medusa's copied link: the page has no field for the CPF.
        const page = await openPage(base, copiedLink(collection.id, order.id));
        expect(page.status).toBe(200);
        const made = await tap(base, page.data!, NF);
        expect(made.status).toBe(200);
        expect(JSON.stringify(made.body)).not.toMatch(/52998224725|\*{9}25/);
        const charge = await db(container())("pix_checkout_charge")
          .where({ session_id: made.session!.id })
          .first();
        expect(await servicePayer(charge.charge_id)).toMatchObject({ document: "52998224725" });
      });

      it("refuses a Pix without the document, or with a wrong one, with a 400 and its code, charging nothing", async () => {
        const cartId = await createCart(container(), store, 32);
        const before = await db(container())("pix_checkout_charge").count({ n: "*" }).first();
        const missing = await shop.initiate(cartId, NF);
        expect(missing.status).toBe(400);
        expect(missing.data.code).toBe("missing_payer_data");
        expect(missing.data.message).toMatch(/CPF ou CNPJ/);
        const wrong = await shop.initiate(cartId, NF, { document: "529.982.247-26" });
        expect(wrong.status).toBe(400);
        expect(wrong.data.code).toBe("invalid_payer_data");
        expect(wrong.data.message).not.toContain("247");
        // With the option off a document sent is checked all the same.
        const off = await shop.initiate(cartId, "pp_pix_a", { document: "111.111.111-11" });
        expect(off.status).toBe(400);
        expect(off.data.code).toBe("invalid_payer_data");
        const after = await db(container())("pix_checkout_charge").count({ n: "*" }).first();
        expect(Number(after?.n)).toBe(Number(before?.n));
      });

      it("with the option off a Pix without the document still works, and its order has none", async () => {
        const cartId = await createCart(container(), store, 33);
        const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
        expect((await servicePayer(session.data.charge_id)).document).toBeUndefined();
        expect((await shop.complete(cartId)).data.type).toBe("order");
        const order = await orderOfCart(container(), cartId);
        const query = container().resolve(ContainerRegistrationKeys.QUERY);
        const { data } = await query.graph({
          entity: "order",
          fields: ["metadata"],
          filters: { id: order!.id },
        });
        expect(
          (data[0] as { metadata?: Json }).metadata?.pix_checkout_buyer_document,
        ).toBeUndefined();
      });

      // A valid CNPJ that is not the buyer's: what a shopper would plant (issue #68).
      const PLANTED = { type: "cnpj", number: "11222333000181" };

      it("Medusa's cart routes refuse the plugin's metadata keys with 400 reserved_cart_metadata, and the cart keeps its metadata", async () => {
        const cartId = await createCart(container(), store, 35);
        for (const key of ["pix_checkout_buyer_document", "PIX_Checkout_Buyer_Document"]) {
          const planted = await shop.call("post", `/store/carts/${cartId}`, {
            metadata: { gift_note: "Feliz aniversário", [key]: PLANTED },
          });
          expect(planted.status).toBe(400);
          expect(planted.data.code).toBe("reserved_cart_metadata");
          expect(planted.data.message).toContain(`metadata.${key} is the Pix Checkout plugin's`);
          expect(planted.data.message).toMatch(/remove it from this request/);
        }
        const created = await shop.call("post", "/store/carts", {
          region_id: store.regionId,
          metadata: { pix_checkout_buyer_document: PLANTED },
        });
        expect(created.status).toBe(400);
        expect(created.data.code).toBe("reserved_cart_metadata");
        const line = await shop.call("post", `/store/carts/${cartId}/line-items`, {
          variant_id: "variant_any",
          quantity: 1,
          metadata: { pix_checkout_buyer_document: PLANTED },
        });
        expect(line.status).toBe(400);
        expect(line.data.code).toBe("reserved_cart_metadata");
        // Nothing of a refused request was written, not even the store's own key beside it.
        expect((await shop.cart(cartId)).data.cart.metadata ?? {}).toEqual({});
        // The store's own keys go through as before.
        const own = await shop.call("post", `/store/carts/${cartId}`, {
          metadata: { gift_note: "Feliz aniversário" },
        });
        expect(own.status).toBe(200);
        expect(own.data.cart.metadata).toEqual({ gift_note: "Feliz aniversário" });
      });

      it("a document on the cart the store routes never saw (an older release, Medusa's cart module) reaches neither the order, the admin's order page, the CSV nor the OFX", async () => {
        const cartId = await createCart(container(), store, 36);
        await container()
          .resolve(Modules.CART)
          .updateCarts(cartId, {
            metadata: {
              gift_note: "Feliz aniversário",
              pix_checkout_buyer_document: PLANTED,
              PIX_CHECKOUT_NOTE: "pago",
            },
          });
        // A Pix of the default registration (`buyerDocument: "boleto"`): it carries no document.
        const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
        expect((await shop.complete(cartId)).data.type).toBe("order");
        const order = (await orderOfCart(container(), cartId))!;
        const adminHeaders = await adminLogin(container(), "nf-e@example.com");
        const admin = (url: string) =>
          (api as unknown as Api).request({
            method: "get",
            url,
            headers: adminHeaders,
            validateStatus: () => true,
          });
        // Medusa copied the cart's metadata onto the order; order.placed takes out the keys the
        // plugin did not write and leaves the store's own. What the order widget reads.
        const placed = await waitFor(async () => {
          const { data } = await admin(`/admin/orders/${order.id}?fields=%2Bmetadata`);
          const metadata = data.order?.metadata as Record<string, unknown> | null | undefined;
          return (
            metadata && !Object.keys(metadata).some((k) => /pix_checkout/i.test(k)) && metadata
          );
        }, "the order's metadata without the planted keys");
        expect(placed).toEqual({ gift_note: "Feliz aniversário" });

        await control(sandboxA.url, `charges/${session.data.charge_id}/pay`, {});
        await paidOrder(cartId);
        const period = `from=${saoPauloDay(new Date())}&to=${saoPauloDay(new Date())}`;
        const csv = String((await admin(`/admin/pix-checkout/reconciliation.csv?${period}`)).data);
        const rows = csv.split("\r\n");
        const column = (rows[0] ?? "").split(";").indexOf("CPF/CNPJ do comprador");
        expect(column).toBeGreaterThan(0);
        const row = rows.find((r) => r.includes(session.data.charge_id));
        expect(row?.split(";")[column]).toBe("");
        const ofx = String((await admin(`/admin/pix-checkout/reconciliation.ofx?${period}`)).data);
        const transaction = ofx
          .split("<STMTTRN>")
          .find((t) => new RegExp(`<FITID>${session.data.charge_id}\\r?\\n`).test(t));
        expect(transaction).toEqual(expect.any(String));
        expect(transaction).not.toMatch(/CNPJ|CPF|11\.?222/);
      });
    });

    it("initiating the same cart again reuses the unexpired charge", async () => {
      const cartId = await createCart(container(), store, 40);
      const first = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
      const second = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
      expect(second.id).not.toBe(first.id);
      expect(second.data.charge_id).toBe(first.data.charge_id);
    });

    it("a tab still on the first session shows the code a later session of the cart reuses, and its payment", async () => {
      const cartId = await createCart(container(), store, 41);
      const first = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
      const second = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
      expect(second.data.charge_id).toBe(first.data.charge_id);
      const told = async (id: string) =>
        (await shop.call("get", `/store/pix-checkout/sessions/${id}`)) as {
          status: number;
          data: Json;
        };
      const before = await told(first.id);
      expect(before.status).toBe(200);
      expect(before.data).toMatchObject({ session_id: first.id, status: "pending" });
      expect(before.data.pix.copy_paste).toBe((await told(second.id)).data.pix.copy_paste);
      // The stream of the first session hears the payment too.
      const stream = await fetch(
        `${(api as unknown as Api).defaults.baseURL}/store/pix-checkout/sessions/${first.id}/stream`,
        { headers: { "x-publishable-api-key": store.publishableKey } },
      );
      expect(stream.status).toBe(200);
      await control(sandboxA.url, `charges/${first.data.charge_id}/pay`, {});
      const reader = stream.body!.getReader();
      let text = "";
      await waitFor(async () => {
        const { value, done } = await reader.read();
        text += new TextDecoder().decode(value ?? new Uint8Array());
        return done || /"status":"paid"/.test(text);
      }, "the first session's stream to say paid");
      await reader.cancel();
      expect(text).toContain(`"session_id":"${first.id}"`);
      expect((await told(first.id)).data.status).toBe("paid");
    });

    it("a Pix session during a payment-service outage gets a 409 saying to try again, not a 500", async () => {
      const cartId = await createCart(container(), store, 40);
      await control(sandboxA.url, "faults", { http_5xx_rate: 1 });
      const created = await shop.initiate(cartId, "pp_pix_a");
      // Medusa's error handler answers every CONFLICT with its own retry text and code.
      expect(created.status).toBe(409);
      expect(created.data.message).toMatch(/retry/i);
    });

    it("a paid cart that could not become an order is completed by reconciliation once it can", async () => {
      // An item that needs shipping, with no shipping method yet: Medusa's own completion
      // after capture fails here (and Medusa swallows that failure).
      const { cartId, makeCompletable } = await createUncompletableCart(container(), store, 30);
      const cart = { id: cartId };
      const session = sessionOf(await shop.initiate(cart.id, "pp_pix_a"));
      const chargeId = session.data.charge_id as string;
      await control(sandboxA.url, `charges/${chargeId}/pay`, {});
      await waitFor(async () => {
        const kinds = await db(container())("pix_checkout_charge_event")
          .where({ charge_id: chargeId })
          .pluck("kind");
        return kinds.includes("cart_completion_failed");
      }, "the failed cart completion to be recorded");
      // The webhook's own work is over (its delivery finished), so the pass below is the door.
      await waitFor(
        async () =>
          !(await db(container())("pix_checkout_webhook_delivery").where({ outcome: "received" }))
            .length,
        "the delivery to be finished",
      );
      expect(await orderOfCart(container(), cart.id)).toBeUndefined();

      // The cart becomes completable (here: its item no longer needs shipping).
      await makeCompletable();
      // A pass past the grace a capture's own follow-up has.
      const report = await reconcilePass(container(), new Date(Date.now() + 60_000));
      expect(report.cartsCompleted).toBe(1);
      const order = await orderOfCart(container(), cart.id);
      expect(order?.payment_collections[0]?.status).toBe("completed");
      expect(await capturesOfSession(container(), session.id)).toBe(1);
    });

    it("a capture left half-done by a process that died is taken over once its claim lapses", async () => {
      const cartId = await createCart(container(), store, 95);
      const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
      const chargeId = session.data.charge_id as string;
      await shop.complete(cartId);
      await control(sandboxA.url, "faults", { webhook_drop_rate: 1 });
      await control(sandboxA.url, `charges/${chargeId}/pay`, {});
      await sandboxA.webhooksIdle();
      // A process recorded the payment, took the capture and died before capturing.
      const { ledger, captures } = settleContext(container()).records;
      const cents = Number((await chargeRow(chargeId)).amount_cents);
      await ledger.arrive(chargeId, ["pending"], arrivalOf(cents, cents), "webhook", {
        paid_at: new Date(),
      });
      expect(
        await captures.claim(chargeId, { door: "settlement", id: "a process that died" }, cents),
      ).toBe(true);

      // A live claim is its holder's: reconciliation leaves it alone.
      await reconcilePass(container());
      expect(await capturesOfSession(container(), session.id)).toBe(0);

      await db(container())("pix_checkout_charge")
        .where({ charge_id: chargeId })
        .update({ capture_claimed_at: db(container()).raw("now() - interval '3 minutes'") });
      // This pass, or the app's own scheduled one (every 15 s) just before it, takes it over:
      // which of the two does is the schedule's business, that one of them does is the test's.
      await reconcilePass(container());
      expect((await orderOfCart(container(), cartId))?.payment_collections[0]?.status).toBe(
        "completed",
      );
      expect((await chargeRow(chargeId)).captured_at).not.toBeNull();

      await reconcilePass(container());
      expect(await capturesOfSession(container(), session.id)).toBe(1);
    });

    it("paid before completing the cart: completion captures once, and the plugin records it without capturing again", async () => {
      const cartId = await createCart(container(), store, 97);
      const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
      const chargeId = session.data.charge_id as string;
      await control(sandboxA.url, "faults", { webhook_drop_rate: 1 });
      await control(sandboxA.url, `charges/${chargeId}/pay`, {});
      await sandboxA.webhooksIdle();
      const completed = await shop.complete(cartId);
      expect(completed.data.type).toBe("order");
      expect(completed.data.order.payment_collections[0].status).toBe("completed");

      // The late webhook finds the capture claimed by cart completion and leaves it alone.
      const answer = await post(`/hooks/pix-checkout/a?token=${WEBHOOK_SECRET}`, {
        event: "charge.paid",
        data: { uuid: chargeId, amount: 9700, status: "paid" },
      });
      expect((await deliveryDone(answer.data.id)).outcome).toBe("duplicate");
      expect(await capturesOfSession(container(), session.id)).toBe(1);

      // Once that claim's lease is over, reconciliation records Medusa's capture as it is.
      await db(container())("pix_checkout_charge")
        .where({ charge_id: chargeId })
        .update({ capture_claimed_at: db(container()).raw("now() - interval '3 minutes'") });
      await reconcilePass(container());
      await reconcilePass(container());
      expect(await capturesOfSession(container(), session.id)).toBe(1);
      expect((await chargeRow(chargeId)).captured_at).not.toBeNull();
      const captured = await db(container())("pix_checkout_charge_event")
        .where({ charge_id: chargeId, kind: "captured" })
        .select("detail");
      expect(captured).toHaveLength(1);
      expect(captured[0].detail).toMatchObject({ by: "cart completion" });
    });

    it("a payment whose session vanished from Medusa, with no session left for its amount, is a refund due at once, not three failed captures", async () => {
      const cartId = await createCart(container(), store, 33);
      const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
      const chargeId = session.data.charge_id as string;
      await control(sandboxA.url, "faults", { webhook_drop_rate: 1 });
      await control(sandboxA.url, `charges/${chargeId}/pay`, {});
      await sandboxA.webhooksIdle();
      // A session gone from Medusa's tables without Medusa telling the provider (a restore, a
      // manual cleanup): no real flow does this on demand, so the row is removed by hand.
      await db(container())("payment_session")
        .where({ id: session.id })
        .update({ deleted_at: new Date() });

      const oneIntervalLater = new Date(Date.now() + 5 * 60_000 + 1_000);
      for (let pass = 0; pass < 4; pass += 1) {
        await reconcilePass(container(), oneIntervalLater);
      }
      const failures = await db(container())("pix_checkout_charge_event").where({
        charge_id: chargeId,
        kind: "capture_failed",
      });
      expect(failures).toHaveLength(0);
      const row = await chargeRow(chargeId);
      expect(row).toMatchObject({
        status: "paid",
        owed_reason: "paid_old_amount",
        held_cents: "0",
        flagged: true,
        captured_at: null,
      });
      expect(row.flag_code).toBe("refund_due");
      expect(await capturesOfSession(container(), session.id)).toBe(0);
      expect(output.join("\n")).toContain(`charge ${chargeId} needs the merchant`);
    });

    it("records transfer.completed after checking it against the transaction list", async () => {
      const funded = await createCart(container(), store, 200);
      const session = sessionOf(await shop.initiate(funded, "pp_pix_a"));
      await control(sandboxA.url, `charges/${session.data.charge_id}/pay`, {});
      await paidOrder(funded);
      // Variant A names the withdrawal by `uuid`, like its charges.
      const withdrawal = (await (
        await control(sandboxA.url, "withdrawals", { amount: 1000 })
      ).json()) as { uuid: string };
      await control(sandboxA.url, `withdrawals/${withdrawal.uuid}/complete`, {});
      await sandboxA.webhooksIdle();
      const delivery = await waitFor(async () => {
        const row = await db(container())("pix_checkout_webhook_delivery")
          .where({ event: "transfer.completed" })
          .first();
        return row && row.outcome !== "received" && row;
      }, "the transfer delivery to be recorded");
      expect(delivery.outcome).toBe("recorded");
      expect(delivery.detail).toBe("verified");
      expect(delivery.charge_id).toBeNull();
    });

    it("a charge.paid for a charge this store never created changes nothing and is logged", async () => {
      const answer = await post(`/hooks/pix-checkout/a?token=${WEBHOOK_SECRET}`, {
        event: "charge.paid",
        data: { uuid: "0d6f3c1e-5b7a-4c2e-9f10-3a5b7c9d1e2f", amount: 5000, status: "paid" },
      });
      expect(answer.status).toBe(200);
      expect((await deliveryDone(answer.data.id)).outcome).toBe("unmatched");
      expect(await db(container())("pix_checkout_charge").count({ n: "*" })).toEqual([{ n: "0" }]);
      expect(output.join("\n")).toContain("names charge 0d6f3c1e-5b7a-4c2e-9f10-3a5b7c9d1e2f");
    });

    it("a webhook for an unknown provider id gets 404 provider_not_found", async () => {
      const answer = await post("/hooks/pix-checkout/nope", {
        event: "charge.paid",
        data: { uuid: "x", amount: 500, status: "paid" },
      });
      expect(answer.status).toBe(404);
      expect(answer.data.code).toBe("provider_not_found");
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
      await reconcilePass(container(), new Date(Date.now() + 60_000));
      await waitFor(
        async () =>
          (await orderOfCart(container(), cartId))?.payment_collections[0]?.status === "completed",
        "the order to be paid",
      );
      expect(await capturesOfSession(container(), session.id)).toBe(1);
    });

    it("reports a Pix checkout's create, webhook, settle, capture and reconciliation as spans and metrics without secrets or payer data", async () => {
      // A boleto create carries the payer's document, e-mail and name to the API.
      await shop.initiate(await createCart(container(), store, 120), "pp_boleto_a", BOLETO_PAYER);
      const cartId = await createCart(container(), store, 64.9);
      const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
      const chargeId = session.data.charge_id as string;
      await shop.complete(cartId);
      await control(sandboxA.url, `charges/${chargeId}/pay`, {});
      const of = (name: string) =>
        telemetry
          .spans()
          .filter((s) => s.name === name && s.attributes["pix_checkout.charge_id"] === chargeId);
      // A span is exported when it ends: the capture's ends inside its settle, whose follow-ups
      // (Medusa's order transactions, the `captured` event) keep it open a while longer.
      const [capture] = await waitFor(async () => {
        const found = of("pix_checkout.capture");
        const parent = found[0]?.parentSpanContext?.spanId;
        return of("pix_checkout.settle").some((s) => s.spanContext().spanId === parent) && found;
      }, "the capture span and the settle span it ran in");
      // Earlier tests' passes are in the same exporter (one aborts its pass on purpose): this
      // test reads the spans of its own pass.
      const spansBefore = telemetry.spans().length;
      await reconcilePass(container());

      const [create] = of("pix_checkout.create");
      expect(create?.attributes).toMatchObject({
        "pix_checkout.session_id": session.id,
        "pix_checkout.provider_id": "pp_pix_a",
        "pix_checkout.method": "pix",
        "pix_checkout.variant": "a",
        "pix_checkout.outcome": "created",
      });
      expect(create?.attributes["pix_checkout.create.line_wait_ms"]).toEqual(expect.any(Number));
      // The verification runs after the 200, still in the delivery's trace. A busy machine may
      // see the delivery sent twice; the one whose verification settled the charge is read.
      const webhooks = of("pix_checkout.webhook").filter(
        (s) => s.attributes["pix_checkout.event"] === "charge.paid",
      );
      const settle = of("pix_checkout.settle").find(
        (s) =>
          s.attributes["pix_checkout.outcome"] === "processed" &&
          webhooks.some((w) => s.parentSpanContext?.spanId === w.spanContext().spanId),
      );
      const webhook = webhooks.find(
        (w) => w.spanContext().spanId === settle?.parentSpanContext?.spanId,
      );
      expect(webhook?.attributes).toMatchObject({
        "pix_checkout.registration": "a",
        "pix_checkout.outcome": "stored",
        "pix_checkout.delivery_id": expect.any(String),
      });
      expect(settle?.attributes).toMatchObject({
        "pix_checkout.source": "webhook",
        "pix_checkout.outcome": "processed",
        "pix_checkout.status": "paid",
        "pix_checkout.session_id": session.id,
      });
      expect(capture?.parentSpanContext?.spanId).toBe(settle?.spanContext().spanId);
      expect(capture?.attributes).toMatchObject({
        "pix_checkout.session_id": session.id,
        "pix_checkout.outcome": "processed",
      });
      const reconcile = telemetry
        .spans()
        .slice(spansBefore)
        .find((s) => s.name === "pix_checkout.reconcile");
      expect(reconcile?.attributes["pix_checkout.reconcile.checked"]).toEqual(expect.any(Number));

      const collected = await telemetry.collect();
      const points = (name: string) =>
        collected.find((m) => m.descriptor.name === name)?.dataPoints ?? [];
      expect(points("pix_checkout.webhook.lag")).toContainEqual(
        expect.objectContaining({
          attributes: { "pix_checkout.event": "charge.paid", "pix_checkout.registration": "a" },
        }),
      );
      expect(points("pix_checkout.capture.lag")).toContainEqual(
        expect.objectContaining({
          attributes: expect.objectContaining({ "pix_checkout.method": "pix" }),
        }),
      );
      const apiCalls = points("pix_checkout.api.duration").map((p) => p.attributes);
      expect(apiCalls).toContainEqual({
        "pix_checkout.api.operation": "create",
        "pix_checkout.api.code": "ok",
        "pix_checkout.variant": "a",
      });
      expect(apiCalls).toContainEqual(
        expect.objectContaining({ "pix_checkout.api.operation": "retrieve" }),
      );
      expect(points("pix_checkout.create.slots_limit")).toContainEqual(
        expect.objectContaining({ value: expect.any(Number) }),
      );
      // What needs the merchant, one point per kind of need (zero included).
      expect(
        points("pix_checkout.charges.attention")
          .map((p) => p.attributes["pix_checkout.attention"])
          .sort(),
      ).toEqual(["held", "med", "no_order", "not_captured", "note", "refund_due"]);
      // The ledger's money owed back and held, in cents, as its balances say.
      const [waiting] = (
        await db(container()).raw(
          `select coalesce(sum(held_cents), 0)::int as held, coalesce(sum(owed_cents), 0)::int as owed
             from pix_checkout_charge where deleted_at is null`,
        )
      ).rows;
      expect(
        Object.fromEntries(
          points("pix_checkout.ledger.outstanding").map((p) => [
            p.attributes["pix_checkout.part"],
            p.value,
          ]),
        ),
      ).toEqual({ held: waiting.held, owed: waiting.owed });

      const exported = JSON.stringify([
        telemetry.spans().map((s) => ({ a: s.attributes, e: s.events, st: s.status })),
        collected.map((m) => m.dataPoints.map((p) => p.attributes)),
      ]);
      for (const secret of [
        "sk_live_",
        WEBHOOK_SECRET,
        "52998224725",
        BOLETO_PAYER.document,
        BOLETO_PAYER.email,
        BOLETO_PAYER.billing_address.last_name,
        BOLETO_PAYER.billing_address.address_1,
        // The CNPJ the buyerDocument tests above paid with.
        "12ABC34501DE35",
      ]) {
        expect(exported).not.toContain(secret);
      }
    });

    it("never shows the secret key in store responses, session data or log output", async () => {
      const cartId = await createCart(container(), store, 80);
      const created = await shop.initiate(cartId, "pp_pix_a");
      const cart = await shop.cart(cartId);
      expect(JSON.stringify(created.data)).not.toContain(API_KEY);
      expect(JSON.stringify(cart.data)).not.toContain(API_KEY);
      expect(JSON.stringify(cart.data)).not.toContain("sk_live_");
      const logged = output.join("\n");
      // The tap works: the plugin's own lines are in it.
      expect(logged).toContain("[pix-checkout] created pix charge");
      expect(logged).not.toContain(API_KEY);
      expect(logged).not.toContain(WEBHOOK_SECRET);
    });

    it("no line logged during the suite carries a payer's CPF, CNPJ, e-mail, name or street", async () => {
      // A payer of its own, so the scan means something when this test runs alone: an
      // order-first boleto (the order-placed subscriber writes the CPF on the order), then paid
      // (webhook, fetch-back, capture). The buyerDocument tests above paid with a CNPJ.
      const payer = {
        ...BOLETO_PAYER,
        email: "lgpd.titular@example.com",
        billing_address: {
          ...BOLETO_PAYER.billing_address,
          first_name: "Lúcia",
          last_name: "Privacidade",
          address_1: "Rua do Sigilo",
        },
      };
      const cartId = await createCart(container(), store, 47);
      const boleto = sessionOf(await shop.initiate(cartId, "pp_boleto_a", payer));
      expect((await shop.complete(cartId)).data.type).toBe("order");
      await control(sandboxA.url, `charges/${boleto.data.charge_id}/pay`, {});
      await paidOrder(cartId);

      const logged = output.join("\n");
      // The tap works: this test's own lines are in it.
      expect(logged).toContain(`created boleto charge ${boleto.data.charge_id}`);
      for (const personal of [
        "52998224725",
        "529.982.247-25",
        "12ABC34501DE35",
        "12.ABC.345/01DE-35",
        payer.email,
        BOLETO_PAYER.email,
        payer.billing_address.last_name,
        payer.billing_address.address_1,
        BOLETO_PAYER.billing_address.address_1,
      ]) {
        expect(logged.toLowerCase()).not.toContain(personal.toLowerCase());
      }
    });
  },
});
