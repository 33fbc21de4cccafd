import path from "node:path";
import { medusaIntegrationTestRunner } from "@medusajs/test-utils";
import { knex as createKnex, type Knex } from "@medusajs/framework/mikro-orm/knex";
import { createApiKeysWorkflow, updateRegionsWorkflow } from "@medusajs/medusa/core-flows";
import type { Sandbox } from "@pix-checkout/sandbox" with { "resolution-mode": "import" };
import {
  createCart,
  createOtherStorefrontKey,
  createStoreFixture,
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
import { request as httpRequest } from "node:http";
import { createRequire } from "node:module";
import { ContainerRegistrationKeys } from "@medusajs/framework/utils";
import { startCountingProxy, type CountingProxy } from "../helpers/counting-proxy";
import { freeLoopbackPortSync, startCuttableTcpProxy } from "../helpers/cuttable-tcp-proxy";
import { openSse } from "../helpers/sse";
import { decodeQrSvg } from "../helpers/qr-decode";
import { waitFor } from "../helpers/wait-for";
import { adminLogin } from "../helpers/admin-login";
import { LiveStatusHub } from "../../src/internal/storefront/live-status/hub";
import type { ChargeRow } from "../../src/internal/records/charges";

// A distinctive key, so "it never appears in a response" is a real check.
const API_KEY = "sk_live_store_routes_5ecret_key";
const WEBHOOK_SECRET = "whsec-test-a-0123456789";
const CONTRACT_KEYS = [
  "amount",
  "currency",
  "expires_at",
  "method",
  "paid_at",
  "pix",
  "server_time",
  "session_id",
  "status",
];

/** One argument of a logger call as text (Medusa's handler logs the Error itself). */
function logText(arg: unknown): string {
  if (typeof arg === "string") return arg;
  if (arg instanceof Error) return `${arg.message} ${arg.stack ?? ""}`;
  try {
    return JSON.stringify(arg);
  } catch {
    return String(arg);
  }
}

let sandbox: Sandbox;
let proxy: CountingProxy;

// Medusa's database connection goes through a TCP proxy the "database cut" tests cut: the runner
// builds Medusa's database URL from DB_PORT when it is constructed below, while it makes and
// restores the test database straight on Postgres's port (read when test-utils was imported).
const PG_PORT = Number(process.env.DB_PORT ?? 5432);
const pgProxy = startCuttableTcpProxy(PG_PORT, freeLoopbackPortSync());
process.env.DB_PORT = String(pgProxy.port);
// Registered before the runner's own hooks, so the proxy listens before Medusa connects.
beforeAll(() => pgProxy.ready);
afterAll(async () => pgProxy.close());

beforeAll(async () => {
  const { startSandbox } = await import("@pix-checkout/sandbox");
  // A second retry 3 s on: a delivery the store refused while its database was cut comes again
  // once it is back (the service's own schedule is 1 s, 5 s, 30 s, 2 min, 10 min).
  sandbox = await startSandbox({
    variant: "a",
    keys: [API_KEY],
    webhookRetryDelaysMs: [300, 3_000],
  });
  proxy = await startCountingProxy(sandbox.url);
  process.env.PIX_SANDBOX_A_URL = proxy.baseUrl;
  process.env.PIX_API_KEY = API_KEY;
});

afterAll(async () => {
  await proxy?.close();
  await sandbox?.close();
});

medusaIntegrationTestRunner({
  cwd: path.join(__dirname, "..", "app"),
  testSuite: ({ api, getContainer }) => {
    let store: StoreFixture;
    let shop: ReturnType<typeof storefront>;
    let baseUrl: string;
    const container = () => getContainer();
    const keyHeader = () => ({ "x-publishable-api-key": store.publishableKey });

    beforeAll(async () => {
      store = await createStoreFixture(container());
      await updateRegionsWorkflow(container()).run({
        input: {
          selector: { id: store.regionId },
          update: {
            payment_providers: ["pp_pix_a", "pp_boleto_a", "pp_pix_b", "pp_system_default"],
          },
        },
      });
      shop = storefront(api as unknown as Api, store);
      baseUrl = (api as unknown as Api).defaults.baseURL!;
      await control(sandbox.url, "webhook-urls", {
        url: `${baseUrl}/hooks/pix-checkout/a?token=${WEBHOOK_SECRET}`,
      });
    });

    beforeEach(async () => {
      await fetch(`${sandbox.url}/__sandbox/faults`, { method: "DELETE" });
    });

    /** A new Pix session on a fresh cart; returns its id and charge id. */
    async function pixSession(
      amount = 49.9,
    ): Promise<{ id: string; chargeId: string; cartId: string }> {
      const cartId = await createCart(container(), store, amount);
      const created = await shop.initiate(cartId, "pp_pix_a");
      const session = created.data.payment_collection.payment_sessions[0] as {
        id: string;
        data: Json;
      };
      return { id: session.id, chargeId: session.data.charge_id as string, cartId };
    }
    const status = (id: string) => shop.call("get", `/store/pix-checkout/sessions/${id}`);
    const refresh = (id: string) => shop.call("post", `/store/pix-checkout/sessions/${id}/refresh`);

    describe("status route", () => {
      it("answers only the contract's fields, in cents, for a pending Pix session", async () => {
        const session = await pixSession(49.9);
        const response = await status(session.id);
        expect(response.status).toBe(200);
        expect(Object.keys(response.data).sort()).toEqual(CONTRACT_KEYS);
        expect(response.data).toMatchObject({
          session_id: session.id,
          method: "pix",
          status: "pending",
          amount: 4990,
          currency: "BRL",
          paid_at: null,
        });
        expect(Object.keys(response.data.pix).sort()).toEqual([
          "copy_paste",
          "payment_link",
          "qr_code",
          "qr_image_url",
        ]);
        expect(response.data.pix.qr_image_url).toBe(
          `/store/pix-checkout/sessions/${session.id}/qr.svg`,
        );
        expect(JSON.stringify(response.data)).not.toContain(API_KEY);
      });

      it("answers 404 session_not_found for an unknown session", async () => {
        const response = await status("payses_01UNKNOWN000000000000000");
        expect(response.status).toBe(404);
        expect(response.data.code).toBe("session_not_found");
      });

      it("answers 404 for a payment session of another provider", async () => {
        const cartId = await createCart(container(), store, 10);
        const created = await shop.initiate(cartId, "pp_system_default");
        const sessionId = created.data.payment_collection.payment_sessions[0].id as string;
        const response = await status(sessionId);
        expect(response.status).toBe(404);
        expect(response.data.code).toBe("session_not_found");
      });

      it("answers another storefront's publishable key 404 on every route, as if the session did not exist", async () => {
        const session = await pixSession();
        const otherKey = await createOtherStorefrontKey(container());
        const asOther = (method: string, url: string) =>
          (api as unknown as Api).request({
            method,
            url,
            headers: { "x-publishable-api-key": otherKey },
            validateStatus: () => true,
          });
        const base = `/store/pix-checkout/sessions/${session.id}`;
        for (const [method, url] of [
          ["get", base],
          ["get", `${base}/qr.svg`],
          ["get", `${base}/stream`],
          ["post", `${base}/refresh`],
          ["post", `${base}/shown`],
        ] as const) {
          const response = await asOther(method, url);
          expect(response.status, `${method} ${url}`).toBe(404);
          expect(response.data.code, `${method} ${url}`).toBe("session_not_found");
        }
        // The key itself works, and the session's own storefront still sees it.
        expect((await asOther("get", `/store/regions`)).status).toBe(200);
        expect((await status(session.id)).status).toBe(200);
      });

      it("answers another storefront's key 404 on an order's page too, and the order's own storefront what it is owed", async () => {
        const session = await pixSession(19.9);
        await control(sandbox.url, `charges/${session.chargeId}/pay`, {});
        const order = await waitFor(() => orderOfCart(container(), session.cartId), "its order");
        const url = `/store/pix-checkout/orders/${order.id}`;
        const otherKey = await createOtherStorefrontKey(container());
        const asOther = await (api as unknown as Api).request({
          method: "get",
          url,
          headers: { "x-publishable-api-key": otherKey },
          validateStatus: () => true,
        });
        expect([asOther.status, asOther.data.code]).toEqual([404, "order_not_found"]);
        const own = await shop.call("get", url);
        expect([own.status, own.data]).toEqual([
          200,
          {
            order_id: order.id,
            display_id: expect.any(Number),
            payment: expect.stringMatching(/^(paid|awaiting)$/),
            earlier_payment: null,
          },
        ]);
      });

      it("answers a publishable key linked to no sales channel 404, as Medusa's own store routes refuse it", async () => {
        const session = await pixSession();
        const { result } = await createApiKeysWorkflow(container()).run({
          input: { api_keys: [{ title: "no channel", type: "publishable", created_by: "" }] },
        });
        const response = await (api as unknown as Api).request({
          method: "get",
          url: `/store/pix-checkout/sessions/${session.id}`,
          headers: { "x-publishable-api-key": result[0]!.token },
          validateStatus: () => true,
        });
        expect(response.status).toBe(404);
        expect(response.data.code).toBe("session_not_found");
        expect((await status(session.id)).status).toBe(200);
      });

      it("answers 400 invalid_session_id for a malformed id", async () => {
        const response = await status("payses_'%20or%201=1");
        expect(response.status).toBe(400);
        expect(response.data.code).toBe("invalid_session_id");
      });

      it("refuses a request without a publishable key", async () => {
        const session = await pixSession();
        const response = await (api as unknown as Api).request({
          method: "get",
          url: `/store/pix-checkout/sessions/${session.id}`,
          validateStatus: () => true,
        });
        expect(response.status).toBe(400);
        expect(JSON.stringify(response.data)).not.toContain("copy_paste");
      });

      it("never calls the payment API however often it is polled", async () => {
        const session = await pixSession();
        const before = proxy.calls.length;
        for (let i = 0; i < 20; i += 1) expect((await status(session.id)).status).toBe(200);
        expect(proxy.calls.slice(before)).toEqual([]);
      });
      it("answers a boleto session with its boleto block and no payer data", async () => {
        const cartId = await createCart(container(), store, 120);
        const created = await shop.initiate(cartId, "pp_boleto_a", BOLETO_PAYER);
        const sessionId = created.data.payment_collection.payment_sessions[0].id as string;
        const response = await status(sessionId);
        expect(response.status).toBe(200);
        expect(response.data).toMatchObject({ method: "boleto", amount: 12000 });
        expect(Object.keys(response.data.boleto).sort()).toEqual([
          "barcode",
          "digitable_line",
          "due_date",
          "url",
        ]);
        expect(response.data.boleto.due_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(response.data).not.toHaveProperty("pix");
        expect(JSON.stringify(response.data)).not.toMatch(/52998224725|529\.982|ana@example/);
        const qr = await shop.call("get", `/store/pix-checkout/sessions/${sessionId}/qr.svg`);
        expect(qr.status).toBe(404);
        expect(qr.data.code).toBe("qr_not_available");
      });
    });

    describe("stream", () => {
      it("sends the current session at once, then the paid status when the webhook lands", async () => {
        const session = await pixSession();
        const stream = await openSse(
          `${baseUrl}/store/pix-checkout/sessions/${session.id}/stream`,
          keyHeader(),
        );
        try {
          expect(stream.status).toBe(200);
          expect(stream.contentType).toMatch(/^text\/event-stream/);
          expect(await stream.next()).toMatchObject({ session_id: session.id, status: "pending" });
          await control(sandbox.url, `charges/${session.chargeId}/pay`, {});
          const paid = await stream.next();
          expect(paid).toMatchObject({ session_id: session.id, status: "paid", amount: 4990 });
          expect(paid.paid_at).toEqual(expect.any(String));
          await stream.ended();
        } finally {
          stream.close();
        }
      });

      it("answers 404 for an unknown session instead of opening a stream", async () => {
        const response = await shop.call("get", "/store/pix-checkout/sessions/payses_nope/stream");
        expect(response.status).toBe(404);
        expect(response.data.code).toBe("session_not_found");
      });
    });

    describe("live status across instances", () => {
      let otherDb: Knex;
      let hub: LiveStatusHub;
      const logger = { debug() {}, info() {}, warn() {}, error() {} };

      beforeAll(() => {
        // A second instance: its own connection pool to the same database.
        const main = db(container()) as unknown as { client: { config: Knex.Config } };
        otherDb = createKnex(main.client.config);
      });
      afterEach(async () => hub?.close());
      afterAll(async () => otherDb?.destroy());

      /** Resolves with the first row of `sessionId` whose status is `wanted`. */
      const statusSeen = (h: LiveStatusHub, sessionId: string, wanted: string) =>
        new Promise<ChargeRow>((resolve) => {
          const off = h.subscribe(sessionId, (row) => {
            if (row?.status === wanted) {
              off?.();
              resolve(row);
            }
          });
        });

      it("tells a subscriber on another connection about a webhook processed here", async () => {
        hub = new LiveStatusHub(otherDb, logger, {
          maxConnections: 10,
          pollIntervalMs: 60_000,
          reconnectMs: 1_000,
        });
        const session = await pixSession();
        const seen = statusSeen(hub, session.id, "paid");
        await waitFor(async () => hub.mode === "listen", "the hub to LISTEN");
        await control(sandbox.url, `charges/${session.chargeId}/pay`, {});
        expect((await seen).charge_id).toBe(session.chargeId);
      });

      it("falls back to polling the table when its LISTEN connection is killed", async () => {
        hub = new LiveStatusHub(otherDb, logger, {
          maxConnections: 10,
          pollIntervalMs: 200,
          reconnectMs: 60_000,
        });
        const session = await pixSession();
        const seen = statusSeen(hub, session.id, "paid");
        await waitFor(async () => hub.mode === "listen", "the hub to LISTEN");
        await db(container()).raw(
          `select pg_terminate_backend(pid) from pg_stat_activity
           where pid <> pg_backend_pid() and query ilike 'LISTEN pix_checkout_charge%'`,
        );
        await waitFor(async () => hub.mode === "poll", "the hub to poll");
        await control(sandbox.url, `charges/${session.chargeId}/pay`, {});
        expect((await seen).status).toBe("paid");
      });

      it("refuses subscribers beyond its connection cap", () => {
        hub = new LiveStatusHub(otherDb, logger, {
          maxConnections: 1,
          pollIntervalMs: 60_000,
          reconnectMs: 1_000,
        });
        expect(hub.subscribe("payses_a", () => undefined)).toBeTypeOf("function");
        expect(hub.subscribe("payses_b", () => undefined)).toBeUndefined();
      });
    });

    describe("refresh", () => {
      it("re-checks upstream and reports a payment whose webhook was lost", async () => {
        await control(sandbox.url, "faults", { webhook_drop_rate: 1 });
        const session = await pixSession();
        await control(sandbox.url, `charges/${session.chargeId}/pay`, {});
        expect((await status(session.id)).data.status).toBe("pending");
        const response = await refresh(session.id);
        expect(response.status).toBe(200);
        expect(response.data).toMatchObject({ session_id: session.id, status: "paid" });
        const order = await waitFor(async () => {
          const o = await orderOfCart(container(), session.cartId);
          return o?.payment_collections[0]?.status === "completed" && o;
        }, "the refreshed payment to complete the cart");
        expect(order.id).toMatch(/^order_/);
      });

      it("answers a second refresh within 10 s with 429 and Retry-After", async () => {
        const session = await pixSession();
        expect((await refresh(session.id)).status).toBe(200);
        const before = proxy.calls.length;
        const second = (await (api as unknown as Api).request({
          method: "post",
          url: `/store/pix-checkout/sessions/${session.id}/refresh`,
          headers: keyHeader(),
          validateStatus: () => true,
        })) as { status: number; data: Json; headers: Record<string, string> };
        expect(second.status).toBe(429);
        expect(second.data.code).toBe("refresh_rate_limited");
        const retryAfter = Number(second.headers["retry-after"]);
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(retryAfter).toBeLessThanOrEqual(10);
        expect(proxy.calls.slice(before)).toEqual([]);
      });
    });

    describe("QR image", () => {
      it("serves an SVG that decodes to the session's copy-and-paste code", async () => {
        const session = await pixSession();
        const view = (await status(session.id)).data;
        const response = await fetch(`${baseUrl}${view.pix.qr_image_url}`, {
          headers: keyHeader(),
        });
        expect(response.status).toBe(200);
        expect(response.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
        expect(response.headers.get("cache-control")).toMatch(/max-age=\d+/);
        expect(decodeQrSvg(await response.text())).toBe(view.pix.copy_paste);
      });

      it("answers a repeat request carrying the ETag with 304", async () => {
        const session = await pixSession();
        const url = `${baseUrl}/store/pix-checkout/sessions/${session.id}/qr.svg`;
        const first = await fetch(url, { headers: keyHeader() });
        const etag = first.headers.get("etag");
        expect(etag).toEqual(expect.any(String));
        const again = await fetch(url, { headers: { ...keyHeader(), "if-none-match": etag! } });
        expect(again.status).toBe(304);
      });
    });

    describe("admin routes", () => {
      let adminHeaders: Record<string, string>;
      const admin = (method: string, url: string, headers = adminHeaders) =>
        (api as unknown as Api).request({ method, url, headers, validateStatus: () => true });

      beforeAll(async () => {
        adminHeaders = await adminLogin(container(), "merchant@example.com");
      });

      it.each([
        ["get", "/admin/pix-checkout/balance"],
        ["get", "/admin/pix-checkout/transactions"],
        ["get", "/admin/pix-checkout/deliveries"],
        ["get", "/admin/pix-checkout/charges?needs_attention=true"],
        ["get", "/admin/pix-checkout/orders/order_123"],
        ["post", "/admin/pix-checkout/charges/abc/refresh"],
      ])("%s %s requires an admin login", async (method, url) => {
        const response = await admin(method, url, {});
        expect(response.status).toBe(401);
      });

      it("shows an order's charge with its webhook delivery and state changes", async () => {
        const session = await pixSession(30);
        const completed = await shop.complete(session.cartId);
        const orderId = completed.data.order.id as string;
        await control(sandbox.url, `charges/${session.chargeId}/pay`, {});
        await waitFor(async () => (await status(session.id)).data.status === "paid", "payment");
        const response = await waitFor(async () => {
          const r = await admin("get", `/admin/pix-checkout/orders/${orderId}`);
          const timeline = r.data.charges?.[0]?.timeline ?? [];
          return (
            timeline.some((t: Json) => t.kind === "captured") &&
            timeline.some((t: Json) => t.type === "delivery" && t.outcome === "processed") &&
            r
          );
        }, "the timeline to show the delivery and capture");
        const charge = response.data.charges[0];
        expect(charge).toMatchObject({
          charge_id: session.chargeId,
          status: "paid",
          amount: 3000,
          method: "pix",
        });
        expect(charge.pix.copy_paste).toEqual(expect.any(String));
        expect(JSON.stringify(response.data)).not.toContain(API_KEY);

        // The other way round: the lists name the order by its number, with the shopper.
        const displayId = completed.data.order.display_id as number;
        const flaggedList = await admin("get", "/admin/pix-checkout/charges?status=paid&limit=200");
        expect(
          flaggedList.data.charges.find((c: Json) => c.charge_id === session.chargeId)?.order,
        ).toMatchObject({ id: orderId, display_id: displayId });
        const transactions = await admin("get", "/admin/pix-checkout/transactions?limit=100");
        expect(transactions.status).toBe(200);
        const tx = transactions.data.transactions.find((t: Json) => t.id === session.chargeId);
        expect(tx?.order).toMatchObject({ id: orderId, display_id: displayId });
      });

      it("lists the charges that need the merchant's attention, and only those", async () => {
        const quiet = await pixSession(11);
        const flagged = await pixSession(12);
        await db(container())("pix_checkout_charge")
          .where({ charge_id: flagged.chargeId })
          .update({
            flagged: true,
            flag_code: "paid_after_charge_closed",
            flag_detail: JSON.stringify({ status: "expired" }),
          });
        const response = await admin("get", "/admin/pix-checkout/charges?needs_attention=true");
        expect(response.status).toBe(200);
        const ids = response.data.charges.map((c: Json) => c.charge_id);
        expect(ids).toContain(flagged.chargeId);
        expect(ids).not.toContain(quiet.chargeId);
        expect(
          response.data.charges.find((c: Json) => c.charge_id === flagged.chargeId),
        ).toMatchObject({
          amount: 1200,
          // An open note only: the money needs nothing.
          attention: "note",
          // a code with values, so the admin says it in the merchant's language
          flag: { code: "paid_after_charge_closed", status: "expired" },
        });
        expect(JSON.stringify(response.data)).not.toContain(API_KEY);

        const wrong = await admin("get", "/admin/pix-checkout/charges?needs_attention=maybe");
        expect(wrong.status).toBe(400);
        expect(wrong.data.code).toBe("invalid_query");
      });

      it("re-checks a charge on demand", async () => {
        const session = await pixSession();
        const response = await admin(
          "post",
          `/admin/pix-checkout/charges/${session.chargeId}/refresh`,
        );
        expect(response.status).toBe(200);
        expect(response.data).toMatchObject({
          outcome: "duplicate",
          charge: { status: "pending" },
        });
      });

      it("shows the balance in cents", async () => {
        const response = await admin("get", "/admin/pix-checkout/balance");
        expect(response.status).toBe(200);
        expect(response.data.balance.currency).toBe("BRL");
        expect(Number.isInteger(response.data.balance.available)).toBe(true);
        expect(Number.isInteger(response.data.balance.pending)).toBe(true);
      });

      it("pages through transactions with the cursor", async () => {
        const first = await admin("get", "/admin/pix-checkout/transactions?limit=1&type=charge");
        expect(first.status).toBe(200);
        expect(first.data.transactions).toHaveLength(1);
        expect(first.data.has_more).toBe(true);
        const second = await admin(
          "get",
          `/admin/pix-checkout/transactions?limit=1&type=charge&starting_after=${first.data.next_cursor}`,
        );
        expect(second.data.transactions[0].id).not.toBe(first.data.transactions[0].id);
      });

      it("refuses an unknown transaction filter value with 400 invalid_filters", async () => {
        const response = await admin("get", "/admin/pix-checkout/transactions?status=lost");
        expect(response.status).toBe(400);
        expect(response.data.code).toBe("invalid_filters");
      });

      it("lists recent webhook deliveries with their verification outcome", async () => {
        const session = await pixSession();
        await control(sandbox.url, `charges/${session.chargeId}/pay`, {});
        const response = await waitFor(async () => {
          const r = await admin("get", "/admin/pix-checkout/deliveries?limit=5");
          return (
            r.data.deliveries?.some(
              (d: Json) => d.charge_id === session.chargeId && d.outcome === "processed",
            ) && r
          );
        }, "the delivery to be listed as processed");
        const delivery = response.data.deliveries.find(
          (d: Json) => d.charge_id === session.chargeId,
        );
        expect(delivery).toMatchObject({ event: "charge.paid", outcome: "processed" });
        expect(delivery).not.toHaveProperty("body");
      });
    });

    /** One request sent byte for byte (axios and fetch would re-encode a broken path). */
    const raw = (method: string, rawPath: string, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; headers: Record<string, unknown>; text: string }>(
        (resolve, reject) => {
          const url = new URL(baseUrl);
          const body = method === "POST" ? "{}" : undefined;
          const req = httpRequest(
            {
              host: url.hostname,
              port: url.port,
              method,
              path: rawPath,
              headers: { ...(body ? { "content-type": "application/json" } : {}), ...headers },
            },
            (res) => {
              const chunks: Buffer[] = [];
              // A stream that opened after all is cut after its first bytes.
              res.on("data", (chunk: Buffer) => {
                chunks.push(chunk);
                if (res.headers["content-type"]?.includes("event-stream")) res.destroy();
              });
              const done = () =>
                resolve({
                  status: res.statusCode ?? 0,
                  headers: res.headers,
                  text: Buffer.concat(chunks).toString("utf8"),
                });
              res.on("end", done).on("close", done);
            },
          );
          req.on("error", reject);
          req.end(body);
        },
      );

    describe("malformed paths", () => {
      let adminHeaders: Record<string, string>;
      beforeAll(async () => {
        adminHeaders = await adminLogin(container(), "malformed-paths@example.com");
      });

      // Every plugin route with a path parameter; `X` is where the malformed value goes.
      const ROUTES: { method: string; path: string; page?: true; who?: "store" | "admin" }[] = [
        { method: "GET", path: "/store/pix-checkout/sessions/X", who: "store" },
        { method: "GET", path: "/store/pix-checkout/sessions/X/qr.svg", who: "store" },
        { method: "GET", path: "/store/pix-checkout/sessions/X/stream", who: "store" },
        { method: "POST", path: "/store/pix-checkout/sessions/X/shown", who: "store" },
        { method: "POST", path: "/store/pix-checkout/sessions/X/refresh", who: "store" },
        { method: "GET", path: "/store/pix-checkout/orders/X", who: "store" },
        { method: "POST", path: "/store/pix-checkout/carts/X/payment-method", who: "store" },
        { method: "GET", path: "/pix-checkout/payment-collection/X", page: true },
        { method: "GET", path: "/pix-checkout/recovery/X", page: true },
        { method: "POST", path: "/pix-checkout/recovery/X", page: true },
        { method: "GET", path: "/pix-checkout/recovery/X/opt-out", page: true },
        { method: "GET", path: "/pix-checkout/assets/X" },
        { method: "GET", path: "/pix-checkout/assets/chunks/X" },
        { method: "POST", path: `/hooks/pix-checkout/X?token=${WEBHOOK_SECRET}` },
        { method: "GET", path: "/admin/pix-checkout/orders/X", who: "admin" },
        { method: "POST", path: "/admin/pix-checkout/charges/X/refresh", who: "admin" },
        { method: "POST", path: "/admin/pix-checkout/orders/X/payment-collection", who: "admin" },
      ];
      const VALUES = [
        "%", // a lone percent sign
        "%zz", // not hex
        "%E0%A4%A", // a UTF-8 sequence cut short
        "%C0%AF", // an overlong UTF-8 encoding of "/"
        "%00", // NUL
        "abc%00def",
        "x".repeat(2_000), // far longer than any id
        "%F0%9F%92%B8", // an emoji
        "%C3%A7%C3%A3o", // Portuguese letters
        "..",
        "%2e%2e",
        "..%2F..%2Fpackage.json",
        "%2F",
        "%25",
        "%uD800",
      ];
      const cases = ROUTES.flatMap((route) =>
        VALUES.map((value) => ({ ...route, url: route.path.replace("X", value), value })),
      );

      it(`answers each of ${cases.length} malformed paths with a 4xx and a code (or a page), never a 500`, async () => {
        const failures: string[] = [];
        for (const c of cases) {
          const headers =
            c.who === "store" ? keyHeader() : c.who === "admin" ? adminHeaders : undefined;
          const answer = await raw(c.method, c.url, headers);
          const what = `${c.method} ${c.path} with ${c.value.slice(0, 20)}: ${answer.status} ${answer.text.slice(0, 120)}`;
          if (answer.status < 400 || answer.status >= 500) {
            failures.push(what);
            continue;
          }
          if (c.page && String(answer.headers["content-type"]).includes("text/html")) {
            if (!answer.text.includes('lang="pt-BR"')) failures.push(`${what} (not the page)`);
            continue;
          }
          let code: unknown;
          try {
            code = (JSON.parse(answer.text) as { code?: unknown }).code;
          } catch {
            code = undefined;
          }
          if (typeof code !== "string" || code === "unknown_error") {
            failures.push(`${what} (no stable code)`);
          }
        }
        expect(failures).toEqual([]);
      });

      it("answers a broken percent-escape 400 invalid_path, and the pages a page saying the link is incomplete", async () => {
        const store = await raw("GET", "/store/pix-checkout/sessions/%E0%A4%A", keyHeader());
        expect(store.status).toBe(400);
        expect(JSON.parse(store.text)).toMatchObject({ code: "invalid_path" });
        const page = await raw("GET", "/pix-checkout/payment-collection/%");
        expect(page.status).toBe(400);
        expect(page.headers["content-type"]).toMatch(/text\/html/);
        expect(page.text).toContain("Este link está incompleto");
        // Medusa's own routes keep Medusa's answer.
        const medusa = await raw("GET", "/store/carts/%", keyHeader());
        expect(medusa.text).not.toContain("invalid_path");
      });
    });

    describe("when a provider method has a bug", () => {
      /**
       * A module of the built plugin Medusa loaded: the workspace link resolves to this path, so
       * Node's module cache holds the very object the running provider calls through, and a
       * spy on it changes what the provider does, in this process, with no product code changed.
       */
      const builtModule = <T>(file: string): T =>
        createRequire(__filename)(
          path.join(__dirname, "..", "..", ".medusa", "server", "src", file),
        ) as T;

      it("answers a TypeError in initiatePayment 500 internal_error, with the error id of the log line that holds its stack, and asks the service for nothing", async () => {
        const chargeInput = builtModule<{ chargeInputOf: (...args: unknown[]) => unknown }>(
          "internal/checkout/charge-input.js",
        );
        const original = chargeInput.chargeInputOf;
        // A bug as one is written: the session's input lost on the way, then read as if it
        // were there. The real code throws the TypeError.
        const bug = vi
          .spyOn(chargeInput, "chargeInputOf")
          .mockImplementation((method, cents, _input, ...rest) =>
            original(method, cents, undefined, ...rest),
          );
        // Medusa's logger is one shared instance: the provider's lines go through it too.
        const logger = container().resolve(ContainerRegistrationKeys.LOGGER) as unknown as {
          error: (...args: unknown[]) => void;
        };
        const tap = vi.spyOn(logger, "error");
        const cartId = await createCart(container(), store, 37.7);
        const callsBefore = proxy.calls.length;
        let created: { status: number; data: Json };
        let lines: string[];
        let bugCalls: number;
        try {
          created = await shop.initiate(cartId, "pp_pix_a");
          lines = tap.mock.calls.map((args) => args.map(logText).join(" "));
          bugCalls = bug.mock.calls.length;
        } finally {
          bug.mockRestore();
          tap.mockRestore();
        }
        // The bug ran inside the provider Medusa called.
        expect(bugCalls).toBeGreaterThan(0);
        expect(created.status).toBe(500);
        expect(created.data.code).toBe("internal_error");
        // Not "try again": asking again would only repeat the bug.
        expect(created.data.message).not.toMatch(/try again|retry|unavailable/i);
        expect(created.data.message).toMatch(/nothing was charged/);
        const errorId = /error id ([0-9a-f-]{36})/.exec(created.data.message)?.[1];
        expect(errorId).toBeDefined();
        const line = lines.find((l) => l.includes(`[pix-checkout] unexpected error ${errorId}`));
        expect(line).toMatch(/TypeError: Cannot read properties of undefined/);
        // Its stack names the file and line that failed (the source map's, or the build's).
        expect(line).toMatch(/charge-input\.(ts|js):\d+/);
        expect(line).not.toContain(API_KEY);
        // The answer names the id, not the failure's inside.
        expect(JSON.stringify(created.data)).not.toMatch(/Cannot read|charge-input|\.js:/);
        // Nothing was asked of the payment service: no charge was made for a code nobody saw.
        expect(proxy.calls.slice(callsBefore).filter((c) => c.startsWith("POST"))).toEqual([]);
        // Once the bug is gone, the same cart gets its code.
        expect((await shop.initiate(cartId, "pp_pix_a")).status).toBe(200);
      });
    });

    describe("when the store's database is cut", () => {
      let adminHeaders: Record<string, string>;
      let session: { id: string; chargeId: string; cartId: string };
      let collectionId: string;
      let restoreAcquireTimeout: () => void;

      beforeAll(async () => {
        adminHeaders = await adminLogin(container(), "database-cut@example.com");
      });

      beforeEach(async () => {
        session = await pixSession();
        collectionId = (
          (await db(container())("payment_session")
            .where({ id: session.id })
            .first("payment_collection_id")) as { payment_collection_id: string }
        ).payment_collection_id;
        // Knex waits 60 s by default for a connection it cannot make before it gives up; the
        // pool here gives up after 2 s, so a dozen routes are asked in seconds. A query on a
        // connection that is cut fails at once either way.
        const pool = (
          db(container()) as unknown as { client: { pool: { acquireTimeoutMillis: number } } }
        ).client.pool;
        const before = pool.acquireTimeoutMillis;
        pool.acquireTimeoutMillis = 2_000;
        restoreAcquireTimeout = () => {
          pool.acquireTimeoutMillis = before;
        };
      });

      afterEach(async () => {
        pgProxy.restore();
        restoreAcquireTimeout();
        // The pool makes new connections once Postgres is reachable again.
        await waitFor(async () => (await status(session.id)).status === 200, "the store back");
      });

      const hook = `/hooks/pix-checkout/a?token=${WEBHOOK_SECRET}`;
      const routes = () => [
        { method: "GET", path: `/store/pix-checkout/sessions/${session.id}`, h: keyHeader() },
        {
          method: "POST",
          path: `/store/pix-checkout/sessions/${session.id}/shown`,
          h: keyHeader(),
        },
        {
          method: "GET",
          path: `/store/pix-checkout/sessions/${session.id}/stream`,
          h: keyHeader(),
        },
        {
          method: "GET",
          path: `/store/pix-checkout/sessions/${session.id}/qr.svg`,
          h: keyHeader(),
        },
        {
          method: "POST",
          path: `/store/pix-checkout/sessions/${session.id}/refresh`,
          h: keyHeader(),
        },
        {
          method: "POST",
          path: `/store/pix-checkout/carts/${session.cartId}/payment-method`,
          h: keyHeader(),
          body: { method: "pix" },
        },
        { method: "GET", path: "/store/pix-checkout/orders/order_01ABC", h: keyHeader() },
        {
          method: "GET",
          path: "/admin/pix-checkout/charges?needs_attention=true",
          h: adminHeaders,
        },
        {
          method: "POST",
          path: `/admin/pix-checkout/charges/${session.chargeId}/refresh`,
          h: adminHeaders,
        },
        {
          method: "POST",
          path: hook,
          body: {
            event: "charge.paid",
            data: { uuid: session.chargeId, amount: 4990, status: "paid" },
          },
        },
      ];
      const pages = () => [
        // Ids and tokens of the right shape, so each page must read its records to answer (a
        // link missing its order, or a token of the wrong shape, is refused on sight, below).
        {
          method: "GET",
          path: `/pix-checkout/payment-collection/${collectionId}?order_id=order_01JX3Q8Z2K4T0M9V6R7W5Y1N2B`,
        },
        { method: "GET", path: "/pix-checkout/recovery/rk_0123456789abcdef0123456789abc" },
        {
          method: "GET",
          path: "/pix-checkout/recovery/rk_0123456789abcdef0123456789abc/opt-out",
        },
      ];

      it("answers every plugin route 503 store_unavailable with Retry-After, then 200 again once it is back", async () => {
        pgProxy.cut();
        const answers = await Promise.all(
          routes().map(async (r) => {
            const response = await (api as unknown as Api).request({
              method: r.method,
              url: r.path,
              headers: r.h ?? {},
              data: r.body ?? (r.method === "POST" ? {} : undefined),
              validateStatus: () => true,
              // A stream that opened after all would never end.
              timeout: 20_000,
            });
            return { route: `${r.method} ${r.path.split("?")[0]}`, response };
          }),
        );
        for (const { route, response } of answers) {
          expect({ route, status: response.status, body: response.data }).toMatchObject({
            route,
            status: 503,
            body: { code: "store_unavailable" },
          });
          expect(
            (response as unknown as { headers: Record<string, string> }).headers["retry-after"],
            route,
          ).toBe("3");
          const text = JSON.stringify(response.data);
          for (const leak of [
            API_KEY,
            WEBHOOK_SECRET,
            "select",
            "insert",
            "postgres",
            "ECONN",
            "5432",
          ]) {
            expect(text.toLowerCase(), route).not.toContain(leak.toLowerCase());
          }
        }
        pgProxy.restore();
        await waitFor(async () => (await status(session.id)).status === 200, "the store back");
        expect((await status(session.id)).data).toMatchObject({ session_id: session.id });
        const hookBack = await (api as unknown as Api).request({
          method: "POST",
          url: hook,
          data: {
            event: "charge.paid",
            data: { uuid: session.chargeId, amount: 4990, status: "paid" },
          },
          validateStatus: () => true,
        });
        expect(hookBack.status).toBe(200);
      });

      it("takes the paid webhook it refused while cut when the service delivers it again: one order, paid once", async () => {
        /** The service's attempts to deliver this charge's `charge.paid`, in order. */
        const attempts = async () =>
          (
            (await (await fetch(`${sandbox.url}/__sandbox/webhooks`)).json()) as {
              event: string;
              status_code: number | null;
              body: { data: { uuid?: string } };
            }[]
          )
            .filter((d) => d.event === "charge.paid" && d.body.data.uuid === session.chargeId)
            .map((d) => d.status_code);
        pgProxy.cut();
        await control(sandbox.url, `charges/${session.chargeId}/pay`, {});
        await waitFor(async () => (await attempts()).includes(503), "a delivery the store refused");
        pgProxy.restore();
        await waitFor(async () => (await attempts()).includes(200), "the delivery taken");
        const delivered = await attempts();
        expect(delivered[0]).toBe(503);
        expect(delivered.at(-1)).toBe(200);
        expect(delivered.filter((code) => code === 200)).toHaveLength(1);

        // What the shopper and Medusa see: the order placed once, its payment captured once.
        const order = await waitFor(() => orderOfCart(container(), session.cartId), "its order");
        await waitFor(
          async () => (await status(session.id)).data.status === "paid",
          "the code paid",
        );
        const orders = await db(container())("order_cart").where({ cart_id: session.cartId });
        expect(orders.map((o: { order_id: string }) => o.order_id)).toEqual([order.id]);
        await waitFor(
          async () => (await capturedCentsOfSession(container(), session.id)) === 4990,
          "the payment captured",
        );
        expect(await capturesOfSession(container(), session.id)).toBe(1);
      });

      it("answers the pages a page in Portuguese that asks again by itself, and changes nothing", async () => {
        // What each page answers with its database (a cart's collection and an unknown token
        // have no page to show: a 4xx page), to compare once the database is back.
        const before = await Promise.all(
          pages().map(async (p) => (await raw(p.method, p.path)).status),
        );
        expect(before.every((s) => s < 500)).toBe(true);
        pgProxy.cut();
        for (const p of pages()) {
          const answer = await raw(p.method, p.path);
          expect({ path: p.path, status: answer.status }).toEqual({ path: p.path, status: 503 });
          expect(answer.headers["retry-after"]).toBe("3");
          expect(answer.headers["content-type"]).toMatch(/text\/html/);
          expect(answer.text).toContain("A loja está indisponível por um instante");
          // It asks again by itself, by its own script (the CSP names its nonce), every 3 s.
          expect(answer.headers["content-security-policy"]).toMatch(/script-src 'nonce-/);
          expect(answer.text).toContain('"waitMs":3000');
          expect(answer.text).not.toMatch(/select|postgres|5432/i);
        }
        // A page that needs no record to refuse a link (no order named) still answers it, and
        // its limit is counted in memory: nothing of it waits for the database.
        for (const path of [
          `/pix-checkout/payment-collection/${collectionId}`,
          "/pix-checkout/recovery/rk_0123456789abcdef0123456789abcdef",
        ]) {
          expect({ path, status: (await raw("GET", path)).status }).toEqual({ path, status: 404 });
        }
        pgProxy.restore();
        await waitFor(async () => (await status(session.id)).status === 200, "the store back");
        const after = await Promise.all(
          pages().map(async (p) => (await raw(p.method, p.path)).status),
        );
        expect(after).toEqual(before);
      });
    });
  },
});
