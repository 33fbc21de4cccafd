import path from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { medusaIntegrationTestRunner } from "@medusajs/test-utils";
import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import { updateRegionsWorkflow } from "@medusajs/medusa/core-flows";
import type { Knex } from "@medusajs/framework/mikro-orm/knex";
import type { Sandbox } from "@pix-checkout/sandbox";
import {
  createCart,
  createStoreFixture,
  type StoreFixture,
} from "../../packages/medusa/integration-tests/helpers/store-fixture.js";
import { orderOfCart } from "../../packages/medusa/integration-tests/helpers/checkout.js";
import { percentEncode, sendRaw, type RawResponse } from "../support/raw-http.js";
import { deliveryOutcomes, snapshotState } from "../support/state-snapshot.js";
import {
  contentType,
  hostileQuery,
  hugeString,
  malformedJson,
  oddUnicode,
  pollutionBody,
  pollutionKeys,
  wrongValue,
} from "../support/hostile-arbitraries.js";
import { captureLogs, type LogCapture } from "../support/log-capture.js";

// The plugin's own integration app: the built plugin, provider "a" (Pix + boleto, Variant A,
// webhook token below) and provider "b" (Pix only, Variant B, no token).
const APP = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../packages/medusa/integration-tests/app",
);
// A distinctive key, so "it never appears" is a real check.
const API_KEY = "sk_live_fuzz_5ecret_never_show_me";
const WEBHOOK_SECRET = "whsec-test-a-0123456789";
/** Cases per property: 400 batches of 25, sent concurrently within a batch. */
const BATCH = 25;
const RUNS = 400;

let sandboxA: Sandbox;
let sandboxB: Sandbox;
let logs: LogCapture;

beforeAll(async () => {
  const { startSandbox } = await import("@pix-checkout/sandbox");
  sandboxA = await startSandbox({ variant: "a", keys: [API_KEY], webhookRetryDelaysMs: [200] });
  sandboxB = await startSandbox({ variant: "b", keys: [API_KEY], webhookRetryDelaysMs: [200] });
  process.env.PIX_SANDBOX_A_URL = sandboxA.baseUrl;
  process.env.PIX_SANDBOX_B_URL = sandboxB.baseUrl;
  process.env.PIX_API_KEY = API_KEY;
});

afterAll(async () => {
  logs?.restore();
  await sandboxA?.close();
  await sandboxB?.close();
});

/** A case is answered acceptably: a status below 500, a coded JSON error, no secret. */
function expectCalmAnswer(response: RawResponse, what: string, bodyBytes = 0): void {
  // Past the documented 64 KiB cap the server may close the socket before reading it all.
  const refusedOversized = response.status === 0 && bodyBytes > 64 * 1024;
  if (refusedOversized) return;
  if (response.status >= 500 || response.status === 0) {
    throw new Error(
      `${what} got ${response.status}${response.error ? ` (${response.error})` : ""}: ${response.text.slice(0, 300)}`,
    );
  }
  if (response.text.includes(API_KEY)) throw new Error(`${what} leaked the secret key`);
  const json = String(response.headers["content-type"] ?? "").includes("application/json");
  if (response.status >= 400 && json) {
    const body = JSON.parse(response.text) as { code?: unknown; type?: unknown };
    if (typeof body.code !== "string" && typeof body.type !== "string") {
      throw new Error(`${what} got ${response.status} without a code: ${response.text}`);
    }
  }
}

medusaIntegrationTestRunner({
  cwd: APP,
  testSuite: ({ api, getContainer }) => {
    let store: StoreFixture;
    let origin: string;
    let db: Knex;
    let pending: { sessionId: string; chargeId: string };
    let paid: { sessionId: string; chargeId: string; cartId: string };
    let otherProviderSession: string;

    const keyHeader = () => ({ "x-publishable-api-key": store.publishableKey });

    /** Creates a cart and a session of `providerId` through the store API. */
    async function initiate(providerId: string, amount = 49.9) {
      const cartId = await createCart(getContainer(), store, amount);
      const json = { ...keyHeader(), "content-type": "application/json" };
      const collection = await sendRaw(origin, {
        method: "POST",
        path: "/store/payment-collections",
        headers: json,
        body: JSON.stringify({ cart_id: cartId }),
      });
      const collectionId = JSON.parse(collection.text).payment_collection.id as string;
      const created = await sendRaw(origin, {
        method: "POST",
        path: `/store/payment-collections/${collectionId}/payment-sessions`,
        headers: json,
        body: JSON.stringify({ provider_id: providerId }),
      });
      const session = JSON.parse(created.text).payment_collection.payment_sessions[0] as {
        id: string;
        data: { charge_id?: string };
      };
      return { sessionId: session.id, chargeId: session.data.charge_id ?? "", cartId };
    }

    async function statusOf(sessionId: string): Promise<string | undefined> {
      const response = await sendRaw(origin, {
        method: "GET",
        path: `/store/pix-checkout/sessions/${sessionId}`,
        headers: keyHeader(),
      });
      return response.status === 200 ? (JSON.parse(response.text).status as string) : undefined;
    }

    /**
     * The paid fixture is an order whose payment is complete, its charge captured, and every
     * follow-up of the capture delivered (the outbox's rows done).
     */
    async function paidFixtureSettled(): Promise<boolean> {
      const order = await orderOfCart(getContainer(), paid.cartId);
      if (order?.payment_collections[0]?.status !== "completed") return false;
      const charge = await db("pix_checkout_charge").where({ charge_id: paid.chargeId }).first();
      if (Number(charge?.captured_cents) !== 1234) return false;
      const followUps = await db("pix_checkout_outbox").where({ charge_id: paid.chargeId });
      return followUps.length > 0 && followUps.every((row) => row.done_at !== null);
    }

    /** Waits until every stored delivery has been processed (none left `received`). */
    async function deliveriesSettled(): Promise<void> {
      const deadline = Date.now() + 60_000;
      while ((await deliveryOutcomes(db)).received) {
        if (Date.now() > deadline) throw new Error("deliveries still unprocessed after 60 s");
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }

    beforeAll(async () => {
      logs = captureLogs(getContainer());
      store = await createStoreFixture(getContainer());
      origin = (api as unknown as { defaults: { baseURL: string } }).defaults.baseURL;
      db = getContainer().resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION);
      await fetch(`${sandboxA.url}/__sandbox/webhook-urls`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ url: `${origin}/hooks/pix-checkout/a?token=${WEBHOOK_SECRET}` }),
      });
      pending = await initiate("pp_pix_a");
      paid = await initiate("pp_pix_a", 12.34);
      await fetch(`${sandboxA.url}/__sandbox/charges/${paid.chargeId}/pay`, { method: "POST" });
      const deadline = Date.now() + 30_000;
      while ((await statusOf(paid.sessionId)) !== "paid") {
        if (Date.now() > deadline) throw new Error("the paid fixture never turned paid");
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // "Paid" on the shopper's page comes first; the capture, the cart's order and the
      // capture's follow-ups come after it. Every test compares against the state this hook
      // leaves, and Medusa's runner snapshots the database for its restores before the first
      // test, terminating the app's connections: a payment still settling there was cut off
      // (its order rolled back, its capture left to the reconciliation job, which then captured
      // it during a test). So the fixture is paid when its order is, and nothing follows.
      const orderDeadline = Date.now() + 60_000;
      while (!(await paidFixtureSettled())) {
        if (Date.now() > orderDeadline) throw new Error("the paid fixture's order never settled");
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await deliveriesSettled();
      // A session of a provider that is not this plugin's: the plugin must not serve it.
      await updateRegionsWorkflow(getContainer()).run({
        input: {
          selector: { id: store.regionId },
          update: {
            payment_providers: ["pp_pix_a", "pp_boleto_a", "pp_pix_b", "pp_system_default"],
          },
        },
      });
      otherProviderSession = (await initiate("pp_system_default", 10)).sessionId;
    });

    describe("webhook route", () => {
      const eventName = fc.constantFrom(
        "charge.paid",
        "charge.expired",
        "charge.failed",
        "transfer.completed",
        "transfer.failed",
      );
      // A delivery that passes the schema but names a charge nobody created: a forgery.
      const wellFormedUnknown = fc
        .record({
          event: eventName,
          uuid: fc.uuid(),
          amount: fc.integer({ min: 0, max: 2_000_000_000 }),
          extra: fc.option(fc.dictionary(fc.string({ maxLength: 8 }), wrongValue, { maxKeys: 3 })),
        })
        .map(({ event, uuid, amount, extra }) =>
          JSON.stringify({
            event,
            data: {
              ...(extra ?? {}),
              uuid,
              id: event.startsWith("transfer.") ? `wd_${uuid}` : undefined,
              amount,
              status: event.split(".")[1],
            },
          }),
        );
      const wrongTypes = fc
        .record({
          event: fc.oneof(eventName, wrongValue),
          data: fc.oneof(
            fc.dictionary(
              fc.constantFrom("uuid", "id", "amount", "status", "method", "customer", "paid_at"),
              wrongValue,
              { maxKeys: 6 },
            ),
            wrongValue,
          ),
        })
        .map((body) => JSON.stringify(body));
      const oversized = fc
        .integer({ min: 64 * 1024 + 1, max: 600 * 1024 })
        .map((size) => `{"event":"charge.paid","data":{"uuid":"${"x".repeat(size)}"}}`);
      const body = fc.oneof(
        { arbitrary: malformedJson, weight: 4 },
        { arbitrary: fc.json({ maxDepth: 3 }), weight: 2 },
        { arbitrary: wrongTypes, weight: 5 },
        { arbitrary: wellFormedUnknown, weight: 2 },
        { arbitrary: pollutionBody, weight: 2 },
        {
          arbitrary: hugeString.map((s) => JSON.stringify({ event: s, data: { uuid: s } })),
          weight: 1,
        },
        { arbitrary: oversized, weight: 1 },
      );
      const token = fc.oneof(
        { arbitrary: fc.constant(`?token=${WEBHOOK_SECRET}`), weight: 6 },
        { arbitrary: fc.constant(""), weight: 1 },
        { arbitrary: fc.string().map((s) => `?token=${percentEncode(s)}`), weight: 1 },
        { arbitrary: fc.constant(`?token=${WEBHOOK_SECRET}&token=x`), weight: 1 },
        { arbitrary: fc.constant(`?token[]=${WEBHOOK_SECRET}`), weight: 1 },
      );
      const provider = fc.oneof(
        { arbitrary: fc.constant("a"), weight: 6 },
        { arbitrary: fc.constant("b"), weight: 2 },
        { arbitrary: fc.oneof(oddUnicode, pollutionKeys, fc.string()), weight: 2 },
      );
      const webhookCase = fc.record({ provider, token, body, contentType });

      it(`answers ${BATCH * RUNS} hostile deliveries below 500 and changes no charge, order or payment`, async () => {
        const before = await snapshotState(db);
        const outcomesBefore = await deliveryOutcomes(db);
        const started = Date.now();
        let sent = 0;
        let accepted = 0;
        await fc.assert(
          fc.asyncProperty(
            fc.array(webhookCase, { minLength: BATCH, maxLength: BATCH }),
            async (cases) => {
              const answers = await Promise.all(
                cases.map((c) =>
                  sendRaw(origin, {
                    method: "POST",
                    path: `/hooks/pix-checkout/${percentEncode(c.provider)}${c.token}`,
                    headers: c.contentType ? { "content-type": c.contentType } : {},
                    body: c.body,
                  }),
                ),
              );
              answers.forEach((answer, i) => {
                const c = cases[i]!;
                expectCalmAnswer(
                  answer,
                  `POST webhook ${JSON.stringify(c).slice(0, 200)}`,
                  Buffer.byteLength(c.body),
                );
                const rightToken = c.token === `?token=${WEBHOOK_SECRET}`;
                if (c.provider === "a" && !rightToken && answer.status !== 401) {
                  throw new Error(
                    `a delivery with token "${c.token}" got ${answer.status}, not 401`,
                  );
                }
                if (answer.status === 200) accepted += 1;
              });
              sent += cases.length;
            },
          ),
          { numRuns: RUNS },
        );
        console.log(
          `webhook fuzz: ${sent} cases, ${accepted} accepted, ${Math.round((Date.now() - started) / 1000)} s`,
        );
        await deliveriesSettled();
        expect(sent).toBeGreaterThanOrEqual(10_000);
        expect(await snapshotState(db)).toEqual(before);
        const outcomesAfter = await deliveryOutcomes(db);
        // Accepted deliveries are stored (that is the contract: stored before 200), and each
        // one was judged a forgery or left unmatched, never processed.
        expect(outcomesAfter.processed ?? 0).toBe(outcomesBefore.processed ?? 0);
        const grown = Object.entries(outcomesAfter).reduce(
          (sum, [outcome, n]) => sum + n - (outcomesBefore[outcome] ?? 0),
          0,
        );
        expect(grown).toBe(accepted);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      });
    });

    describe("store routes", () => {
      const sessionId = fc.oneof(
        { arbitrary: fc.constant("PENDING"), weight: 2 },
        { arbitrary: fc.constant("PAID"), weight: 2 },
        { arbitrary: fc.constant("OTHER"), weight: 1 },
        {
          // Guessed ids: the right shape, a plausible ULID, nobody's session.
          arbitrary: fc.stringMatching(/^payses_01[0-9A-HJKMNP-TV-Z]{24}$/),
          weight: 4,
        },
        { arbitrary: fc.string({ unit: "binary", maxLength: 60 }), weight: 3 },
        { arbitrary: oddUnicode, weight: 2 },
        { arbitrary: pollutionKeys, weight: 2 },
        {
          arbitrary: fc.constantFrom(
            "' or 1=1 --",
            "../../admin/orders",
            "%00",
            "%E0%A4%A",
            "a/b",
            " ",
          ),
          weight: 2,
        },
        { arbitrary: fc.integer({ min: 200, max: 12_000 }).map((n) => "p".repeat(n)), weight: 1 },
      );
      const storeCase = fc.record({
        route: fc.constantFrom("", "/refresh", "/qr.svg", "/stream"),
        wrongMethod: fc.boolean(),
        sessionId,
        key: fc.oneof(
          { arbitrary: fc.constant("RIGHT"), weight: 5 },
          { arbitrary: fc.constant(undefined), weight: 1 },
          { arbitrary: fc.stringMatching(/^pk_[0-9a-f]{8,64}$/), weight: 1 },
          { arbitrary: fc.string({ unit: "grapheme-ascii", maxLength: 80 }), weight: 1 },
        ),
        query: hostileQuery,
        body: fc.option(fc.oneof(malformedJson, fc.json({ maxDepth: 2 }), pollutionBody)),
        contentType,
      });

      it(`answers ${BATCH * RUNS} hostile store requests below 500, serves no guessed session and changes nothing`, async () => {
        const before = await snapshotState(db);
        const started = Date.now();
        let sent = 0;
        await fc.assert(
          fc.asyncProperty(
            fc.array(storeCase, { minLength: BATCH, maxLength: BATCH }),
            async (cases) => {
              const answers = await Promise.all(
                cases.map((c) => {
                  const id =
                    c.sessionId === "PENDING"
                      ? pending.sessionId
                      : c.sessionId === "PAID"
                        ? paid.sessionId
                        : c.sessionId === "OTHER"
                          ? otherProviderSession
                          : c.sessionId;
                  const encoded = percentEncode(id);
                  const method =
                    c.route === "/refresh"
                      ? c.wrongMethod
                        ? "GET"
                        : "POST"
                      : c.wrongMethod
                        ? "POST"
                        : "GET";
                  const headers: Record<string, string> = {};
                  if (c.key === "RIGHT") headers["x-publishable-api-key"] = store.publishableKey;
                  else if (c.key !== undefined) headers["x-publishable-api-key"] = c.key;
                  if (c.contentType) headers["content-type"] = c.contentType;
                  return sendRaw(origin, {
                    method,
                    path: `/store/pix-checkout/sessions/${encoded}${c.route}${c.query}`,
                    headers,
                    ...(c.body !== null ? { body: c.body } : {}),
                  }).then((answer) => ({ answer, id, method }));
                }),
              );
              answers.forEach(({ answer, id, method }, i) => {
                const c = cases[i]!;
                const what = `${method} session ${JSON.stringify(c).slice(0, 200)}`;
                expectCalmAnswer(answer, what);
                const known = id === pending.sessionId || id === paid.sessionId;
                if (
                  !known &&
                  answer.status < 300 &&
                  !(method === "POST" && c.route !== "/refresh")
                ) {
                  throw new Error(`${what} served a session nobody created: ${answer.status}`);
                }
              });
              sent += cases.length;
            },
          ),
          { numRuns: RUNS },
        );
        console.log(`store fuzz: ${sent} cases, ${Math.round((Date.now() - started) / 1000)} s`);
        expect(sent).toBeGreaterThanOrEqual(10_000);
        expect(await snapshotState(db)).toEqual(before);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      });

      // Express flags a broken percent-escape in the path as a 400 (URIError); Medusa's core
      // error handler would make it 500 unknown_error, so the plugin's error handler answers its
      // own paths 400 invalid_path (route-failures.ts).
      it("a broken percent-escape in the session id gets 400 invalid_path, not 500", async () => {
        for (const broken of ["%", "%%00", "%E0%A4%A"]) {
          const answer = await sendRaw(origin, {
            method: "GET",
            path: `/store/pix-checkout/sessions/${broken}`,
            headers: keyHeader(),
          });
          expect(answer.status, broken).toBe(400);
          expect(JSON.parse(answer.text), broken).toMatchObject({ code: "invalid_path" });
        }
      });
    });

    describe("webhooks that lie, repeat or come late", () => {
      const deliver = (event: unknown, token = WEBHOOK_SECRET) =>
        sendRaw(origin, {
          method: "POST",
          path: `/hooks/pix-checkout/a${token ? `?token=${token}` : ""}`,
          headers: { "content-type": "application/json" },
          body: JSON.stringify(event),
        });
      const chargeRow = (chargeId: string) =>
        db("pix_checkout_charge").where({ charge_id: chargeId }).first();

      it("a forged charge.paid for a pending charge leaves it pending and uncaptured", async () => {
        const before = await snapshotState(db);
        const answer = await deliver({
          event: "charge.paid",
          data: { uuid: pending.chargeId, amount: 4990, status: "paid", method: "pix" },
        });
        expect(answer.status).toBe(200);
        await deliveriesSettled();
        expect((await chargeRow(pending.chargeId)).status).toBe("pending");
        const after = await snapshotState(db);
        expect({ ...after, chargeEvents: [] }).toEqual({ ...before, chargeEvents: [] });
      });

      // Found by the property above: Postgres jsonb cannot hold U+0000 or a lone surrogate, so
      // the route refuses such deliveries with 400 invalid_webhook before storing anything.
      it("a delivery whose data holds a NUL character gets 400 invalid_webhook, not 500", async () => {
        const answer = await sendRaw(origin, {
          method: "POST",
          path: `/hooks/pix-checkout/a?token=${WEBHOOK_SECRET}`,
          headers: { "content-type": "application/json" },
          body: '{"event":"charge.paid","data":{"uuid":"00000000-0000-4000-8000-000000000000","amount":1,"status":"paid","description":"\\u0000"}}',
        });
        expect(answer.status).toBe(400);
        expect(answer.text).toContain("invalid_webhook");
      });

      it("a delivery whose data holds a lone surrogate gets 400 invalid_webhook, not 500", async () => {
        const answer = await sendRaw(origin, {
          method: "POST",
          path: `/hooks/pix-checkout/a?token=${WEBHOOK_SECRET}`,
          headers: { "content-type": "application/json" },
          body: '{"event":"charge.paid","data":{"uuid":"00000000-0000-4000-8000-000000000000","amount":1,"status":"paid","description":"\\ud800"}}',
        });
        expect(answer.status).toBe(400);
        expect(answer.text).toContain("invalid_webhook");
      });

      it("a charge.paid without the URL token is refused with 401 and not stored", async () => {
        const outcomes = await deliveryOutcomes(db);
        const answer = await deliver(
          { event: "charge.paid", data: { uuid: pending.chargeId, amount: 4990, status: "paid" } },
          "",
        );
        expect(answer.status).toBe(401);
        expect(JSON.parse(answer.text).code).toBe("webhook_unauthorized");
        expect(await deliveryOutcomes(db)).toEqual(outcomes);
      });

      it("replaying the real charge.paid ten times keeps one capture", async () => {
        const event = {
          event: "charge.paid",
          data: { uuid: paid.chargeId, amount: 1234, status: "paid" },
        };
        const before = await snapshotState(db);
        const answers = await Promise.all(Array.from({ length: 10 }, () => deliver(event)));
        expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
        await deliveriesSettled();
        const after = await snapshotState(db);
        expect(after.captures).toEqual(before.captures);
        expect(after.payments).toEqual(before.payments);
      });

      it("a charge.expired arriving after payment leaves the charge paid", async () => {
        const answer = await deliver({
          event: "charge.expired",
          data: { uuid: paid.chargeId, amount: 1234, status: "expired" },
        });
        expect(answer.status).toBe(200);
        await deliveriesSettled();
        expect((await chargeRow(paid.chargeId)).status).toBe("paid");
        expect(await statusOf(paid.sessionId)).toBe("paid");
      });
    });

    describe("leak scan", () => {
      it("the secret key appears in no log line or error written during the whole suite", () => {
        expect(logs.lines().length).toBeGreaterThan(0);
        expect(logs.lines().filter((line) => line.includes(API_KEY))).toEqual([]);
      });

      it("the plugin logged the hostile deliveries it refused, without the key", () => {
        expect(logs.lines().some((line) => line.includes("rejected"))).toBe(true);
      });
    });
  },
});
