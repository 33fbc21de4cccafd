import path from "node:path";
import fc from "fast-check";
import { medusaIntegrationTestRunner } from "@medusajs/test-utils";
import type { Sandbox } from "@pix-checkout/sandbox" with { "resolution-mode": "import" };
import { startAppSandboxes } from "../helpers/sandboxes";
import {
  createCart,
  createStoreFixture,
  createUncompletableCart,
  type StoreFixture,
} from "../helpers/store-fixture";
import {
  BOLETO_PAYER,
  capturedCentsOfSession,
  capturesOfSession,
  control,
  db,
  orderOfCart,
  storefront,
  type Api,
  type Json,
} from "../helpers/checkout";
import { waitFor } from "../helpers/wait-for";
import { Modules } from "@medusajs/framework/utils";
import type { IPaymentModuleService } from "@medusajs/framework/types";
import { reconcilePass } from "../helpers/reconcile-pass";
import { adminLogin } from "../helpers/admin-login";
import { cancelOrderWorkflow } from "@medusajs/medusa/core-flows";
import { withFailure as injectFailure } from "../helpers/injected-failure";

// The store pays a cart only with money it asked for on that cart. Everything a storefront
// writes into a payment session's `data` is an attacker's input: the attacker holds the
// publishable key, pays a cheap cart, and plants that charge's id, spelled every way the
// payment API accepts, in the session of an expensive cart.

const API_KEY = "sk_live_session_money_5ecret";
const WEBHOOK_SECRET = "whsec-test-a-0123456789";

let sandboxA: Sandbox;
let sandboxB: Sandbox;

beforeAll(async () => {
  ({ a: sandboxA, b: sandboxB } = await startAppSandboxes(API_KEY, {
    a: { webhookRetryDelaysMs: [300] },
    b: { webhookRetryDelaysMs: [300] },
  }));
});

afterAll(async () => {
  await sandboxA?.close();
  await sandboxB?.close();
});

medusaIntegrationTestRunner({
  cwd: path.join(__dirname, "..", "app"),
  testSuite: ({ api, getContainer }) => {
    let store: StoreFixture;
    let shop: ReturnType<typeof storefront>;
    let adminHeaders: Record<string, string>;
    const container = () => getContainer();
    const http = api as unknown as Api;

    beforeAll(async () => {
      store = await createStoreFixture(container());
      shop = storefront(http, store);
      const base = http.defaults.baseURL;
      await control(sandboxA.url, "webhook-urls", {
        url: `${base}/hooks/pix-checkout/a?token=${WEBHOOK_SECRET}`,
      });
      await control(sandboxB.url, "webhook-urls", { url: `${base}/hooks/pix-checkout/b` });
      adminHeaders = await adminLogin(container(), "lojista@example.com");
    });

    beforeEach(async () => {
      await fetch(`${sandboxA.url}/__sandbox/faults`, { method: "DELETE" });
    });

    const requests = () => db(container())("pix_checkout_create_request");
    /** Spends the minute's 60 creates of a service, so a new session waits in the line. */
    const spendBudget = async (budgetKey: string) => {
      const knex = db(container());
      await requests().insert(
        Array.from({ length: 60 }, (_, i) => ({
          id: `pxcr_spent_${Date.now()}_${i}`,
          budget_key: budgetKey,
          provider_key: "spent",
          provider_id: "pp_pix_spent",
          method: "pix",
          session_id: `payses_spent_${i}`,
          amount_cents: 100,
          state: "done",
          done_at: knex.raw(`now() - interval '5 seconds'`),
        })),
      );
    };
    afterEach(async () => {
      await requests().where("id", "like", "pxcr_spent_%").delete();
    });

    const sessionOf = (response: { data: Json }) =>
      response.data.payment_collection.payment_sessions[0] as { id: string; data: Json };

    const variants = [
      {
        name: "Variant A",
        provider: "pp_pix_a",
        sandbox: () => sandboxA,
        // Variant A's ids are UUIDs, which the service reads in any case.
        spellings: (id: string) => ({
          "upper case": id.toUpperCase(),
          "a leading space": ` ${id}`,
          "as recorded": id,
        }),
      },
      {
        name: "Variant B",
        provider: "pp_pix_b",
        sandbox: () => sandboxB,
        // Variant B's service reads a ch_svc_ id cut short, in any case, and the full UUID.
        spellings: (id: string, uuid: string) => ({
          "cut to 7 characters after the prefix, in upper case": id.slice(0, 14).toUpperCase(),
          "upper case": id.toUpperCase(),
          "its UUID": uuid,
          "a leading space": ` ${id}`,
          "as recorded": id,
        }),
      },
    ];

    describe.each(variants)("$name", (variant) => {
      it("a cheap charge's id planted in an expensive cart's session, in every spelling the API accepts, pays no order and answers no 5xx", async () => {
        // 1. The attacker pays a cheap cart. Its charge id is public in that cart's session.
        const cheapCart = await createCart(container(), store, 39.9);
        const cheap = sessionOf(await shop.initiate(cheapCart, variant.provider));
        const cheapCharge = cheap.data.charge_id as string;
        expect(cheapCharge).toBeTruthy();
        await control(variant.sandbox().url, `charges/${cheapCharge}/pay`, {});
        const read = await fetch(`${variant.sandbox().baseUrl}/charges/${cheapCharge}`, {
          headers: { authorization: `Bearer ${API_KEY}` },
        });
        const uuid = ((await read.json()) as { uuid?: string; id?: string }).uuid ?? cheapCharge;

        const spellings = Object.entries(variant.spellings(cheapCharge, uuid));
        for (const [how, planted] of spellings) {
          // 2. Past the minute's creates, a new session waits in the line ("preparing").
          await spendBudget(variant.sandbox().baseUrl);
          // 3. The expensive cart's session carries the planted id.
          const dearCart = await createCart(container(), store, 912.75);
          const created = await shop.initiate(dearCart, variant.provider, {
            charge_id: planted,
          });
          expect(created.status, how).toBeLessThan(500);
          const session = created.status === 200 ? sessionOf(created) : undefined;
          await requests().where("id", "like", "pxcr_spent_%").delete();

          // 4. The attacker completes the expensive cart.
          const completed = await shop.complete(dearCart);
          expect(completed.status, `${how}: ${JSON.stringify(completed.data)}`).toBeLessThan(500);
          const order = await orderOfCart(container(), dearCart);
          if (order) {
            // An order may wait for its own code (order-first); it is never paid by another's.
            expect(order.payment_collections[0]?.status, how).not.toBe("completed");
          }
          if (session) {
            expect(await capturesOfSession(container(), session.id), how).toBe(0);
            // Nothing the storefront planted survives in the session's data.
            expect(session.data.charge_id ?? null, how).not.toBe(planted);
          }
        }
      });
    });

    const admin = (method: string, url: string, data?: unknown) =>
      http.request({ method, url, data, headers: adminHeaders, validateStatus: () => true });
    /** The merchant's "Needs attention" list, by charge id. */
    const attentionList = async (): Promise<Map<string, Json>> => {
      const listed = await admin(
        "get",
        "/admin/pix-checkout/charges?needs_attention=true&limit=200",
      );
      expect(listed.status).toBe(200);
      return new Map((listed.data.charges as Json[]).map((c) => [c.charge_id, c]));
    };
    const chargeRow = (chargeId: string) =>
      db(container())("pix_checkout_charge").where({ charge_id: chargeId }).first();
    /** A later `now` for reconciliation, past every grace period it waits out. */
    const later = (minutes = 3) => new Date(Date.now() + minutes * 60_000);
    /** Runs `sql` to make a write fail for the length of `work`, as a crash or an outage would. */
    const withFailure = <T>(name: string, sql: string, work: () => Promise<T>) =>
      injectFailure(db(container()), name, sql, work);
    const uncompletableCart = (reais: number) => createUncompletableCart(container(), store, reais);
    const capturedCents = (sessionId: string) => capturedCentsOfSession(container(), sessionId);

    describe("random session data through every door a storefront reaches", () => {
      /** Paid charges of other carts, in both variants, with every id they answer to. */
      const victims: { chargeId: string; uuid: string; sandbox: Sandbox }[] = [];
      /**
       * Pays a cheap cart per provider. Inside the test: the test runner restores the database
       * to the suite's first state before each test, so rows made in a nested `beforeAll` would
       * be gone by then.
       */
      const payVictims = async () => {
        for (const [provider, sandbox] of [
          ["pp_pix_a", sandboxA],
          ["pp_pix_b", sandboxB],
          ["pp_boleto_a", sandboxA],
        ] as const) {
          const cartId = await createCart(container(), store, 19.9);
          const data = provider === "pp_boleto_a" ? BOLETO_PAYER : {};
          const session = sessionOf(await shop.initiate(cartId, provider, data));
          const chargeId = session.data.charge_id as string;
          await control(sandbox.url, `charges/${chargeId}/pay`, {});
          const read = await fetch(`${sandbox.baseUrl}/charges/${chargeId}`, {
            headers: { authorization: `Bearer ${API_KEY}` },
          });
          const uuid = ((await read.json()) as { uuid?: string }).uuid ?? chargeId;
          victims.push({ chargeId, uuid, sandbox });
        }
      };

      /** Every spelling a payment service might read as one of the paid charges. */
      const plantedId = fc
        .tuple(
          fc.nat(),
          fc.constantFrom<(id: string, uuid: string) => string>(
            (id) => id,
            (id) => id.toUpperCase(),
            (id) => id.toLowerCase(),
            (id) => ` ${id}`,
            (id) => `${id} `,
            (id) => id.slice(0, 14).toUpperCase(),
            (id) => id.slice(0, 20),
            (id) => id.slice(7, 19),
            (_id, uuid) => uuid,
            (_id, uuid) => uuid.toUpperCase(),
            (_id, uuid) => uuid.slice(0, 8),
          ),
        )
        .map(([i, spell]) => {
          const victim = victims[i % victims.length]!;
          return spell(victim.chargeId, victim.uuid);
        });
      /** A session's `data` as an attacker writes it: planted ids, states, amounts, anything. */
      const sessionDataArb = fc.record(
        {
          charge_id: fc.oneof(plantedId, fc.string(), fc.constant(null), fc.integer()),
          status: fc.constantFrom("paid", "captured", "authorized", "preparing", "held", "pending"),
          amount_cents: fc.oneof(fc.integer({ min: -1, max: 10_000_000 }), fc.string()),
          session_id: fc.oneof(fc.constant("payses_someone_else"), fc.string()),
          capture_session_id: fc.string(),
          settlement: fc.constantFrom("captured", "capturable", "refunded"),
          captured_cents: fc.integer(),
          owed_cents: fc.integer(),
          expires_at: fc.constantFrom("2099-01-01T00:00:00Z", "yesterday"),
          pix: fc.record({ copy_paste: fc.string() }),
          document: fc.oneof(fc.constant("529.982.247-25"), fc.string(), fc.integer()),
          email: fc.oneof(fc.emailAddress(), fc.string(), fc.constant(null)),
          extra: fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), {
            maxKeys: 3,
          }),
        },
        { requiredKeys: [] },
      );
      const caseArb = fc.record({
        provider: fc.constantFrom("pp_pix_a", "pp_pix_b", "pp_boleto_a"),
        data: sessionDataArb,
        queued: fc.boolean(),
        switchProvider: fc.boolean(),
        reais: fc.integer({ min: 500, max: 200_000 }).map((cents) => cents / 100),
      });

      it("no answer is a 5xx, nothing planted survives, and no order is paid by a charge not created for its session", async () => {
        const budgets = { pp_pix_a: sandboxA, pp_boleto_a: sandboxA, pp_pix_b: sandboxB };
        await payVictims();
        await fc.assert(
          fc.asyncProperty(caseArb, async (c) => {
            const { extra = {}, ...known } = c.data;
            const data = { ...extra, ...known };
            if (c.queued) await spendBudget(budgets[c.provider].baseUrl);
            try {
              const cartId = await createCart(container(), store, c.reais);
              const created = await shop.initiate(cartId, c.provider, data);
              expect(created.status, JSON.stringify(created.data)).toBeLessThan(500);
              let session = created.status === 200 ? sessionOf(created) : undefined;
              if (session) {
                // Every field the plugin owns is its own: the session's code or none.
                const own = await db(container())("pix_checkout_charge")
                  .where({ session_id: session.id })
                  .first();
                expect(session.data.charge_id ?? null).toBe(own?.charge_id ?? null);
                for (const key of Object.keys(extra)) {
                  if (!["email", "document", "name", "phone"].includes(key)) {
                    expect(session.data[key] ?? null, key).toBeNull();
                  }
                }
                for (const route of ["", "/refresh"]) {
                  const view = await shop.call(
                    route ? "post" : "get",
                    `/store/pix-checkout/sessions/${session.id}${route}`,
                  );
                  expect(view.status, route).toBeLessThan(500);
                }
              }
              if (c.switchProvider) {
                // The first session is deleted by Medusa (deletePayment with its stored data).
                const other = c.provider === "pp_pix_a" ? "pp_pix_b" : "pp_pix_a";
                const switched = await shop.initiate(cartId, other, data);
                expect(switched.status, JSON.stringify(switched.data)).toBeLessThan(500);
                session = switched.status === 200 ? sessionOf(switched) : session;
              }
              await requests().where("id", "like", "pxcr_spent_%").delete();
              const completed = await shop.complete(cartId);
              expect(completed.status, JSON.stringify(completed.data)).toBeLessThan(500);
              const order = await orderOfCart(container(), cartId);
              if (order?.payment_collections[0]?.status === "completed") {
                // Paid: only by a charge the plugin created on this cart's own collection.
                const collectionId = order.payment_collections[0]!.id;
                const paying = await db(container())("pix_checkout_charge")
                  .where({ payment_collection_id: collectionId, status: "paid" })
                  .first();
                expect(paying, "a paid order with no charge of its own").toBeTruthy();
              }
              for (const victim of victims) {
                const row = await db(container())("pix_checkout_charge")
                  .where({ charge_id: victim.chargeId })
                  .first();
                expect(row.capture_session_id ?? row.session_id).not.toBe(session?.id);
              }
            } finally {
              await requests().where("id", "like", "pxcr_spent_%").delete();
            }
          }),
          { numRuns: 40, seed: Number(process.env.PIX_FUZZ_SEED ?? Date.now() % 2 ** 31) },
        );
        // 40 checkouts of several requests each: about a minute on a quiet machine; five are
        // room for a busy one, never a target.
      }, 300_000);
    });

    it("a refund Medusa sends again, with a new idempotency key, is recorded once", async () => {
      const cartId = await createCart(container(), store, 80);
      const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
      const chargeId = session.data.charge_id as string;
      await control(sandboxA.url, `charges/${chargeId}/pay`, {});
      await waitFor(
        async () => (await chargeRow(chargeId)).captured_at !== null,
        "the capture to be recorded",
      );
      const recorded = await admin("post", `/admin/pix-checkout/charges/${chargeId}/refunds`, {
        amount: 2_000,
        note: "devolvido pelo painel",
      });
      expect(recorded.data).toMatchObject({ recorded_in_medusa_cents: 2_000 });
      // Medusa retries a refund with a new key (its refund's own id), never the same one.
      const payments = container().resolve<IPaymentModuleService>(Modules.PAYMENT);
      const [payment] = await payments.listPayments({ payment_session_id: session.id });
      await expect(payments.refundPayment({ payment_id: payment!.id, amount: 20 })).rejects.toThrow(
        /Nothing was refunded/,
      );
      const refunds = await payments.listPayments(
        { payment_session_id: session.id },
        { relations: ["refunds"] },
      );
      const refunded = refunds
        .flatMap((p) => p.refunds ?? [])
        .reduce((sum, r) => sum + Math.round(Number(r.amount) * 100), 0);
      expect(refunded).toBe(2_000);
    });

    describe("a payment collection's id is no key to the shopper's code or CPF (issue #68)", () => {
      // Medusa answers `GET /store/orders/:id` without a login and lists the order's payment
      // collections: whoever holds an order's id holds its collection's id. The stranger plays
      // another loopback address, with only the publishable key.
      const stranger = () => storefront(http, store, "127.0.0.68");
      const STRANGER_CNPJ = "11.222.333/0001-81";
      const chargesOf = (collectionId: string) =>
        db(container())("pix_checkout_charge").where({ payment_collection_id: collectionId });
      const payerAtService = async (chargeId: string) =>
        (await (await fetch(`${sandboxA.url}/__sandbox/charges/${chargeId}/payer`)).json()) as Json;
      const collectionOfOrder = async (orderId: string) => {
        const order = await stranger().call("get", `/store/orders/${orderId}`);
        expect(order.status).toBe(200);
        return order.data.order.payment_collections[0].id as string;
      };
      const sessionsPath = (collectionId: string) =>
        `/store/payment-collections/${collectionId}/payment-sessions`;
      /** An order-first order of a cart whose code was made with `providerId` and `data`. */
      const orderFirst = async (cents: number, providerId: string, data: Json) => {
        const cartId = await createCart(container(), store, cents);
        const created = await shop.initiate(cartId, providerId, data);
        expect(created.status).toBe(200);
        const session = sessionOf(created);
        expect((await shop.complete(cartId)).data.type).toBe("order");
        const order = await orderOfCart(container(), cartId);
        return { session, orderId: order!.id, collectionId: await collectionOfOrder(order!.id) };
      };
      const expire = async (chargeId: string) => {
        await control(sandboxA.url, `charges/${chargeId}/expire`, {});
        await waitFor(
          async () =>
            (await db(container())("pix_checkout_charge").where({ charge_id: chargeId }).first())
              ?.status === "expired",
          "the code to expire",
        );
      };

      it("a stranger's boleto or Pix session on an order with a live boleto is refused 409, and the shopper's boleto stays live and unchanged", async () => {
        const { session, collectionId } = await orderFirst(121, "pp_boleto_a", BOLETO_PAYER);
        const tries = [
          { provider_id: "pp_boleto_a", data: { neighborhood: "x", number: "1" } },
          { provider_id: "pp_pix_a" },
          // A session id read off the order names the live code: no renewal of anything.
          { provider_id: "pp_boleto_a", data: { renews: session.id } },
        ];
        for (const body of tries) {
          const answer = await stranger().call("post", sessionsPath(collectionId), body);
          expect(answer.status).toBe(409);
          expect(answer.data.code).toBe("payment_code_in_progress");
          expect(JSON.stringify(answer.data)).not.toMatch(/52998224725|529\.982|boleto_url|Ana/);
        }
        const view = await shop.call("get", `/store/pix-checkout/sessions/${session.id}`);
        expect(view.status).toBe(200);
        expect(view.data.status).toBe("pending");
        expect(view.data.boleto.url).toBe(session.data.boleto.url);
        const rows = await chargesOf(collectionId);
        expect(rows).toHaveLength(1);
        expect(rows[0].superseded_at).toBeNull();
      });

      it("once the shopper's boleto expired, a stranger's boleto carries only the stranger's own document, and one without is refused missing_payer_data", async () => {
        const { session, collectionId } = await orderFirst(122, "pp_boleto_a", BOLETO_PAYER);
        await expire(session.data.charge_id);
        const bare = await stranger().call("post", sessionsPath(collectionId), {
          provider_id: "pp_boleto_a",
          data: { neighborhood: "x", number: "1" },
        });
        expect(bare.status).toBe(400);
        expect(bare.data.code).toBe("missing_payer_data");
        expect(await chargesOf(collectionId)).toHaveLength(1);

        const own = await stranger().call("post", sessionsPath(collectionId), {
          provider_id: "pp_boleto_a",
          data: {
            ...BOLETO_PAYER,
            email: "outro@example.com",
            document: STRANGER_CNPJ,
            billing_address: {
              ...BOLETO_PAYER.billing_address,
              first_name: "Outra",
              last_name: "Empresa",
            },
          },
        });
        expect(own.status).toBe(200);
        const theirs = sessionOf(own);
        expect(theirs.data.charge_id).not.toBe(session.data.charge_id);
        expect((await payerAtService(theirs.data.charge_id)).document).toBe("11222333000181");
      });

      it("the element's renewal names the expired code and gets a new one; once the cart is an order, a stranger cannot replace it, and a second tab's renewal shows it again", async () => {
        const cartId = await createCart(container(), store, 123);
        const first = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
        await expire(first.data.charge_id);
        const collectionId = (await shop.cart(cartId)).data.cart.payment_collection.id as string;
        // What the element's "Gerar novo código" sends.
        const renewed = await shop.call("post", sessionsPath(collectionId), {
          provider_id: "pp_pix_a",
          data: { renews: first.id },
        });
        expect(renewed.status).toBe(200);
        const fresh = sessionOf(renewed);
        expect(fresh.data.charge_id).not.toBe(first.data.charge_id);
        expect(fresh.data.status).toBe("pending");
        expect((await shop.complete(cartId)).data.type).toBe("order");
        // The order's code is live: a stranger cannot replace it, whatever it names.
        for (const data of [
          {},
          { renews: fresh.id },
          { renews: "payses_01JX3Q8Z2K4T0M9V6R7W5YNONE" },
        ]) {
          const answer = await stranger().call("post", sessionsPath(collectionId), {
            provider_id: "pp_boleto_a",
            data: { ...data, document: STRANGER_CNPJ, neighborhood: "x", number: "1" },
          });
          expect(answer.status).toBe(409);
          expect(answer.data.code).toBe("payment_code_in_progress");
        }
        const view = await shop.call("get", `/store/pix-checkout/sessions/${fresh.id}`);
        expect(view.data.status).toBe("pending");
        // A second tab still on the expired code renews it: the live code, shown again.
        const again = await shop.call("post", sessionsPath(collectionId), {
          provider_id: "pp_pix_a",
          data: { renews: first.id },
        });
        expect(again.status).toBe(200);
        expect(sessionOf(again).data.charge_id).toBe(fresh.data.charge_id);
      });

      it("an order canceled ends its codes: no code shown, no new code from anyone, no renewal offered (issue #69)", async () => {
        const boleto = await orderFirst(125, "pp_boleto_a", BOLETO_PAYER);
        await cancelOrderWorkflow(container()).run({ input: { order_id: boleto.orderId } });
        const ended = await waitFor(async () => {
          const view = await shop.call("get", `/store/pix-checkout/sessions/${boleto.session.id}`);
          return view.data.status === "canceled" ? view.data : false;
        }, "the canceled order's boleto to end");
        expect(ended.boleto).toBeUndefined();
        expect(ended.order).toEqual(expect.objectContaining({ payment: "canceled" }));

        // An order-first Pix whose code expired: the plugin ends the order waiting on it.
        const pix = await orderFirst(126, "pp_pix_a", {});
        await expire(pix.session.data.charge_id);
        const expired = await waitFor(async () => {
          const view = await shop.call("get", `/store/pix-checkout/sessions/${pix.session.id}`);
          return view.data.order?.payment === "canceled" ? view.data : false;
        }, "the expired Pix's order to be canceled");
        expect(expired.status).toBe("expired");
        expect(expired.renew).toBeUndefined();

        for (const [order, body] of [
          [boleto, { provider_id: "pp_pix_a" }],
          [boleto, { provider_id: "pp_boleto_a", data: { ...BOLETO_PAYER } }],
          [pix, { provider_id: "pp_pix_a", data: { renews: pix.session.id } }],
        ] as const) {
          const answer = await shop.call("post", sessionsPath(order.collectionId), body);
          expect(answer.status).toBe(409);
          expect(answer.data.code).toBe("order_canceled");
        }
        expect(await chargesOf(boleto.collectionId)).toHaveLength(1);
        expect(await chargesOf(pix.collectionId)).toHaveLength(1);
      });

      it("before its cart is an order, a boleto after a Pix with a CPF is not filled with that CPF", async () => {
        const cartId = await createCart(container(), store, 124);
        const pix = sessionOf(
          await shop.initiate(cartId, "pp_pix_a", { document: "529.982.247-25" }),
        );
        const boleto = await shop.initiate(cartId, "pp_boleto_a", {
          neighborhood: "x",
          number: "1",
        });
        expect(boleto.status).toBe(400);
        expect(boleto.data.code).toBe("missing_payer_data");
        // The refused boleto made no charge; the Pix's code is the cart's only one.
        const rows = await db(container())("pix_checkout_charge").where({
          payment_collection_id: (await shop.cart(cartId)).data.cart.payment_collection.id,
        });
        expect(rows.map((row: Json) => row.charge_id)).toEqual([pix.data.charge_id]);
      });
    });

    describe("every real the store holds is on the merchant's list", () => {
      it("a short payment first learned at cart completion is held and on the list, and Resolve cannot hide it", async () => {
        const cartId = await createCart(container(), store, 100);
        const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
        const chargeId = session.data.charge_id as string;
        await control(sandboxA.url, `transactions/${chargeId}/amount`, { amount: 9_000 });
        await control(sandboxA.url, "faults", { webhook_drop_rate: 1 });
        await control(sandboxA.url, `charges/${chargeId}/pay`, {});
        await sandboxA.webhooksIdle();

        const completed = await shop.complete(cartId);
        expect(completed.status).toBe(200);
        expect(await chargeRow(chargeId)).toMatchObject({ held_reason: "underpaid" });
        expect(await capturedCents(session.id)).toBe(0);
        expect((await attentionList()).get(chargeId)).toMatchObject({
          attention: "held",
          received: 9_000,
          amount: 10_000,
        });

        const resolved = await admin("post", `/admin/pix-checkout/charges/${chargeId}/resolve`, {
          note: "visto",
        });
        expect(resolved.status).toBe(409);
        expect(resolved.data.code).toBe("charge_needs_decision");
        expect((await attentionList()).get(chargeId)).toMatchObject({ attention: "held" });
        const health = await admin("get", "/admin/pix-checkout/health");
        expect(health.data.lines.find((l: Json) => l.id === "attention")).toMatchObject({
          state: "warning",
          detail: expect.objectContaining({ held: expect.any(Number) }),
        });
      });

      it("a refund due is on the list even when its note cannot be written", async () => {
        // Two codes of one cart, both paid: the second is money no order can come of.
        const cartId = await createCart(container(), store, 61);
        const first = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
        const second = sessionOf(await shop.initiate(cartId, "pp_boleto_a", BOLETO_PAYER));
        const firstCharge = first.data.charge_id as string;
        const secondCharge = second.data.charge_id as string;
        await control(sandboxA.url, `charges/${secondCharge}/pay`, {});
        await waitFor(
          async () => (await chargeRow(secondCharge)).captured_at !== null,
          "the boleto to be captured",
        );
        await withFailure(
          "pix_fail_refund_note",
          `create trigger pix_fail_refund_note before update on pix_checkout_charge for each row
             when (new.flag_code = 'refund_due' and old.flag_code is distinct from 'refund_due') execute function $fn`,
          async () => {
            await control(sandboxA.url, `charges/${firstCharge}/pay`, {});
            await waitFor(
              async () => (await chargeRow(firstCharge)).status === "paid",
              "the old code to be recorded paid",
            );
            await sandboxA.webhooksIdle();
            await reconcilePass(container(), later());
            // Whatever failed, no refund due is missing from the merchant's list.
            const due = await db(container())("pix_checkout_charge")
              .where("owed_cents", ">", 0)
              .pluck("charge_id");
            const listed = await attentionList();
            expect(due.filter((id: string) => !listed.has(id))).toEqual([]);
          },
        );
        await reconcilePass(container(), later());
        expect(await chargeRow(firstCharge)).toMatchObject({
          owed_reason: "paid_twice",
          flag_code: "refund_due",
        });
        expect((await attentionList()).get(firstCharge)).toMatchObject({ attention: "refund_due" });
      });

      it("a paid cart whose capture was recorded just before a crash still becomes an order", async () => {
        const { cartId, makeCompletable } = await uncompletableCart(44);
        const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
        const chargeId = session.data.charge_id as string;
        // The process records the capture, then dies before it writes anything about the cart.
        await withFailure(
          "pix_crash_after_capture",
          `create trigger pix_crash_after_capture before insert on pix_checkout_charge_event for each row
             when (new.kind in ('cart_completion_failed', 'cart_completed')) execute function $fn`,
          async () => {
            await control(sandboxA.url, `charges/${chargeId}/pay`, {});
            await waitFor(
              async () => (await chargeRow(chargeId)).captured_at !== null,
              "the capture to be recorded",
            );
            await sandboxA.webhooksIdle();
          },
        );
        expect(await orderOfCart(container(), cartId)).toBeUndefined();
        await makeCompletable();
        await reconcilePass(container(), later());
        expect((await orderOfCart(container(), cartId))?.payment_collections[0]?.status).toBe(
          "completed",
        );
        expect(await capturesOfSession(container(), session.id)).toBe(1);
        expect((await chargeRow(chargeId)).awaiting_order_since).toBeNull();
      });

      it("a paid cart that kept failing to become an order is a refund due, and the shopper's own cart.complete then makes no order", async () => {
        const { cartId, makeCompletable } = await uncompletableCart(52);
        const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
        const chargeId = session.data.charge_id as string;
        await control(sandboxA.url, `charges/${chargeId}/pay`, {});
        await waitFor(
          async () => (await chargeRow(chargeId)).captured_at !== null,
          "the capture to be recorded",
        );
        for (let pass = 1; pass <= 6; pass += 1) await reconcilePass(container(), later(pass * 3));
        expect(await chargeRow(chargeId)).toMatchObject({
          owed_cents: "5200",
          owed_reason: "cart_not_completed",
          captured_cents: "0",
        });
        expect((await attentionList()).get(chargeId)).toMatchObject({ attention: "refund_due" });

        // The cart could now become an order: the shopper's own completion must not make one
        // on money the store owes back.
        await makeCompletable();
        const completed = await shop.complete(cartId);
        expect(completed.status).toBeLessThan(500);
        expect(completed.data.type).not.toBe("order");
        expect(await orderOfCart(container(), cartId)).toBeUndefined();
        expect(await chargeRow(chargeId)).toMatchObject({ owed_reason: "cart_not_completed" });
      });

      it("cart completion never captures a payment another door holds the capture of; it is captured once", async () => {
        const cartId = await createCart(container(), store, 73);
        const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
        const chargeId = session.data.charge_id as string;
        await control(sandboxA.url, "faults", { webhook_drop_rate: 1 });
        await control(sandboxA.url, `charges/${chargeId}/pay`, {});
        await sandboxA.webhooksIdle();
        // A webhook's capture holds the right to capture, and its workflow runs right now.
        await db(container())("pix_checkout_charge")
          .where({ charge_id: chargeId })
          .update({
            capture_claimed_at: db(container()).fn.now(),
            capture_claimed_by: "webhook-x",
            capture_claim_door: "settlement",
          });

        const completed = await shop.complete(cartId);
        expect(completed.data.type).toBe("order");
        expect(await capturedCents(session.id)).toBe(0);

        // The holder died: once its claim lapses, the capture is made, once.
        await db(container())("pix_checkout_charge")
          .where({ charge_id: chargeId })
          .update({ capture_claimed_at: db(container()).raw("now() - interval '3 minutes'") });
        await reconcilePass(container(), later());
        // Whichever door gets there first (this pass, or the order-placed subscriber a busy
        // machine runs late) captures it; what matters is that it is captured, once.
        await waitFor(
          async () => (await capturedCents(session.id)) === 7_300,
          "the capture once the claim lapsed",
          30_000,
        );
        expect(await capturesOfSession(container(), session.id)).toBe(1);
      });

      it("a capture whose failures jump past the limit at once is on the merchant's list", async () => {
        const cartId = await createCart(container(), store, 29);
        const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
        const chargeId = session.data.charge_id as string;
        // Failures recorded by two doors at the same moment: the count goes 2 -> 4.
        const knex = db(container());
        await withFailure(
          "pix_fail_capture",
          `create trigger pix_fail_capture before insert on capture for each row execute function $fn`,
          async () => {
            await control(sandboxA.url, "faults", { webhook_drop_rate: 1 });
            await control(sandboxA.url, `charges/${chargeId}/pay`, {});
            await sandboxA.webhooksIdle();
            await knex("pix_checkout_charge_event").insert(
              [1, 2, 3].map((i) => ({
                id: `pxev_jump_${chargeId}_${i}`,
                charge_id: chargeId,
                kind: "capture_failed",
                source: "webhook",
                detail: JSON.stringify({ message: "injected" }),
                created_at: new Date(),
                updated_at: new Date(),
              })),
            );
            await reconcilePass(container(), later());
          },
        );
        const row = await chargeRow(chargeId);
        expect(row).toMatchObject({ status: "paid", captured_at: null });
        expect(row.flag_code).toBe("capture_failed");
        expect((await attentionList()).has(chargeId)).toBe(true);
      });

      it("a capture that keeps failing is flagged and listed, and still tried, further apart each time, until Medusa takes it", async () => {
        const cartId = await createCart(container(), store, 31);
        const session = sessionOf(await shop.initiate(cartId, "pp_pix_a"));
        const chargeId = session.data.charge_id as string;
        const knex = db(container());
        const failures = async () =>
          Number(
            (
              await knex("pix_checkout_charge_event")
                .where({ charge_id: chargeId, kind: "capture_failed" })
                .count({ n: "*" })
            )[0]!.n,
          );
        const start = Date.now();
        const at = (minutes: number) => new Date(start + minutes * 60_000);
        await withFailure(
          "pix_refuse_capture",
          `create trigger pix_refuse_capture before insert on capture for each row execute function $fn`,
          async () => {
            await control(sandboxA.url, "faults", { webhook_drop_rate: 1 });
            await control(sandboxA.url, `charges/${chargeId}/pay`, {});
            await sandboxA.webhooksIdle();
            // Medusa refuses every capture: each pass that tries records one more failure.
            await reconcilePass(container(), at(3));
            await waitFor(async () => (await failures()) >= 1, "the first failed capture");
            const tried = await failures();
            // The failures are a minute, 2, 4 … apart: a pass before the next try is due waits.
            for (let pass = 0; (await failures()) < 4 && pass < 8; pass++) {
              const last = await knex("pix_checkout_charge_event")
                .where({ charge_id: chargeId, kind: "capture_failed" })
                .max({ at: "created_at" });
              const lastAt = new Date(last[0]!.at).getTime();
              const n = await failures();
              const due = lastAt + Math.min(6 * 3_600_000, 60_000 * 2 ** (n - 1));
              await reconcilePass(container(), new Date(due - 5_000));
              expect(await failures(), "a pass before the retry is due").toBe(n);
              await reconcilePass(container(), new Date(due + 1_000));
              await waitFor(async () => (await failures()) === n + 1, `failure ${n + 1}`);
            }
            expect(await failures()).toBeGreaterThanOrEqual(Math.max(4, tried));
          },
        );
        // Past the third failure it is on the merchant's list…
        const flagged = await chargeRow(chargeId);
        expect(flagged).toMatchObject({
          status: "paid",
          captured_at: null,
          flag_code: "capture_failed",
        });
        expect((await attentionList()).has(chargeId)).toBe(true);
        // …and once Medusa takes captures again, the next due try lands, once.
        await reconcilePass(container(), new Date(Date.now() + 7 * 3_600_000));
        await waitFor(
          async () => (await capturedCents(session.id)) > 0,
          "the capture after Medusa came back",
          30_000,
        );
        expect(await capturesOfSession(container(), session.id)).toBe(1);
        expect((await chargeRow(chargeId)).captured_cents).toBe(String(session.data.amount_cents));
      });
    });
  },
});
