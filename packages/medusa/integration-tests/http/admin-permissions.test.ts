import path from "node:path";
import { medusaIntegrationTestRunner } from "@medusajs/test-utils";
import type { MedusaContainer } from "@medusajs/framework/types";
import { Modules } from "@medusajs/framework/utils";
import { createUsersWorkflow } from "@medusajs/medusa/core-flows";
import type { Sandbox } from "@pix-checkout/sandbox" with { "resolution-mode": "import" };
import { startAppSandboxes } from "../helpers/sandboxes";
import { createCart, createStoreFixture, type StoreFixture } from "../helpers/store-fixture";
import { control, db, orderOfCart, storefront, type Api, type Json } from "../helpers/checkout";
import { waitFor } from "../helpers/wait-for";
import { askPermissions, permittedActions } from "../../src/admin/lib/permissions";

// The plugin's admin routes under Medusa's role-based access control, with the store's caching
// on too (issue 53's run): Medusa reads its feature flags from the environment when it boots,
// and each test file runs in a process of its own, so only this suite's Medusa has them. Roles
// are made and given through Medusa's own admin API, users log in through Medusa's own auth
// route (the token carries their roles), and every refusal is Medusa's 403, before the route.
process.env.MEDUSA_FF_RBAC = "true";
process.env.MEDUSA_FF_CACHING = "true";

const API_KEY = "sk_live_rbac_5ecret_key";
const WEBHOOK_SECRET = "whsec-test-a-0123456789";
const PASSWORD = "senha-forte-do-teste-1";

let sandbox: Sandbox;
let sandboxB: Sandbox;

beforeAll(async () => {
  ({ a: sandbox, b: sandboxB } = await startAppSandboxes(API_KEY));
});

afterAll(async () => {
  await sandbox?.close();
  await sandboxB?.close();
});

/**
 * An admin user with a password and the given roles, made as Medusa's `medusa user` command
 * makes one (the user, then its emailpass identity pointing at it).
 */
async function createAdminUser(container: MedusaContainer, email: string, roles: string[] = []) {
  const { result } = await createUsersWorkflow(container).run({
    input: { users: [{ email, roles }] },
  });
  const auth = container.resolve(Modules.AUTH);
  const { authIdentity, error } = await auth.register("emailpass", {
    body: { email, password: PASSWORD },
  });
  if (!authIdentity) throw new Error(`register ${email}: ${error}`);
  await auth.updateAuthIdentities({
    id: authIdentity.id,
    app_metadata: { user_id: result[0]!.id },
  });
  return result[0]!.id;
}

medusaIntegrationTestRunner({
  cwd: path.join(__dirname, "..", "app"),
  testSuite: ({ api, getContainer, utils }) => {
    const http = api as unknown as Api;
    const container = () => getContainer();
    let store: StoreFixture;
    let chargeId: string;
    let cartId: string;
    const as: Record<string, Record<string, string>> = {};

    const call = (who: string, method: string, url: string, data?: unknown) =>
      http.request({
        method,
        url,
        data,
        headers: as[who] ?? {},
        validateStatus: () => true,
      });
    /** Logs in through Medusa's auth route, as the dashboard does; the token carries the roles. */
    const login = async (email: string) => {
      const answer = await call("", "post", "/auth/user/emailpass", { email, password: PASSWORD });
      expect(answer.status, JSON.stringify(answer.data)).toBe(200);
      return { authorization: `Bearer ${answer.data.token as string}` };
    };

    beforeAll(async () => {
      store = await createStoreFixture(container());
      const base = http.defaults.baseURL;
      await control(sandbox.url, "webhook-urls", {
        url: `${base}/hooks/pix-checkout/a?token=${WEBHOOK_SECRET}`,
      });
      await createAdminUser(container(), "dona@loja.example.com", ["role_super_admin"]);
      as.owner = await login("dona@loja.example.com");

      // The roles, through Medusa's admin API as the owner would make them in Settings → Roles.
      const policies = await call("owner", "get", "/admin/rbac/policies?limit=1000&fields=id,key");
      expect(policies.status, JSON.stringify(policies.data)).toBe(200);
      const idOf = new Map<string, string>(
        (policies.data.policies as { id: string; key: string }[]).map((p) => [p.key, p.id]),
      );
      const role = async (name: string, keys: string[]) => {
        const made = await call("owner", "post", "/admin/rbac/roles", {
          name,
          policy_ids: keys.map((key) => {
            const id = idOf.get(key);
            if (!id) throw new Error(`no policy ${key}`);
            return id;
          }),
        });
        expect(made.status, JSON.stringify(made.data)).toBe(200);
        return made.data.role.id as string;
      };
      const user = async (email: string, roleId?: string) => {
        const id = await createAdminUser(container(), email);
        if (roleId) {
          const given = await call("owner", "post", `/admin/users/${id}/roles`, {
            roles: [roleId],
          });
          expect(given.status, JSON.stringify(given.data)).toBe(200);
        }
        return login(email);
      };
      const read = "payment:read";
      const own = ["refund", "accept", "resolve", "export", "recheck", "med"].map(
        (o) => `pix_checkout:${o}`,
      );
      as.viewer = await user("leitura@loja.example.com", await role("Leitura", [read]));
      as.refunder = await user(
        "devolucoes@loja.example.com",
        await role("Devoluções", [read, "pix_checkout:refund"]),
      );
      as.allButRefund = await user(
        "financeiro@loja.example.com",
        await role("Financeiro sem devolução", [
          read,
          ...own.filter((p) => p !== "pix_checkout:refund"),
        ]),
      );
      as.noRole = await user("sem-funcao@loja.example.com");

      // A Pix checkout paid through the sandbox over HTTP: the webhook, the fetch-back, the
      // capture and the order, all with RBAC and caching on.
      cartId = await createCart(container(), store, 25);
      const created = await storefront(http, store).initiate(cartId, "pp_pix_a");
      expect(created.status, JSON.stringify(created.data)).toBe(200);
      chargeId = created.data.payment_collection.payment_sessions[0].data.charge_id as string;
      await control(sandbox.url, `charges/${chargeId}/pay`, {});
      await waitFor(async () => {
        const order = await orderOfCart(container(), cartId);
        return order?.payment_collections[0]?.status === "completed" && order;
      }, "the order to be paid");
      // Everything the capture sets off is done before the runner snapshots the database (each
      // test starts from that snapshot): the ledger says captured, nothing is left to follow up.
      await waitFor(async () => {
        const row = await db(container())("pix_checkout_charge")
          .where({ charge_id: chargeId })
          .first();
        const pending = await db(container())("pix_checkout_outbox").whereNull("done_at").first();
        return Number(row.captured_cents) === 2500 && Number(row.held_cents) === 0 && !pending;
      }, "the capture and its follow-ups");
      await utils.waitWorkflowExecutions();
    });

    const refundBody = () => ({ amount: 500, note: "devolvido por Pix no painel do serviço" });
    const note = { note: "tratado com o cliente" };
    const medBody = { protocol: "MED-2026-0001", deadline: "2026-12-10", amount: 1_000 };
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo" }).format(
      new Date(),
    );
    const period = `from=${today}&to=${today}`;
    /** The routes behind each of the plugin's own operations (refund, accept, resolve, export, re-check). */
    const guarded = () =>
      [
        ["post", `/admin/pix-checkout/charges/${chargeId}/refunds`, refundBody()],
        ["post", `/admin/pix-checkout/charges/${chargeId}/accept`, note],
        ["post", `/admin/pix-checkout/charges/${chargeId}/resolve`, note],
        ["post", `/admin/pix-checkout/charges/${chargeId}/refresh`, undefined],
        ["get", `/admin/pix-checkout/reconciliation?${period}`, undefined],
        ["get", `/admin/pix-checkout/reconciliation.csv?${period}`, undefined],
        ["get", `/admin/pix-checkout/reconciliation.ofx?${period}`, undefined],
        ["post", `/admin/pix-checkout/charges/${chargeId}/med`, medBody],
      ] as const;
    const returned = async () =>
      Number(
        (await db(container())("pix_checkout_charge").where({ charge_id: chargeId }).first())
          .returned_cents,
      );

    it("boots with RBAC and caching on, pays a Pix checkout, and lists the plugin's operations as policies a role can be given", async () => {
      const flags = await call("", "get", "/admin/feature-flags");
      expect(flags.data.feature_flags).toMatchObject({ rbac: true, caching: true });
      expect((await orderOfCart(container(), cartId))?.payment_collections[0]?.status).toBe(
        "completed",
      );
      const ours = await call("owner", "get", "/admin/rbac/policies?resource=pix_checkout");
      expect(ours.status).toBe(200);
      expect((ours.data.policies as { key: string }[]).map((p) => p.key).sort()).toEqual([
        "pix_checkout:accept",
        "pix_checkout:export",
        "pix_checkout:med",
        "pix_checkout:recheck",
        "pix_checkout:refund",
        "pix_checkout:resolve",
      ]);
    });

    it("a role that reads payments reads every plugin page, and gets Medusa's 403 on refund, accept, resolve, re-check and the books, changing nothing", async () => {
      for (const url of [
        "/admin/pix-checkout/overview",
        "/admin/pix-checkout/balance",
        "/admin/pix-checkout/transactions",
        "/admin/pix-checkout/charges?needs_attention=true",
        "/admin/pix-checkout/deliveries",
        "/admin/pix-checkout/health",
        `/admin/pix-checkout/orders/${(await orderOfCart(container(), cartId))!.id}`,
      ]) {
        const answer = await call("viewer", "get", url);
        expect(answer.status, `${url}: ${JSON.stringify(answer.data)}`).toBe(200);
      }
      for (const [method, url, body] of guarded()) {
        const answer = await call("viewer", method, url, body);
        expect(answer.status, url).toBe(403);
        // Medusa's own error, naming what is missing; never the route's work.
        expect(answer.data).toEqual({
          type: "forbidden",
          message: expect.stringMatching(
            /^Insufficient permissions\. Required policies: payment:read, pix_checkout:(refund|accept|resolve|recheck|export|med)$/,
          ),
        });
      }
      // "Cobrar por Pix" makes a payment collection: it asks what Medusa's own route asks.
      const orderId = (await orderOfCart(container(), cartId))!.id;
      const charge = await call(
        "viewer",
        "post",
        `/admin/pix-checkout/orders/${orderId}/payment-collection`,
      );
      expect(charge.status).toBe(403);
      expect(charge.data.message).toBe(
        "Insufficient permissions. Required policies: payment:read, payment_collection:create",
      );
      // The Pix discount is a Medusa promotion: it asks what Medusa's promotion routes ask.
      expect((await call("viewer", "get", "/admin/pix-checkout/pix-discount")).status).toBe(403);
      // What the discount cost is the discount's tab: the same policies, not the books'.
      const cost = await call("viewer", "get", `/admin/pix-checkout/pix-discount/cost?${period}`);
      expect(cost.status).toBe(403);
      expect(cost.data.message).toBe(
        "Insufficient permissions. Required policies: payment:read, promotion:read",
      );
      const save = { enabled: true, type: "percentage", value: 5 };
      expect((await call("viewer", "post", "/admin/pix-checkout/pix-discount", save)).status).toBe(
        403,
      );
      expect(await returned()).toBe(0);
    });

    it("a role with the refund operation records a refund, and still gets 403 on accept, resolve, re-check and the books", async () => {
      const [[, refundUrl, body], ...others] = guarded();
      for (const [method, url, data] of others) {
        expect((await call("refunder", method, url, data)).status, url).toBe(403);
      }
      const refund = await call("refunder", "post", refundUrl, body);
      expect(refund.status, JSON.stringify(refund.data)).toBe(200);
      expect(refund.data.recorded_in_medusa_cents).toBe(500);
      expect(await returned()).toBe(500);
    });

    it("a role with every operation but refund gets past each other gate, and 403 on refund", async () => {
      const [[method, refundUrl, body], ...others] = guarded();
      expect((await call("allButRefund", method, refundUrl, body)).status).toBe(403);
      expect(await returned()).toBe(0);
      const answers = new Map<string, { status: number; data: Json }>();
      for (const [m, url, data] of others)
        answers.set(url, await call("allButRefund", m, url, data));
      const [accept, resolve, refresh, json, csv, ofx, med] = [...answers.values()];
      // Each route's own answer: the gate let the user through.
      expect(accept!.status).toBe(400);
      expect(accept!.data.code).toBe("charge_not_held");
      expect(resolve!.status).toBe(200);
      expect(refresh!.status).toBe(200);
      expect(json!.status).toBe(200);
      expect(csv!.status).toBe(200);
      expect(ofx!.status).toBe(200);
      // "Registrar MED": the blocked money moved, and nothing was returned.
      expect(med!.status, JSON.stringify(med!.data)).toBe(200);
      expect(med!.data.charge.money).toMatchObject({ captured: 1_500, contested: 1_000 });
    });

    it("a user with no role gets 403 even on reads, and no login still gets 401", async () => {
      expect((await call("noRole", "get", "/admin/pix-checkout/overview")).status).toBe(403);
      expect((await call("", "get", "/admin/pix-checkout/overview")).status).toBe(401);
      expect((await call("", "post", guarded()[0][1], refundBody())).status).toBe(401);
      expect(await returned()).toBe(0);
    });

    it("the admin views hide what Medusa says the user's role lacks, and show what it grants", async () => {
      // The views' own asking (askPermissions), against this Medusa, as each user.
      const actionsOf = async (who: string) =>
        permittedActions(
          await askPermissions(async (url) => {
            const answer = await call(who, "get", url);
            if (answer.status !== 200)
              throw Object.assign(new Error(url), { status: answer.status });
            return answer.data;
          }),
        );
      const viewer = await actionsOf("viewer");
      expect([...viewer].sort()).toEqual(["read"]);
      const refunder = await actionsOf("refunder");
      expect([...refunder].sort()).toEqual(["read", "refund"]);
      const owner = await actionsOf("owner");
      expect([...owner].sort()).toEqual([
        "accept",
        "chargeOrder",
        "export",
        "med",
        "read",
        "readDiscount",
        "recheck",
        "refund",
        "resolve",
        "saveDiscount",
      ]);
      expect((await actionsOf("noRole")).size).toBe(0);
    });
  },
});
