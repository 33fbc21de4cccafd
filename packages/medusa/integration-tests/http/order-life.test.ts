import path from "node:path";
import { medusaIntegrationTestRunner } from "@medusajs/test-utils";
import type { Sandbox } from "@pix-checkout/sandbox" with { "resolution-mode": "import" };
import type { IPaymentModuleService, MedusaContainer } from "@medusajs/framework/types";
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils";
import { startAppSandboxes } from "../helpers/sandboxes";
import {
  createCartWithVariant,
  createStockedProduct,
  createStoreFixture,
  type StockedProduct,
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
import { adminLogin } from "../helpers/admin-login";
import { adminClient, adminOrder, type Admin } from "../helpers/order-changes";
import { copiedLink, openPage } from "../helpers/payment-page";
import { reconcilePass } from "../helpers/reconcile-pass";
import { waitFor } from "../helpers/wait-for";
import { providerByKey } from "../../src/internal/platform/provider-registry";
import { recordsOf } from "../../src/internal/records/records";
import { arrivalOf } from "../../src/internal/settlement/decide";
import { CreateQueue, ENDED_REQUEST_RETENTION_MS } from "../../src/internal/create-line/queue";
import { withRefusedInserts } from "../helpers/injected-failure";

// An order has a life after its cart: Medusa rewrites an unpaid order's collection in place
// when the merchant edits it, a merchant refunds a capture without canceling the order, a code
// made in a busy minute can fail after its cart became an order, and a shopper can switch to
// a card while a payment lands. Each story is told through the doors that show it (Medusa's
// admin and store routes, the sandbox's payments and webhooks), and each ends with Medusa's own
// records and the ledger telling the same story: Medusa never holds more than the order costs,
// every real the order cannot keep is owed back and listed, and what is still owed can be paid.

const API_KEY = "sk_live_order_life_5ecret";
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
    let product: StockedProduct;
    let shop: ReturnType<typeof storefront>;
    let admin: Admin;
    let base: string;
    const container = (): MedusaContainer => getContainer();
    const http = api as unknown as Api;

    beforeAll(async () => {
      store = await createStoreFixture(container(), [OTHER]);
      shop = storefront(http, store);
      base = http.defaults.baseURL as string;
      await control(sandbox.url, "webhook-urls", {
        url: `${base}/hooks/pix-checkout/a?token=${WEBHOOK_SECRET}`,
      });
      admin = adminClient(http, await adminLogin(container(), "lojista@example.com"));
      product = await createStockedProduct(container(), store, 1_000);
    });

    const knex = () => db(container());
    const chargeRow = (chargeId: string) =>
      knex()("pix_checkout_charge").where({ charge_id: chargeId }).first();
    const lastSession = (response: { data: Json }) => {
      const sessions = response.data.payment_collection.payment_sessions as Json[];
      return sessions[sessions.length - 1] as { id: string; data: Json };
    };
    const liveSessions = async (collectionId: string) => {
      const payments = container().resolve<IPaymentModuleService>(Modules.PAYMENT);
      return payments.listPaymentSessions({ payment_collection_id: collectionId });
    };
    /** What Medusa holds captured less refunded on a collection, in cents, with its captures. */
    const medusaMoney = async (collectionId: string) => {
      const { data } = await container()
        .resolve(ContainerRegistrationKeys.QUERY)
        .graph({
          entity: "payment_collection",
          fields: [
            "payments.provider_id",
            "payments.canceled_at",
            "payments.authorized_amount",
            "payments.captures.id",
            "payments.captures.raw_amount",
            "payments.refunds.raw_amount",
          ],
          filters: { id: collectionId },
        });
      const payments = ((data[0] as Json)?.payments ?? []) as Json[];
      const cents = (value: Json) => Math.round(Number(value?.value ?? value) * 100);
      const captures = payments.flatMap((p) => p.captures ?? []);
      return {
        payments,
        captureIds: captures.map((c: Json) => c.id as string),
        net:
          captures.reduce((s: number, c: Json) => s + cents(c.raw_amount), 0) -
          payments
            .flatMap((p) => p.refunds ?? [])
            .reduce((s: number, r: Json) => s + cents(r.raw_amount), 0),
      };
    };
    /** The ledger's capture entries of a collection's charges, each naming a Medusa capture. */
    const ledgerCaptures = async (collectionId: string) =>
      (await knex()("pix_checkout_ledger_entry")
        .where({ payment_collection_id: collectionId, to_part: "captured" })
        .select("medusa_ref", "amount_cents")) as { medusa_ref: string; amount_cents: string }[];
    const listed = async () =>
      new Set(
        (
          (await admin("get", "/admin/pix-checkout/charges?needs_attention=true&limit=200"))
            .charges as Json[]
        ).map((c) => c.charge_id as string),
      );
    const income = async () => {
      const periods = (await admin("get", "/admin/pix-checkout/overview")).periods;
      return periods.month.pix.income_cents + periods.month.boleto.income_cents;
    };
    /** The order's payment link asks for a new Pix of `collectionId` (Medusa's store route). */
    const linkCode = (collectionId: string) =>
      shop.call("post", `/store/payment-collections/${collectionId}/payment-sessions`, {
        provider_id: "pp_pix_a",
      });
    /** Waits for Medusa's refusal of a charge's capture, on the charge's timeline. */
    const captureRefused = (chargeId: string) =>
      waitFor(
        () =>
          knex()("pix_checkout_charge_event")
            .where({ charge_id: chargeId, kind: "capture_failed" })
            .first(),
        "the refused capture on the timeline",
        30_000,
      );
    /** Waits until some of a charge's money is owed back; its row then. */
    const owedBack = (chargeId: string, what: string) =>
      waitFor(
        async () => {
          const current = await chargeRow(chargeId);
          return Number(current.owed_cents) > 0 && current;
        },
        what,
        30_000,
      );
    /** Waits until a paid charge's money is decided: nothing held for Medusa's capture. */
    const decided = (chargeId: string) =>
      waitFor(
        async () => {
          const row = await chargeRow(chargeId);
          return (
            row?.status === "paid" &&
            !(Number(row.held_cents) > 0 && row.held_reason !== "underpaid") &&
            row
          );
        },
        `charge ${chargeId}'s money to be decided`,
        30_000,
      );
    const pay = async (chargeId: string, sb: Sandbox = sandbox) => {
      expect((await control(sb.url, `charges/${chargeId}/pay`, {})).ok).toBe(true);
      return decided(chargeId);
    };
    const setQuantity = async (cartId: string, quantity: number) => {
      const cart = (await shop.cart(cartId)).data.cart;
      const line = cart.items[0];
      const updated = await shop.call("post", `/store/carts/${cartId}/line-items/${line.id}`, {
        quantity,
      });
      expect(updated.status).toBe(200);
    };
    /** A cart of `units` units of the stocked product (R$ 35,00 each). */
    const cartOf = async (units: number) => {
      const cartId = await createCartWithVariant(container(), store, product.variantId);
      if (units !== 1) await setQuantity(cartId, units);
      return cartId;
    };
    /** An order placed before its boleto was paid (order-first), and its boleto's charge. */
    const orderFirstBoleto = async (units: number) => {
      const cartId = await cartOf(units);
      const session = lastSession(await shop.initiate(cartId, "pp_boleto_a", BOLETO_PAYER));
      const chargeId = session.data.charge_id as string;
      expect(chargeId).toEqual(expect.any(String));
      const completed = await shop.complete(cartId);
      expect(completed.data.type).toBe("order");
      const order = completed.data.order as Json;
      const collectionId = (await orderOfCart(container(), cartId))!.payment_collections[0]!.id;
      return { cartId, orderId: order.id as string, chargeId, sessionId: session.id, collectionId };
    };
    /** Confirms an order edit that sets the order's only item to `quantity` units. */
    const editQuantity = async (orderId: string, quantity: number) => {
      const { order } = await admin("get", `/admin/orders/${orderId}?fields=items.id`);
      await admin("post", "/admin/order-edits", { order_id: orderId });
      await admin("post", `/admin/order-edits/${orderId}/items/item/${order.items[0].id}`, {
        quantity,
      });
      await admin("post", `/admin/order-edits/${orderId}/request`);
      await admin("post", `/admin/order-edits/${orderId}/confirm`);
    };
    /** What Medusa's order says is still to pay, in cents. */
    const pendingCents = async (orderId: string) =>
      Math.round(Number((await adminOrder(admin, orderId)).summary.pending_difference) * 100);

    describe("an order-first order edited under its live code", () => {
      it("edited down from R$ 70 to R$ 35 and paid at its old boleto: Medusa captures R$ 35, R$ 35 is owed back and listed, and the order reads paid", async () => {
        const { orderId, chargeId, collectionId } = await orderFirstBoleto(2);
        const before = await income();
        await editQuantity(orderId, 1);
        // Medusa rewrote the unpaid collection in place and kept the boleto's session.
        expect(await pendingCents(orderId)).toBe(3_500);
        expect((await liveSessions(collectionId)).map((s) => Number(s.amount))).toEqual([70]);

        const row = await pay(chargeId);
        expect(row).toMatchObject({
          captured_cents: "3500",
          owed_cents: "3500",
          owed_reason: "amount_lowered",
        });
        const medusa = await medusaMoney(collectionId);
        expect(medusa.net).toBe(3_500);
        // Every Medusa capture is named by exactly one ledger entry.
        expect((await ledgerCaptures(collectionId)).map((e) => e.medusa_ref)).toEqual(
          medusa.captureIds,
        );
        await waitFor(async () => (await pendingCents(orderId)) === 0, "the order to read paid");
        expect((await listed()).has(chargeId)).toBe(true);
        expect((await income()) - before).toBe(3_500);
      });

      it("edited up from R$ 35 to R$ 70 and paid at its old boleto: R$ 35 captured, R$ 35 still owed by the order, and its payment link makes a code for the R$ 35 that completes it", async () => {
        const {
          orderId,
          chargeId,
          collectionId,
          sessionId: boletoSession,
        } = await orderFirstBoleto(1);
        await editQuantity(orderId, 2);
        expect(await pendingCents(orderId)).toBe(7_000);

        const row = await pay(chargeId);
        expect(row).toMatchObject({ captured_cents: "3500", owed_cents: "0" });
        expect((await medusaMoney(collectionId)).net).toBe(3_500);
        await waitFor(async () => (await pendingCents(orderId)) === 3_500, "R$ 35 still owed");
        expect((await listed()).has(chargeId)).toBe(false);
        // The shopper's boleto page: paid, and the order still owes the R$ 35 the edit added.
        const told = (await shop.call("get", `/store/pix-checkout/sessions/${boletoSession}`)).data;
        expect(told).toMatchObject({ status: "paid", order: { payment: "awaiting", owes: 3_500 } });

        // The order widget shows what is still owed, with the link that collects it.
        const { outstanding } = await admin("get", `/admin/pix-checkout/orders/${orderId}`);
        expect(outstanding).toMatchObject({
          payment_collection_id: collectionId,
          amount: 3_500,
          page_path: expect.stringContaining(collectionId),
        });
        // Medusa's "Copy payment link" names this collection: its page asks for the rest.
        const page = await openPage(base, copiedLink(collectionId, orderId));
        expect(page.status).toBe(200);
        expect(page.text).toContain("R$ 35,00");
        const rest = await shop.call(
          "post",
          `/store/payment-collections/${collectionId}/payment-sessions`,
          {
            provider_id: "pp_pix_a",
          },
        );
        expect(rest.status).toBe(200);
        const code = lastSession(rest);
        expect(code.data.amount_cents).toBe(3_500);
        await pay(code.data.charge_id as string);
        expect((await medusaMoney(collectionId)).net).toBe(7_000);
        await waitFor(async () => (await pendingCents(orderId)) === 0, "the order to read paid");
        // Both pages now say the order is paid, and name nothing owed.
        for (const id of [boletoSession, code.id]) {
          const view = (await shop.call("get", `/store/pix-checkout/sessions/${id}`)).data;
          expect(view).toMatchObject({ status: "paid", order: { payment: "paid" } });
          expect(view.order).not.toHaveProperty("owes");
        }
        // Paid in full: no third code.
        const third = await linkCode(collectionId);
        expect(third.status).toBe(400);
        expect(third.data.code).toBe("collection_already_paid");
        expect(third.data.message).toContain("order");
      });
    });

    it("a merchant's refund of the capture never makes an older boleto 'captured': the boleto paid later is owed back as paid twice, and Medusa holds one capture", async () => {
      const cartId = await cartOf(1);
      const first = await shop.initiate(cartId, "pp_boleto_a", BOLETO_PAYER);
      const b1 = lastSession(first);
      const c1 = lastSession(await shop.initiate(cartId, "pp_pix_a"));
      const collectionId = first.data.payment_collection.id as string;
      await pay(c1.data.charge_id as string);
      const order = await waitFor(async () => {
        const found = await orderOfCart(container(), cartId);
        return found?.payment_collections[0]?.status === "completed" && found;
      }, "the order to be paid by the Pix");
      await admin("post", `/admin/pix-checkout/charges/${c1.data.charge_id}/refunds`, {
        amount: 3_500,
        note: "devolvido pelo painel",
      });
      expect((await medusaMoney(collectionId)).net).toBe(0);

      const row = await pay(b1.data.charge_id as string);
      expect(row).toMatchObject({
        captured_cents: "0",
        owed_cents: "3500",
        owed_reason: "paid_twice",
      });
      const medusa = await medusaMoney(collectionId);
      expect(medusa.captureIds).toHaveLength(1);
      expect(medusa.net).toBe(0);
      expect((await listed()).has(b1.data.charge_id as string)).toBe(true);
      const view = (await shop.call("get", `/store/pix-checkout/sessions/${b1.id}`)).data;
      expect(view).toMatchObject({ status: "refund_due", refund: { reason: "paid_twice" } });
      expect((await orderOfCart(container(), cartId))!.id).toBe(order.id);
    });

    it("a code replaced when the cart got cheaper, paid at its old amount, pays the cheaper cart: what it costs is captured, the difference owed back", async () => {
      const cartId = await cartOf(3);
      const first = lastSession(await shop.initiate(cartId, "pp_pix_a"));
      await setQuantity(cartId, 2);
      const second = lastSession(await shop.initiate(cartId, "pp_pix_a"));
      expect(second.data.amount_cents).toBe(7_000);
      const row = await pay(first.data.charge_id as string);
      expect(row).toMatchObject({
        captured_cents: "7000",
        owed_cents: "3500",
        owed_reason: "amount_lowered",
        capture_session_id: second.id,
      });
      const order = await waitFor(async () => {
        const found = await orderOfCart(container(), cartId);
        return found?.payment_collections[0]?.status === "completed" && found;
      }, "the order to be paid");
      expect(await pendingCents(order.id)).toBe(0);
      const view = (await shop.call("get", `/store/pix-checkout/sessions/${first.id}`)).data;
      expect(view).toMatchObject({
        status: "paid",
        refund: { amount: 3_500, reason: "amount_lowered" },
      });
    });

    /**
     * Runs `request` and pays the Pix `chargeId` while the request is paused where the plugin
     * hears Medusa delete the session `pausedSession` (its create line is told first, and a
     * trigger sleeps there): the moment a payment landing meanwhile used to be decided against
     * a collection half changed. Answers the request's response.
     */
    const paidWhileMedusaDeletes = async <T>(
      pausedSession: string,
      chargeId: string,
      request: () => Promise<T>,
    ): Promise<T> => {
      await knex().raw(`create table if not exists pix_test_pause (on_session text)`);
      await knex()("pix_test_pause").insert({ on_session: pausedSession });
      await knex().raw(`create or replace function pix_test_pause() returns trigger as $$
        begin
          if exists (select 1 from pix_test_pause) then perform pg_sleep(3); end if;
          return null;
        end $$ language plpgsql`);
      await knex().raw(
        `create trigger pix_test_pause before update on pix_checkout_create_request for each statement execute function pix_test_pause()`,
      );
      try {
        const answer = request();
        await waitFor(
          async () =>
            (await knex().raw(`select 1 from pg_stat_activity where wait_event = 'PgSleep'`)).rows
              .length > 0,
          "the request to reach the plugin's delete",
        );
        await knex()("pix_test_pause").delete();
        expect((await control(sandbox.url, `charges/${chargeId}/pay`, {})).ok).toBe(true);
        return await answer;
      } finally {
        await knex().raw(`drop trigger if exists pix_test_pause on pix_checkout_create_request`);
        await knex().raw(`drop function if exists pix_test_pause()`);
        await knex().raw(`drop table if exists pix_test_pause`);
      }
    };

    it("a shopper switching to another provider while her Pix is paid: the swap and the payment take turns, and the Pix is never captured beside the new session", async () => {
      const cartId = await cartOf(1);
      const started = await shop.initiate(cartId, "pp_pix_a");
      const pix = lastSession(started);
      const collectionId = started.data.payment_collection.id as string;
      const swapped = await paidWhileMedusaDeletes(pix.id, pix.data.charge_id as string, () =>
        shop.call("post", `/store/payment-collections/${collectionId}/payment-sessions`, {
          provider_id: OTHER,
        }),
      );
      const row = await decided(pix.data.charge_id as string);
      const sessions = (await liveSessions(collectionId)).map((s) => s.provider_id);
      if (swapped.status === 200) {
        // The swap came first: the Pix is a replaced code, and its money goes back.
        expect(sessions).toEqual([OTHER]);
        expect(row).toMatchObject({ captured_cents: "0", owed_cents: "3500" });
      } else {
        // The payment came first: the paid collection takes no other session.
        expect(swapped.data.code).toBe("collection_already_paid");
        expect(sessions).toEqual(["pp_pix_a"]);
        expect(row).toMatchObject({ captured_cents: "3500" });
      }
    });

    it("a shopper changing her cart while its Pix is paid: the edit and the payment take turns, and she never reads a 500", async () => {
      const cartId = await cartOf(1);
      const started = await shop.initiate(cartId, "pp_pix_a");
      const pix = lastSession(started);
      const collectionId = started.data.payment_collection.id as string;
      // The new total makes Medusa drop the cart's sessions: a payment landing meanwhile left
      // Medusa deleting a paid session, "Could not delete all payment sessions", a 500.
      const line = (await shop.cart(cartId)).data.cart.items[0];
      const edited = await paidWhileMedusaDeletes(pix.id, pix.data.charge_id as string, () =>
        shop.call("post", `/store/carts/${cartId}/line-items/${line.id}`, { quantity: 2 }),
      );
      const row = await decided(pix.data.charge_id as string);
      const sessions = (await liveSessions(collectionId)).map((s) => s.provider_id);
      if (edited.status === 200) {
        // The edit came first: the Pix was for the cart as it was, and its money goes back.
        expect(edited.data.cart.items[0].quantity).toBe(2);
        expect(sessions).toEqual([]);
        expect(row).toMatchObject({ captured_cents: "0", owed_cents: "3500" });
      } else {
        // The payment came first: the paid cart no longer changes.
        expect({ status: edited.status, ...edited.data }).toMatchObject({
          status: 400,
          code: "collection_already_paid",
        });
        expect(sessions).toEqual(["pp_pix_a"]);
        expect(row).toMatchObject({ captured_cents: "3500" });
      }
    });

    it("a shopper changing her cart while it is being completed hears at once that it is busy, not a 500 after Medusa's 2 s", async () => {
      const cartId = await cartOf(1);
      await shop.initiate(cartId, "pp_pix_a");
      const line = (await shop.cart(cartId)).data.cart.items[0];
      // The cart's completion holds Medusa's cart lock from its start to its end, and waits for
      // the collection's lease to decide its payment: held here as the completion holds it.
      const locking = container().resolve(Modules.LOCKING);
      await locking.acquire(cartId, { ownerId: "a-completion", expire: 30 });
      try {
        const started = Date.now();
        const edited = await shop.call("post", `/store/carts/${cartId}/line-items/${line.id}`, {
          quantity: 2,
        });
        expect({ status: edited.status, code: edited.data.code }).toEqual({
          status: 409,
          code: "collection_busy",
        });
        expect(edited.data.message).toContain("being completed");
        // At once: not after Medusa's own 2 s wait for the lock.
        expect(Date.now() - started).toBeLessThan(2_000);
      } finally {
        await locking.release(cartId, { ownerId: "a-completion" });
      }
      // Once the lock is free, the same change goes through.
      const again = await shop.call("post", `/store/carts/${cartId}/line-items/${line.id}`, {
        quantity: 2,
      });
      expect(again.status).toBe(200);
    });

    describe("what the shopper's pages say of a replaced code paid anyway", () => {
      /** Follows a session's stream as the element does, collecting its events until aborted. */
      const follow = (sessionId: string) => {
        const abort = new AbortController();
        const events: Json[] = [];
        void (async () => {
          const response = await fetch(`${base}/store/pix-checkout/sessions/${sessionId}/stream`, {
            headers: { "x-publishable-api-key": store.publishableKey },
            signal: abort.signal,
          });
          const reader = response.body!.getReader();
          const decoder = new TextDecoder();
          let buffer = "";
          for (;;) {
            const { value, done } = await reader.read();
            if (done) return;
            buffer += decoder.decode(value, { stream: true });
            let end: number;
            while ((end = buffer.indexOf("\n\n")) !== -1) {
              const data = buffer
                .slice(0, end)
                .split("\n")
                .find((line) => line.startsWith("data: "));
              buffer = buffer.slice(end + 2);
              if (data) events.push(JSON.parse(data.slice(6)));
            }
          }
        })().catch(() => undefined);
        return { events, stop: () => abort.abort() };
      };
      const view = async (sessionId: string) =>
        (await shop.call("get", `/store/pix-checkout/sessions/${sessionId}`)).data as Json;
      /** Polls a session's page until `until`, keeping every status it answered meanwhile. */
      const watchUntil = async (sessionId: string, until: (view: Json) => boolean) => {
        const statuses = new Set<string>();
        const last = await waitFor(
          async () => {
            const current = await view(sessionId);
            statuses.add(current.status as string);
            return until(current) && current;
          },
          `session ${sessionId}'s page`,
          30_000,
        );
        return { last, statuses: [...statuses] };
      };

      it("paid for less than the cart now asks: never 'paid', its page says the money goes back and which code still pays, the live code's stream says it unasked, and no order comes of it until the live code is paid", async () => {
        const cartId = await cartOf(1);
        const first = lastSession(await shop.initiate(cartId, "pp_pix_a"));
        await setQuantity(cartId, 2);
        const second = lastSession(await shop.initiate(cartId, "pp_pix_a"));
        // The second tab's page is open on the live code.
        const live = follow(second.id);
        await waitFor(async () => live.events.length > 0, "the live code's first event");
        expect(live.events[0]).toMatchObject({ status: "pending" });
        expect(live.events[0]!.earlier_payment).toBeUndefined();

        // The first tab's old code, paid from the clipboard.
        expect((await control(sandbox.url, `charges/${first.data.charge_id}/pay`, {})).ok).toBe(
          true,
        );
        const { last: owed, statuses } = await watchUntil(
          first.id,
          (current) => current.status === "refund_due",
        );
        // What a storefront completes its cart on never showed.
        expect(
          statuses.filter((status) => status !== "superseded" && status !== "refund_due"),
        ).toEqual([]);
        expect(owed).toMatchObject({
          refund: { amount: 3_500, reason: "paid_old_amount" },
          replaced_by: second.id,
        });
        expect(owed.order ?? null).toBeNull();
        // The live code's page hears it without "Já paguei", and says this code still pays.
        const told = await waitFor(
          async () => live.events.find((event) => event.earlier_payment),
          "the live code's stream to name the earlier payment",
        );
        expect(told).toMatchObject({
          status: "pending",
          earlier_payment: { amount: 3_500, order_paid: false },
        });
        expect(await view(second.id)).toMatchObject({
          status: "pending",
          earlier_payment: { amount: 3_500, order_paid: false },
        });
        expect(await orderOfCart(container(), cartId)).toBeUndefined();

        // The live code pays the cart: the order exists, paid, and every page says so.
        await pay(second.data.charge_id as string);
        const order = await waitFor(async () => {
          const found = await orderOfCart(container(), cartId);
          return found?.payment_collections[0]?.status === "completed" && found;
        }, "the order to be paid");
        const { order: placed } = await admin("get", `/admin/orders/${order.id}?fields=display_id`);
        const paid = { display_id: placed.display_id, payment: "paid" };
        await waitFor(
          async () => live.events.find((event) => event.status === "paid"),
          "the live code's stream to say paid",
        );
        live.stop();
        expect((await view(second.id)).order).toEqual(paid);
        expect((await view(first.id)).order).toEqual(paid);
        expect((await shop.call("get", `/store/pix-checkout/orders/${order.id}`)).data).toEqual({
          order_id: order.id,
          ...paid,
          earlier_payment: { amount: 3_500, order_paid: true },
        });
      });

      /** A cart of `before` units with a Pix code, then `after` units with a new one, placed as an order on it. */
      const orderOnLiveCode = async (before: number, after: number) => {
        const cartId = await cartOf(before);
        const first = lastSession(await shop.initiate(cartId, "pp_pix_a"));
        await setQuantity(cartId, after);
        const second = lastSession(await shop.initiate(cartId, "pp_pix_a"));
        // The order placed on the live, unpaid code (order-first, or a storefront too quick).
        const completed = await shop.complete(cartId);
        expect(completed.data.type).toBe("order");
        const orderId = (completed.data.order as Json).id as string;
        const { order } = await admin("get", `/admin/orders/${orderId}?fields=display_id`);
        expect((await control(sandbox.url, `charges/${first.data.charge_id}/pay`, {})).ok).toBe(
          true,
        );
        return { first, second, orderId, displayId: order.display_id as number };
      };

      it("paid for less, after the cart became an order on its live code: the page says the money goes back and that the order still awaits its payment, never that it is paid", async () => {
        const { first, second, orderId, displayId } = await orderOnLiveCode(1, 2);
        const { last: owed, statuses } = await watchUntil(
          first.id,
          (current) => current.status === "refund_due",
        );
        expect(
          statuses.filter((status) => status !== "superseded" && status !== "refund_due"),
        ).toEqual([]);
        expect(owed).toMatchObject({
          refund: { amount: 3_500, reason: "paid_old_amount" },
          replaced_by: second.id,
          order: { display_id: displayId, payment: "awaiting" },
        });
        expect(
          (await shop.call("get", `/store/pix-checkout/orders/${orderId}`)).data,
        ).toMatchObject({
          display_id: displayId,
          payment: "awaiting",
          earlier_payment: { amount: 3_500, order_paid: false },
        });
        expect(await pendingCents(orderId)).toBe(7_000);
      });

      it("paid in full, after the cart became an order on its cheaper live code: its money pays the order, and the page says paid only once Medusa's order is", async () => {
        const { first, orderId, displayId } = await orderOnLiveCode(2, 1);
        const { last: paid, statuses } = await watchUntil(
          first.id,
          (current) => current.status === "paid",
        );
        expect(statuses.filter((status) => status !== "superseded" && status !== "paid")).toEqual(
          [],
        );
        expect(paid).toMatchObject({ refund: { amount: 3_500, reason: "amount_lowered" } });
        // The order's own word follows Medusa's order (its transactions come with the capture's
        // follow-ups): "paid" is said of the order only once Medusa's summary has nothing pending.
        const seen: Json[] = [];
        await waitFor(async () => {
          const order = (await view(first.id)).order as Json;
          seen.push(order);
          return order?.payment === "paid";
        }, "the order to read paid");
        expect(await pendingCents(orderId)).toBe(0);
        expect(seen.at(-1)).toEqual({ display_id: displayId, payment: "paid" });
        expect(
          seen.filter((order) => order?.payment !== "paid" && order?.payment !== "awaiting"),
        ).toEqual([]);
        expect(
          (await shop.call("get", `/store/pix-checkout/orders/${orderId}`)).data,
        ).toMatchObject({ display_id: displayId, payment: "paid" });
      });
    });

    describe("a code that cannot be made after its cart became an order", () => {
      const requests = () => knex()("pix_checkout_create_request");
      /** The minute's creates spent: the next code waits in line for `freesInMs`. */
      const spendBudget = async (freesInMs: number) => {
        await requests().insert(
          Array.from({ length: 60 }, (_, i) => ({
            id: `pxcr_life_${Date.now()}_${i}`,
            budget_key: sandbox.baseUrl.replace(/\/+$/, ""),
            provider_key: "a",
            provider_id: "pp_pix_a",
            method: "pix",
            session_id: `payses_life_${i}`,
            amount_cents: 100,
            state: "done",
            done_at: knex().raw(`now() - (? * interval '1 millisecond')`, [60_000 - freesInMs]),
          })),
        );
      };
      afterEach(async () => {
        await requests().where("id", "like", "pxcr_life_%").delete();
        await control(sandbox.url, "keys", { key: API_KEY, state: "active" });
        providerByKey(
          container().resolve(ContainerRegistrationKeys.CONFIG_MODULE),
          "a",
        ).options.cancelOrderOnExpiry = true;
      });

      /** An order-first order placed while its Pix waited in line, whose create then failed. */
      const orderWhoseCodeFailed = async () => {
        const cartId = await cartOf(1);
        // Long enough for the code to still wait in line when the key is disabled below, after
        // the session and the cart's completion, on a loaded machine too (4 s was not).
        await spendBudget(12_000);
        const session = lastSession(await shop.initiate(cartId, "pp_pix_a"));
        expect(session.data.status).toBe("preparing");
        const completed = await shop.complete(cartId);
        expect(completed.data.type).toBe("order");
        // The account's key is disabled before the line sends: the service refuses the create.
        await control(sandbox.url, "keys", { key: API_KEY, state: "disabled" });
        await waitFor(
          async () =>
            (await requests().where({ session_id: session.id }).first())?.state === "failed",
          "the create to fail",
          30_000,
        );
        await control(sandbox.url, "keys", { key: API_KEY, state: "active" });
        const unpaid = await knex()("pix_checkout_unpaid_order").where({ cart_id: cartId }).first();
        expect(unpaid).toBeDefined();
        return { cartId, orderId: completed.data.order.id as string };
      };

      it("cancels the order, releasing its stock and the shopper's unpaid-order count", async () => {
        const { cartId, orderId } = await orderWhoseCodeFailed();
        await reconcilePass(container(), new Date(Date.now() + 2 * 60_000));
        const order = await adminOrder(admin, orderId);
        expect(order.status).toBe("canceled");
        expect(
          await knex()("pix_checkout_unpaid_order").where({ cart_id: cartId }).first(),
        ).toBeUndefined();
      });

      it("keeps the order for the merchant when cancelOrderOnExpiry is off, and no longer counts it against the shopper", async () => {
        providerByKey(
          container().resolve(ContainerRegistrationKeys.CONFIG_MODULE),
          "a",
        ).options.cancelOrderOnExpiry = false;
        const { cartId, orderId } = await orderWhoseCodeFailed();
        await reconcilePass(container(), new Date(Date.now() + 2 * 60_000));
        expect((await adminOrder(admin, orderId)).status).toBe("pending");
        expect(
          await knex()("pix_checkout_unpaid_order").where({ cart_id: cartId }).first(),
        ).toBeUndefined();
        const attention = await admin("get", "/admin/pix-checkout/charges?needs_attention=true");
        expect((attention.orders_without_code as Json[]).map((o) => o.order.id)).toContain(orderId);
        // Medusa lists it as one more order awaiting payment: the counts of what waits for the
        // merchant (the health card's line, the overview's button, the alerts) include it.
        const health = await admin("get", "/admin/pix-checkout/health");
        const line = (health.lines as Json[]).find((l) => l.id === "attention");
        expect(line).toMatchObject({ state: "warning", action: "see_needs_attention" });
        expect(line.detail.no_code).toBeGreaterThanOrEqual(1);
        expect(line.detail.total).toBeGreaterThanOrEqual(line.detail.no_code);
        const overview = await admin("get", "/admin/pix-checkout/overview");
        expect(overview.waiting_for_merchant).toBeGreaterThanOrEqual(line.detail.no_code);
        // Its order page offers the payment link for the whole order: a code can still pay it.
        const { outstanding } = await admin("get", `/admin/pix-checkout/orders/${orderId}`);
        expect(outstanding).toMatchObject({ amount: 3_500, page_path: expect.any(String) });
        // Days later, past the create line's one-day retention, the order is still listed.
        await requests()
          .where({ kept_order_id: orderId })
          .update({ enqueued_at: knex().raw("now() - interval '3 days'") });
        await new CreateQueue(knex()).prune(ENDED_REQUEST_RETENTION_MS, 500);
        const later = await admin("get", "/admin/pix-checkout/charges?needs_attention=true");
        expect((later.orders_without_code as Json[]).map((o) => o.order.id)).toContain(orderId);
      });
    });

    it("a paid code whose capture Medusa refuses while the merchant cancels its order is owed back, and its shopper told so, never paid (#69)", async () => {
      const cartId = await cartOf(1);
      const session = lastSession(await shop.initiate(cartId, "pp_pix_a"));
      const chargeId = session.data.charge_id as string;
      const completed = await shop.complete(cartId);
      expect(completed.data.type).toBe("order");
      const orderId = (completed.data.order as Json).id as string;
      // The paid code's capture waits for Medusa's lock on the cart, which the test holds (as a
      // busy cart would): the capture is in flight, its claim live, while the merchant cancels
      // the order and its subscriber decides. Then Medusa refuses the capture (the canceled
      // order's payment is no longer authorized, and its database refuses captures besides).
      await withRefusedInserts(knex(), "capture", async () => {
        const locking = container().resolve(Modules.LOCKING);
        const ownerId = "order-life-test";
        let held = true;
        const release = async () => {
          if (!held) return;
          held = false;
          await locking.release(cartId, { ownerId });
        };
        try {
          await locking.acquire(cartId, { ownerId, expire: 120 });
          expect((await control(sandbox.url, `charges/${chargeId}/pay`, {})).ok).toBe(true);
          await waitFor(
            async () => (await chargeRow(chargeId))?.capture_claimed_at != null,
            "the capture to be in flight",
            30_000,
          );
          await admin("post", `/admin/orders/${orderId}/cancel`);
          await waitFor(
            async () => (await adminOrder(admin, orderId)).status === "canceled",
            "the merchant's cancel",
            30_000,
          );
          // order.canceled's subscriber runs a moment after the cancel answers.
          await new Promise((resolve) => setTimeout(resolve, 2_000));
          expect(await chargeRow(chargeId)).toMatchObject({ held_reason: "awaiting_capture" });
          // Now Medusa refuses the capture.
          await release();
          await captureRefused(chargeId);
          const row = await owedBack(chargeId, "the canceled order's money owed back");
          expect(row).toMatchObject({
            held_cents: "0",
            captured_cents: "0",
            owed_cents: "3500",
            owed_reason: "paid_after_order_canceled",
          });
          expect((await listed()).has(chargeId)).toBe(true);
          const shown = (await shop.call("get", `/store/pix-checkout/sessions/${session.id}`)).data;
          expect(shown).toMatchObject({
            status: "refund_due",
            refund: { amount: 3500, reason: "paid_after_order_canceled" },
          });
          const collectionId = (await orderOfCart(container(), cartId))!.payment_collections[0]!.id;
          expect((await medusaMoney(collectionId)).net).toBe(0);
        } finally {
          await release().catch(() => undefined);
        }
      });
    });

    it("an order's payment link while Medusa refuses its paid code's capture: 409 payment_capture_pending saying what happens, never a 500, and the paid code kept; once Medusa takes the capture, the link makes a code for what the order still owes (#69)", async () => {
      const cartId = await cartOf(1);
      const session = lastSession(await shop.initiate(cartId, "pp_pix_a"));
      const chargeId = session.data.charge_id as string;
      const completed = await shop.complete(cartId);
      expect(completed.data.type).toBe("order");
      const orderId = (completed.data.order as Json).id as string;
      const collectionId = (await orderOfCart(container(), cartId))!.payment_collections[0]!.id;
      await withRefusedInserts(knex(), "payment", async () => {
        expect((await control(sandbox.url, `charges/${chargeId}/pay`, {})).ok).toBe(true);
        await captureRefused(chargeId);
        // The merchant adds a unit: the order asks R$ 70, its paid R$ 35 still held for the capture.
        await editQuantity(orderId, 2);
        // The order widget offers no link while the capture is pending: it would be refused.
        expect(
          (await admin("get", `/admin/pix-checkout/orders/${orderId}`)).outstanding,
        ).toBeNull();
        const link = await linkCode(collectionId);
        expect(link.status, JSON.stringify(link.data)).toBe(409);
        expect(link.data.code).toBe("payment_capture_pending");
        expect(link.data.message).toMatch(/still being recorded.*ask again in a few minutes/);
        // An older code owed back and still marked adopted by this session (the money model's
        // stale mark, merchant-refund.test.ts) hides neither the paid code that must stay nor,
        // below, its capture (Medusa authorizes and captures the session's money, not the mark's).
        const stale = lastSession(await shop.initiate(await cartOf(1), "pp_pix_a")).data
          .charge_id as string;
        const records = recordsOf(knex());
        await records.ledger.arrive(stale, ["pending"], arrivalOf(3_500, 3_500), "webhook", {
          paid_at: new Date(),
        });
        await records.ledger.owe(stale, "held", 3_500, "paid_twice", "admin", {});
        await knex()("pix_checkout_charge")
          .where({ charge_id: stale })
          .update({ capture_session_id: session.id });
        const marked = await linkCode(collectionId);
        expect(marked.status, JSON.stringify(marked.data)).toBe(409);
        expect(marked.data.code).toBe("payment_capture_pending");
        // Nothing changed: the paid code keeps its session, its money still held for the capture.
        const payment = container().resolve<IPaymentModuleService>(Modules.PAYMENT);
        const sessions = await payment.listPaymentSessions({ payment_collection_id: collectionId });
        expect(sessions.map((s) => s.id)).toEqual([session.id]);
        expect(await chargeRow(chargeId)).toMatchObject({
          held_cents: "3500",
          held_reason: "awaiting_capture",
        });
      });
      // Medusa takes the capture on its next try; the link then asks for the rest.
      await reconcilePass(container(), new Date(Date.now() + 10 * 60_000));
      await waitFor(
        async () => (await chargeRow(chargeId))?.captured_cents === "3500",
        "the capture to land",
        30_000,
      );
      // The widget now offers the link, for what the order still owes.
      const { outstanding } = await admin("get", `/admin/pix-checkout/orders/${orderId}`);
      expect(outstanding).toMatchObject({ payment_collection_id: collectionId, amount: 3_500 });
      const rest = await linkCode(collectionId);
      expect(rest.status, JSON.stringify(rest.data)).toBe(200);
      expect(lastSession(rest).data.amount_cents).toBe(3_500);
    });

    it("a paid code Medusa authorized but would not capture, when the merchant edits its order up: Medusa cancels that collection and asks the whole new total, and the paid money is owed back, listed and told, never lost nor counted twice (#69)", async () => {
      const cartId = await cartOf(1);
      const session = lastSession(await shop.initiate(cartId, "pp_pix_a"));
      const chargeId = session.data.charge_id as string;
      const completed = await shop.complete(cartId);
      const orderId = (completed.data.order as Json).id as string;
      const paidCollection = (await orderOfCart(container(), cartId))!.payment_collections[0]!.id;
      await withRefusedInserts(knex(), "capture", async () => {
        expect((await control(sandbox.url, `charges/${chargeId}/pay`, {})).ok).toBe(true);
        await captureRefused(chargeId);
        expect(await chargeRow(chargeId)).toMatchObject({
          held_cents: "3500",
          held_reason: "awaiting_capture",
        });
        // Medusa's order edit cancels the authorized collection and makes one for R$ 70,00.
        await editQuantity(orderId, 2);
      });
      await reconcilePass(container(), new Date(Date.now() + 10 * 60_000));
      const row = await owedBack(chargeId, "the canceled collection's money owed back");
      expect(row).toMatchObject({
        held_cents: "0",
        captured_cents: "0",
        owed_cents: "3500",
        owed_reason: "collection_canceled",
        flag_code: "refund_due",
      });
      expect((await listed()).has(chargeId)).toBe(true);
      // Medusa holds none of it; the order asks its whole new total, by the widget's link.
      expect((await medusaMoney(paidCollection)).net).toBe(0);
      expect(await pendingCents(orderId)).toBe(7_000);
      const { outstanding } = await admin("get", `/admin/pix-checkout/orders/${orderId}`);
      expect(outstanding).toMatchObject({ amount: 7_000 });
      expect(outstanding.payment_collection_id).not.toBe(paidCollection);
      // The shopper's code: R$ 35,00 comes back, and the order still owes R$ 70,00.
      const shown = (await shop.call("get", `/store/pix-checkout/sessions/${session.id}`)).data;
      expect(shown).toMatchObject({
        status: "refund_due",
        refund: { amount: 3_500 },
        order: { payment: "awaiting", owes: 7_000 },
      });
      // Days of passes later, the money is still owed once, never captured nor held again.
      await reconcilePass(container(), new Date(Date.now() + 3 * 24 * 60 * 60_000));
      expect(await chargeRow(chargeId)).toMatchObject({
        held_cents: "0",
        captured_cents: "0",
        owed_cents: "3500",
      });
    });

    describe("smaller doors", () => {
      it("never owes back held money a live capture claim is taking, and a claim dies with the money it claimed", async () => {
        const cartId = await cartOf(1);
        const session = lastSession(await shop.initiate(cartId, "pp_pix_a"));
        const chargeId = session.data.charge_id as string;
        const records = recordsOf(knex());
        await records.ledger.arrive(chargeId, ["pending"], arrivalOf(3_500, 3_500), "webhook", {
          paid_at: new Date(),
        });
        const holder = { door: "settlement" as const, id: "a capture in flight" };
        expect(await records.captures.claim(chargeId, holder, 3_500)).toBe(true);
        expect(
          await records.ledger.owe(chargeId, "held", 3_500, "paid_twice", "admin", {}),
        ).toBeUndefined();
        expect(await records.captures.liveClaimOf(chargeId, "settlement")).toBe(3_500);
        // The claim's lease lapses (its holder died): now the money may go, and the claim with it.
        await knex()("pix_checkout_charge")
          .where({ charge_id: chargeId })
          .update({ capture_claimed_at: knex().raw("now() - interval '3 minutes'") });
        const owed = await records.ledger.owe(chargeId, "held", 3_500, "paid_twice", "admin", {});
        expect(owed).toMatchObject({
          owed_cents: "3500",
          held_cents: "0",
          capture_claimed_by: null,
        });
        expect(await records.captures.liveClaimOf(chargeId, "settlement")).toBeUndefined();
      });

      it("a status-only update of a paid session never opens a new code", async () => {
        const cartId = await cartOf(1);
        const session = lastSession(await shop.initiate(cartId, "pp_pix_a"));
        const chargeId = session.data.charge_id as string;
        await control(sandbox.url, `transactions/${chargeId}/amount`, { amount: 3_000 });
        await control(sandbox.url, `charges/${chargeId}/pay`, {});
        await waitFor(async () => (await chargeRow(chargeId))?.status === "paid", "the payment");
        // Settlement restates a paid session to what it captures (an accepted amount).
        const payments = container().resolve<IPaymentModuleService>(Modules.PAYMENT);
        const { data } = await payments.retrievePaymentSession(session.id);
        await payments.updatePaymentSession({
          id: session.id,
          amount: 30,
          currency_code: "brl",
          data: data ?? {},
        });
        const before = await knex()("pix_checkout_charge").where({ session_id: session.id });
        await payments.updatePaymentSession({
          id: session.id,
          amount: 30,
          currency_code: "brl",
          data: data ?? {},
          status: "error",
        } as Parameters<IPaymentModuleService["updatePaymentSession"]>[0]);
        const after = await knex()("pix_checkout_charge").where({ session_id: session.id });
        expect(after.map((r: Json) => r.charge_id)).toEqual(before.map((r: Json) => r.charge_id));
        expect(after).toHaveLength(1);
      });
    });
  },
});
