import path from "node:path";
import { medusaIntegrationTestRunner } from "@medusajs/test-utils";
import type { Sandbox } from "@pix-checkout/sandbox" with { "resolution-mode": "import" };
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils";
import type { IPaymentModuleService } from "@medusajs/framework/types";
import { startAppSandboxes } from "../helpers/sandboxes";
import {
  BOLETO_PAYER,
  capturesOfSession,
  control,
  storefront,
  type Api,
  type Json,
} from "../helpers/checkout";
import { createCart, createStoreFixture } from "../helpers/store-fixture";
import { waitFor } from "../helpers/wait-for";
import { parsePeriod } from "../../src/internal/books/books";
import { registeredProviders } from "../../src/internal/platform/provider-registry";
import { reconcilePeriod } from "../../src/internal/books/reconciliation";
import { nextDay, saoPauloDay, startOfSaoPauloDay } from "@pix-checkout/client/books";
import { barcodeDueDay } from "../../src/internal/checkout/boleto-due-date";

// What the daily books read, against a real Medusa and the sandbox: a boleto paid weeks after
// it was created is still found, and Medusa is asked only for this plugin's captures and
// refunds, not the whole store's. The report is made by the source's reconcilePeriod (the test
// app loads the built plugin), as the daily job makes it.

const API_KEY = "sk_live_books_reach_key";
const WEBHOOK_SECRET = "whsec-test-a-0123456789";
const DAY_MS = 86_400_000;

let sandbox: Sandbox;
let sandboxB: Sandbox;

beforeAll(async () => {
  // Boletos due in 45 days, as a store selling on terms issues them.
  ({ a: sandbox, b: sandboxB } = await startAppSandboxes(API_KEY, {
    a: { boletoDueDays: 45 },
  }));
});

afterAll(async () => {
  await sandbox?.close();
  await sandboxB?.close();
});

/** Creates a charge straight at the service (not through the store); returns its id. */
async function chargeAtService(body: Record<string, unknown>): Promise<string> {
  const created = await fetch(`${sandbox.baseUrl}/charges`, {
    method: "POST",
    headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(created.status).toBe(201);
  return ((await created.json()) as { uuid: string }).uuid;
}

const boleto = (amount: number) => ({
  amount,
  payment_method: "boleto",
  customer: {
    name: "Carla Dias",
    email: "carla@example.com",
    document: "123.456.789-09",
    phone: "(11) 98765-4321",
  },
  billing_address: {
    zip: "01310-100",
    state: "SP",
    city: "São Paulo",
    street: "Avenida Paulista",
    neighborhood: "Bela Vista",
    number: "1000",
  },
});

medusaIntegrationTestRunner({
  cwd: path.join(__dirname, "..", "app"),
  testSuite: ({ api, getContainer }) => {
    const container = () => getContainer();
    const registration = () => {
      const found = registeredProviders(
        container().resolve(ContainerRegistrationKeys.CONFIG_MODULE),
      ).find((provider) => provider.key === "a");
      if (!found) throw new Error("registration a is not in the test app's config");
      return found;
    };
    const dayPeriod = (day: string) => {
      const period = parsePeriod(day, day, day);
      if (!period.ok) throw new Error(period.message);
      return period;
    };

    it("asks Medusa only for the captures and refunds of this plugin's providers", async () => {
      // A Pix paid through the store and captured, through the webhook.
      const base = (api as unknown as Api).defaults.baseURL;
      await control(sandbox.url, "webhook-urls", {
        url: `${base}/hooks/pix-checkout/a?token=${WEBHOOK_SECRET}`,
      });
      const store = await createStoreFixture(container());
      const created = await storefront(api as unknown as Api, store).initiate(
        await createCart(container(), store, 30),
        "pp_pix_a",
      );
      const pixSession = created.data.payment_collection.payment_sessions[0] as Json;
      await control(sandbox.url, `charges/${pixSession.data.charge_id}/pay`, {});
      await waitFor(
        async () => (await capturesOfSession(container(), pixSession.id)) === 1,
        "the capture of the store's Pix",
      );
      // From here on the store hears nothing from the service.
      await fetch(`${sandbox.url}/__sandbox/webhook-urls`, { method: "DELETE" });
      // A card-like payment of another provider, captured and partly refunded today.
      const payments = container().resolve<IPaymentModuleService>(Modules.PAYMENT);
      const collection = await payments.createPaymentCollections({
        currency_code: "brl",
        amount: 99,
      });
      const session = await payments.createPaymentSession(collection.id, {
        provider_id: "pp_system_default",
        currency_code: "brl",
        amount: 99,
        data: {},
      });
      const payment = await payments.authorizePaymentSession(session.id, {});
      if (!payment) throw new Error("the system provider did not authorize");
      await payments.capturePayment({ payment_id: payment.id, amount: 99 });
      await payments.refundPayment({ payment_id: payment.id, amount: 10 });

      const listCaptures = vi.spyOn(payments, "listCaptures");
      const listRefunds = vi.spyOn(payments, "listRefunds");
      try {
        const report = await reconcilePeriod(
          container(),
          registration(),
          dayPeriod(saoPauloDay(new Date())),
        );
        expect(report.lines.find((line) => line.id === pixSession.data.charge_id)).toMatchObject({
          gross_cents: 3000,
          medusa_cents: 3000,
          difference: null,
        });
        const loaded = async (spy: typeof listCaptures | typeof listRefunds) =>
          (
            await Promise.all(spy.mock.results.map((result) => result.value as Promise<Json[]>))
          ).flat();
        const captures = await loaded(listCaptures);
        const refunds = await loaded(listRefunds);
        expect(listCaptures).toHaveBeenCalled();
        expect(listRefunds).toHaveBeenCalled();
        expect(captures.map((c) => c.payment.provider_id)).toEqual(["pp_pix_a"]);
        expect(captures.map((c) => c.payment_id)).not.toContain(payment.id);
        expect(refunds.map((r) => r.payment_id)).not.toContain(payment.id);
      } finally {
        listCaptures.mockRestore();
        listRefunds.mockRestore();
      }
    });

    it("finds a boleto paid in the period that was created weeks before it and never captured", async () => {
      const oldBoleto = await chargeAtService(boleto(12_345));
      // Three weeks later (the sandbox's clock), the payer pays it; the store never hears.
      await control(sandbox.url, "clock", { advance_ms: 21 * DAY_MS });
      const paid = (await (await control(sandbox.url, `charges/${oldBoleto}/pay`, {})).json()) as {
        status: string;
      };
      expect(paid.status).toBe("paid");
      const clock = (await (await fetch(`${sandbox.url}/__sandbox/clock`)).json()) as {
        now: string;
      };
      const day = saoPauloDay(new Date(clock.now));

      const report = await reconcilePeriod(container(), registration(), dayPeriod(day));

      expect(report.differences.filter((d) => d.id === oldBoleto)).toMatchObject([
        { kind: "paid_not_captured", service_cents: 12_345, medusa_cents: null },
      ]);
      expect(report.lines.find((line) => line.id === oldBoleto)).toMatchObject({
        type: "charge",
        status: "paid",
        gross_cents: 12_345,
        customer: "Carla Dias",
      });
    });

    it("a boleto made at 22:04 in São Paulo shows the one due day its barcode carries", async () => {
      // 22:04 in São Paulo is 01:04 UTC of the next day: the UTC and São Paulo calendars name
      // different days for the creation and for the due date.
      const now = (await (await fetch(`${sandbox.url}/__sandbox/clock`)).json()) as { now: string };
      const tomorrow = nextDay(saoPauloDay(new Date(now.now)));
      const lateEvening = startOfSaoPauloDay(tomorrow).getTime() + (22 * 60 + 4) * 60_000;
      await control(sandbox.url, "clock", { now: new Date(lateEvening).toISOString() });

      const store = await createStoreFixture(container());
      const shop = storefront(api as unknown as Api, store);
      const created = await shop.initiate(
        await createCart(container(), store, 80),
        "pp_boleto_a",
        BOLETO_PAYER,
      );
      expect(created.data).not.toHaveProperty("message");
      const session = created.data.payment_collection.payment_sessions[0] as Json;
      const view = (await shop.call("get", `/store/pix-checkout/sessions/${session.id}`)).data;
      const atService = (await (
        await fetch(`${sandbox.baseUrl}/charges/${session.data.charge_id}`, {
          headers: { authorization: `Bearer ${API_KEY}` },
        })
      ).json()) as { expires_at: string };
      const expiresAt = new Date(atService.expires_at);

      expect(expiresAt.toISOString().slice(0, 10)).not.toBe(saoPauloDay(expiresAt));
      expect(view.boleto.due_date).toBe(saoPauloDay(expiresAt));
      expect(barcodeDueDay(view.boleto.digitable_line, expiresAt)).toBe(view.boleto.due_date);
      const row = await container()
        .resolve(ContainerRegistrationKeys.PG_CONNECTION)("pix_checkout_charge")
        .where({ charge_id: session.data.charge_id })
        .first();
      expect(row.flagged).toBe(false);
    });
  },
});
